/**
 * `npm run network-key -- <kid>`: a new Ed25519 signing key for the network connector, printed as the
 * entry the stage's network secret holds in `signing_keys` (docs/network.md, "Signatures, both ways"),
 * and its public half as the bank will read it at GET /network/v1/keys. Nothing is written anywhere:
 * the operator puts the entry in Secrets Manager.
 */
import { generateSigningKey, publicJwk } from '../shared/domain/message-signatures';

const kid = process.argv[2];
if (!kid || !/^[A-Za-z0-9_.:-]{1,128}$/.test(kid)) {
  console.error('usage: npm run network-key -- <kid>   (1 to 128 letters, digits or _.:-, e.g. breb-2026-11)');
  process.exit(2);
}
const key = generateSigningKey(kid);
console.log(`The entry of "signing_keys" in the stage's network secret:
${JSON.stringify({ kid: key.kid, private_key_pem: key.privateKeyPem })}
Its public key, as GET /network/v1/keys will serve it:
${JSON.stringify(publicJwk(key.privateKeyPem, key.kid))}`);
