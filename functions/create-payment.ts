/** POST /v1/payments: pay a resolved Bre-B key or a saved recipient from one of the client's accounts (docs/payments.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { settleOwnMerchantPayment } from '../shared/domain/own-merchant-payments';
import { createPayment } from '../shared/domain/pay-recipient';
import { FIRST_DECISION_WAIT } from '../shared/domain/pay-resolution';
import { dynamoAccountWrites } from '../shared/data/accounts-repository';
import { runtimeConfig } from '../shared/runtime/config';
import { dynamoCustomerWrites } from '../shared/data/customers-repository';
import { dynamoResolutionStore } from '../shared/data/directory-repository';
import { dynamoKeyWrites } from '../shared/data/keys-repository';
import { ownMerchantCreditPorts } from '../shared/data/inbound-payment-ports';
import { dynamoPaymentStore, dynamoSettlementStore } from '../shared/data/payments-repository';
import { dynamoRecipientWrites } from '../shared/data/recipients-repository';
import { httpHandler } from '../shared/http/handler';
import type { CreatePaymentRequest } from '../shared/schemas/payments';
import { createPaymentRequest } from '../shared/schemas/generated/payments';
import { decisionsAfterCommit, settlementAfterCommit } from './after-commit';
import { stageDirectory } from './network-ports';

export const handler = httpHandler<CreatePaymentRequest>({
  name: 'createPayment',
  body: createPaymentRequest,
  // Reads, the payment's transaction, then its job sent once committed: an Idempotency-Key's answer
  // commits in that transaction. A payment to one of our own merchants, decided within the request,
  // does more: it then runs again under a claim of the key (shared/http/idempotency.ts).
  oneTransaction: true,
  handle: ({ auth, body, idempotencyKey }) =>
    createPayment(
      {
        ...systemNewRecords,
        resolutions: dynamoResolutionStore,
        recipients: dynamoRecipientWrites,
        directory: stageDirectory,
        customers: dynamoCustomerWrites,
        accounts: dynamoAccountWrites,
        keys: dynamoKeyWrites,
        payments: dynamoPaymentStore,
        participant: runtimeConfig().participant,
        maxPaymentCents: runtimeConfig().maxPaymentCents,
        settlement: {
          // After the payment's commit: a failed send answers the payment all the same (functions/after-commit.ts).
          queue: settlementAfterCommit(),
          delayMs: runtimeConfig().sandboxSettlementDelayMs,
        },
        ownMerchants: {
          settle: (payment) =>
            settleOwnMerchantPayment(
              // The payee's decision job is sent after the payer's payment committed too.
              { ...systemNewRecords, ...ownMerchantCreditPorts(), decisionJobs: decisionsAfterCommit() },
              { ...systemNewRecords, payments: dynamoSettlementStore },
              payment,
            ),
          firstDecisionWait: FIRST_DECISION_WAIT,
        },
      },
      auth.tenant,
      body,
      idempotencyKey,
    ),
});
