/** DELETE /v1/keys/{id}: the key becomes DELETED and its value free again (docs/keys.md). */
import { systemClock } from '../shared/domain/clock';
import { changeKeyStatus } from '../shared/domain/keys';
import { dynamoKeyWrites } from '../shared/data/keys-repository';
import { httpHandler } from '../shared/http/handler';
import { stagePublisher } from './network-ports';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'deleteKey',
  handle: ({ auth, path }) =>
    changeKeyStatus(
      { keys: dynamoKeyWrites, publisher: stagePublisher, clock: systemClock },
      auth.tenant,
      path.id,
      'delete',
    ),
});
