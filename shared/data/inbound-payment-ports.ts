/**
 * What receiving an inbound payment runs on (shared/domain/receive-payment.ts), wired to DynamoDB, the
 * approval callback's HTTP client and the settlement queue: the routes that receive payments (a key's,
 * a QR code's) take the same ports.
 */
import type { ReceivePaymentDeps } from '../domain/receive-payment';
import { runtimeConfig } from '../runtime/config';
import { dynamoApprovalSettingsStore } from './approval-settings-repository';
import { webhookUrlDeps } from './host-resolver';
import { dynamoKeyStore } from './keys-repository';
import { dynamoInboundPaymentStore } from './payments-repository';
import { dynamoQrCodeStore } from './qrcodes-repository';
import { secretSealer } from './secret-sealing';
import { settlementQueue } from './queues';
import { httpWebhookTransport } from './webhook-transport';

export const inboundPaymentPorts = (): Omit<ReceivePaymentDeps, 'clock' | 'ids'> => ({
  payments: dynamoInboundPaymentStore,
  approvalSettings: dynamoApprovalSettingsStore,
  qrCodes: dynamoQrCodeStore,
  keys: dynamoKeyStore,
  approvalCallback: {
    transport: httpWebhookTransport,
    urls: webhookUrlDeps(),
    timeoutMs: runtimeConfig().approvalTimeoutMs,
    sealer: secretSealer(),
  },
  decisionJobs: settlementQueue(),
  maxPaymentCents: runtimeConfig().maxPaymentCents,
});
