/** POST /sandbox/directory/keys: the sandbox's stand-in for a key registered at another participant. */
import { systemClock } from '../shared/domain/clock';
import { addSandboxDirectoryKey } from '../shared/domain/directory';
import { dynamoDirectory } from '../shared/data/directory-repository';
import { httpHandler } from '../shared/http/handler';
import type { SandboxDirectoryKeyRequest } from '../shared/schemas/keys';
import { sandboxDirectoryKeyRequest } from '../shared/schemas/generated/keys';

export const handler = httpHandler<SandboxDirectoryKeyRequest>({
  name: 'addSandboxDirectoryKey',
  body: sandboxDirectoryKeyRequest,
  status: 201,
  handle: ({ body }) => addSandboxDirectoryKey(dynamoDirectory, body, systemClock.now()),
});
