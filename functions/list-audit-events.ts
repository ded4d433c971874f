/** GET /v1/audit-events: who changed the client's webhooks, approval settings and keys (docs/audit.md). */
import { listAuditEvents } from '../shared/domain/audit';
import { systemClock } from '../shared/domain/clock';
import { dynamoAuditStore } from '../shared/data/audit-trail';
import { httpHandler } from '../shared/http/handler';
import type { AuditEventListQuery } from '../shared/schemas/audit';
import { auditEventListQuery } from '../shared/schemas/generated/audit';

export const handler = httpHandler<undefined, AuditEventListQuery>({
  name: 'listAuditEvents',
  query: auditEventListQuery,
  handle: ({ auth, query }) => listAuditEvents(dynamoAuditStore, auth.tenant, query, systemClock.now()),
});
