/** GET /v1/refunds: the client's refunds, a page at a time. */
import { systemClock } from '../shared/domain/clock';
import { listRefunds } from '../shared/domain/refunds';
import { dynamoRefundStore } from '../shared/data/refunds-repository';
import { httpHandler } from '../shared/http/handler';
import type { RefundListQuery } from '../shared/schemas/refunds';
import { refundListQuery } from '../shared/schemas/generated/refunds';

export const handler = httpHandler<undefined, RefundListQuery>({
  name: 'listRefunds',
  query: refundListQuery,
  handle: ({ auth, query }) => listRefunds(dynamoRefundStore, auth.tenant, query, systemClock.now()),
});
