/**
 * The sealer the tests give the domain: the real envelope code (shared/data/secret-sealing.ts) over
 * the local key service, with a key of the test's own, as the local runtime runs it.
 */
import { randomBytes } from 'node:crypto';
import { envelopeSealer, localKeyService } from '../../shared/data/secret-sealing';
import type { SealedSecrets, SecretOwner, SecretSealer, WebhookSecret } from '../../shared/domain/webhooks';

export const testSealer = envelopeSealer(localKeyService(randomBytes(32)));

/**
 * For the domain's unit tests, where sealing is not what is tested: a readable "envelope" that still
 * binds its owner (opening it for another tenant or record fails, as the real one does), made
 * synchronously so fixtures stay plain objects.
 */
export const readableSeal = (secrets: readonly WebhookSecret[], owner: SecretOwner): SealedSecrets =>
  JSON.stringify({ owner, secrets });

export const readableSealer: SecretSealer = {
  seal: async (secrets, owner) => readableSeal(secrets, owner),
  open: async (sealed, owner) => {
    const envelope = JSON.parse(sealed) as { owner: SecretOwner; secrets: WebhookSecret[] };
    if (envelope.owner.tenant !== owner.tenant || envelope.owner.owner !== owner.owner) {
      throw new Error('Sealed for another owner');
    }
    return envelope.secrets;
  },
};
