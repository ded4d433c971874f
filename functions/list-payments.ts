/** GET /v1/payments: the client's payments, a page at a time. */
import { systemClock } from '../shared/domain/clock';
import { listPayments } from '../shared/domain/payments';
import { dynamoPaymentReads } from '../shared/data/payment-reads';
import { httpHandler } from '../shared/http/handler';
import type { PaymentListQuery } from '../shared/schemas/payments';
import { paymentListQuery } from '../shared/schemas/generated/payments';

export const handler = httpHandler<undefined, PaymentListQuery>({
  name: 'listPayments',
  query: paymentListQuery,
  handle: ({ auth, query }) => listPayments(dynamoPaymentReads, auth.tenant, query, systemClock.now()),
});
