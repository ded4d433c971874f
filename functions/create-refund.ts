/** POST /v1/payments/{id}/refunds: give an INBOUND payment's money back to its payer, in full or in part (docs/refunds.md). */
import { systemNewRecords } from '../shared/domain/clock';
import { createRefund } from '../shared/domain/refunds';
import { dynamoPaymentGetter } from '../shared/data/payment-reads';
import { dynamoRefundWrites } from '../shared/data/refunds-repository';
import { httpHandler } from '../shared/http/handler';
import { runtimeConfig } from '../shared/runtime/config';
import type { CreateRefundRequest } from '../shared/schemas/refunds';
import { createRefundRequest } from '../shared/schemas/generated/refunds';
import { refundsAfterCommit } from './after-commit';

export const handler = httpHandler<CreateRefundRequest, Record<string, never>, { id: string }>({
  name: 'createRefund',
  body: createRefundRequest,
  handle: ({ auth, body, path, idempotencyKey }) =>
    createRefund(
      {
        ...systemNewRecords,
        payments: dynamoPaymentGetter,
        refunds: dynamoRefundWrites,
        // After the refund's commit: a failed send answers the refund all the same (functions/after-commit.ts).
        queue: refundsAfterCommit(),
        delayMs: runtimeConfig().sandboxSettlementDelayMs,
        windowDays: runtimeConfig().refundWindowDays,
        participantNit: runtimeConfig().participant.nit,
      },
      auth.tenant,
      path.id,
      body,
      idempotencyKey,
    ),
});
