/**
 * GET /network/v1/keys (docs/network.md, "Signatures"): our public keys, a JWKS the sponsor bank
 * verifies our requests with; every key the network secret holds, so a new one is published before
 * it signs. Public, as public keys are: no signature to check.
 */
import { publicJwk } from '../shared/domain/message-signatures';
import { publishedSigningKeys } from '../shared/data/network-secret';
import { publicNetworkHandler } from '../shared/http/network-handler';

export const handler = publicNetworkHandler({
  name: 'getNetworkKeys',
  handle: async () => ({ keys: (await publishedSigningKeys()).map((key) => publicJwk(key.privateKeyPem, key.kid)) }),
});
