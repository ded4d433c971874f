/**
 * The reseal (`npm run secrets:reseal`, docs/operations.md, "The secret key"): signing secrets stored
 * before sealing existed are still the plain list in the table, and no reader takes one any more
 * (shared/data/secret-sealing.ts). This seals each in place, for the owner its record signs for,
 * unchanged: the same secrets, so every signature made with them still verifies.
 *
 * Each write holds only while the record still holds the very list that was read: a rotation (or a
 * delete) that came between the read and the write wins, and its record is left as it made it. A run
 * after a complete one finds nothing.
 */
import { approvalSecretOwner } from './inbound-approval';
import {
  webhookSecretOwner,
  type SealedSecrets,
  type SecretOwner,
  type SecretSealer,
  type WebhookSecret,
} from './webhooks';

/** The records that hold signing secrets; a connector's will be the third. */
export type ClearSecretsKind = 'WEBHOOK' | 'INBOUND_APPROVAL';

/** A record whose secrets are still stored in clear, as read. */
export interface ClearSecrets {
  readonly kind: ClearSecretsKind;
  readonly tenant: string;
  /** The webhook's id; the client's id for its inbound approval settings. */
  readonly id: string;
  /** The stored list, exactly as read: the write's condition compares it. */
  readonly clear: readonly WebhookSecret[];
}

/** Where the clear secrets are found and replaced (shared/data/clear-secrets-repository.ts). */
export interface ClearSecretsStore {
  /** Every record whose secrets are a plain list, a page at a time. */
  find(): AsyncIterable<ClearSecrets>;
  /** Stores `sealed` in place of `found.clear`; false when the record no longer holds that list. */
  replace(found: ClearSecrets, sealed: SealedSecrets): Promise<boolean>;
}

export interface ResealCounts {
  /** Records found with their secrets in clear. */
  readonly found: number;
  /** Of those, sealed now. */
  readonly sealed: number;
  /** Of those, changed (rotated, deleted) between the read and the write: left as they are now. */
  readonly changed: number;
}

const ownerOf = (found: ClearSecrets): SecretOwner =>
  found.kind === 'WEBHOOK' ? webhookSecretOwner(found) : approvalSecretOwner(found.tenant);

/** Seals every record's clear secrets in place; `progress` hears each one's outcome. */
export async function resealClearSecrets(
  deps: { readonly store: ClearSecretsStore; readonly sealer: Pick<SecretSealer, 'seal'> },
  progress: (found: ClearSecrets, outcome: 'sealed' | 'changed') => void = () => {},
): Promise<ResealCounts> {
  let found = 0;
  let sealed = 0;
  for await (const record of deps.store.find()) {
    found += 1;
    const replaced = await deps.store.replace(record, await deps.sealer.seal(record.clear, ownerOf(record)));
    if (replaced) sealed += 1;
    progress(record, replaced ? 'sealed' : 'changed');
  }
  return { found, sealed, changed: found - sealed };
}
