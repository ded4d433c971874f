/** GET /v1/events: the client's events of the last 30 days, newest first, as its webhooks receive them. */
import { systemClock } from '../shared/domain/clock';
import { listEvents } from '../shared/domain/events';
import { dynamoEventStore } from '../shared/data/events';
import { httpHandler } from '../shared/http/handler';
import type { EventListQuery } from '../shared/schemas/events';
import { eventListQuery } from '../shared/schemas/generated/events';

export const handler = httpHandler<undefined, EventListQuery>({
  name: 'listEvents',
  query: eventListQuery,
  handle: ({ auth, query }) => listEvents(dynamoEventStore, auth.tenant, query, systemClock.now()),
});
