/** GET /v1/resolutions/{id}: a key resolution of the client, as POST /v1/resolve-key answered it. */
import { getOwnResolution, publicResolution } from '../shared/domain/directory';
import { dynamoResolutionStore } from '../shared/data/directory-repository';
import { httpHandler } from '../shared/http/handler';

export const handler = httpHandler<undefined, Record<string, never>, { id: string }>({
  name: 'getResolution',
  handle: async ({ auth, path }) =>
    publicResolution(await getOwnResolution(dynamoResolutionStore, auth.tenant, path.id)),
});
