/** GET /v1/refunds/{id}: one of the client's refunds. */
import { getOwnRefund, publicRefund } from '../shared/domain/refunds';
import { dynamoRefundWrites } from '../shared/data/refunds-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getRefund',
  handle: async ({ auth, path }) => publicRefund(await getOwnRefund(dynamoRefundWrites, auth.tenant, path.id)),
});
