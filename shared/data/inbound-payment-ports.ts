/**
 * What receiving an inbound payment runs on (shared/domain/receive-payment.ts), wired to DynamoDB, the
 * approval callback's HTTP client and the credit decisions queue: the routes that receive payments (a key's,
 * a QR code's) take the same ports.
 */
import type { OwnMerchantCreditDeps } from '../domain/own-merchant-payments';
import type { ReceivePaymentDeps } from '../domain/receive-payment';
import { runtimeConfig } from '../runtime/config';
import { dynamoAccountWrites } from './accounts-repository';
import { crashPoint } from './crash-points';
import { dynamoCustomerWrites } from './customers-repository';
import { dynamoDirectory } from './directory-repository';
import { dynamoApprovalSettingsStore } from './approval-settings-repository';
import { webhookUrlDeps } from './host-resolver';
import { dynamoKeyWrites } from './keys-repository';
import { dynamoInboundPaymentStore } from './payments-repository';
import { dynamoQrCodeWrites } from './qrcodes-repository';
import { secretSealer } from './secret-sealing';
import { creditDecisionQueue } from './queues';
import { httpWebhookTransport } from './webhook-transport';

export const inboundPaymentPorts = (): Omit<ReceivePaymentDeps, 'clock' | 'ids'> => ({
  payments: dynamoInboundPaymentStore,
  approvalSettings: dynamoApprovalSettingsStore,
  qrCodes: dynamoQrCodeWrites,
  keys: dynamoKeyWrites,
  approvalCallback: {
    transport: httpWebhookTransport,
    urls: webhookUrlDeps(),
    timeoutMs: runtimeConfig().approvalTimeoutMs,
    sealer: secretSealer(),
  },
  decisionJobs: creditDecisionQueue(),
  maxPaymentCents: runtimeConfig().maxPaymentCents,
});

/**
 * A copy of a credit waits this long for the first copy's decision (its approval callback has 3 s of
 * its 10), looking this often.
 */
export const CREDIT_DECISION_WAIT = { maxMs: 5_000, pollMs: 200 };

/** What a payment to one of our own merchants runs on for the payee's credit (shared/domain/own-merchant-payments.ts). */
export const ownMerchantCreditPorts = (): Omit<OwnMerchantCreditDeps, 'clock' | 'ids'> => ({
  ...inboundPaymentPorts(),
  directory: dynamoDirectory,
  customers: dynamoCustomerWrites,
  accounts: dynamoAccountWrites,
  participant: runtimeConfig().participant,
  decisionWait: CREDIT_DECISION_WAIT,
  afterPayeeCredit: () => crashPoint('payee-credit-commit'),
});
