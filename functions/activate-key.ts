/** PATCH /v1/keys/{id}/activate: a SUSPENDED key resolves again (docs/keys.md). */
import { systemClock } from '../shared/domain/clock';
import { changeKeyStatus } from '../shared/domain/keys';
import { dynamoKeyWrites } from '../shared/data/keys-repository';
import { httpHandler } from '../shared/http/handler';
import { stagePublisher } from './network-ports';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'activateKey',
  handle: ({ auth, path }) =>
    changeKeyStatus(
      { keys: dynamoKeyWrites, publisher: stagePublisher, clock: systemClock },
      auth.tenant,
      path.id,
      'activate',
    ),
});
