/** GET /v1/events/{id}: one of the client's events of the last 30 days; another client's is 404. */
import { systemClock } from '../shared/domain/clock';
import { getEvent } from '../shared/domain/events';
import { dynamoEventReader } from '../shared/data/events';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getEvent',
  handle: ({ auth, path }) => getEvent(dynamoEventReader, auth.tenant, path.id, systemClock.now()),
});
