/** GET /v1/payments/{id}: one of the client's payments. */
import { getOwnPayment, publicPayment } from '../shared/domain/payments';
import { dynamoPaymentGetter } from '../shared/data/payment-reads';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getPayment',
  handle: async ({ auth, path }) => publicPayment(await getOwnPayment(dynamoPaymentGetter, auth.tenant, path.id)),
});
