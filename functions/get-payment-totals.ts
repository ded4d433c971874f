/** GET /v1/payment-totals: the payments' figures per Bogotá day of a period, kept at write time. */
import { systemClock } from '../shared/domain/clock';
import { getPaymentTotals } from '../shared/domain/payment-totals';
import { dynamoPaymentTotalsStore } from '../shared/data/payment-totals';
import { httpHandler } from '../shared/http/handler';
import type { PaymentTotalsQuery } from '../shared/schemas/payments';
import { paymentTotalsQuery } from '../shared/schemas/generated/payments';

export const handler = httpHandler<undefined, PaymentTotalsQuery>({
  name: 'getPaymentTotals',
  query: paymentTotalsQuery,
  handle: ({ auth, query }) => getPaymentTotals(dynamoPaymentTotalsStore, auth.tenant, query, systemClock.now()),
});
