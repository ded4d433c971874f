/**
 * The network's directory, through the sponsor bank's connector (docs/network.md, "Directory"): the
 * DirectoryLookup of a connector stage. `POST <connector>/v1/directory/lookups` answers 200 with the
 * key's owner, participant and account, 404 when no participant holds the key, or 429 with
 * Retry-After when the directory limits our lookups (passed on: 429 LOOKUP_LIMITED). Anything else,
 * or no answer in time, is 503 with Retry-After: nothing is stored and no lookup is spent.
 *
 * Our own merchants' keys are in the network's directory like any other, published by us: such a key
 * is answered from our table, with no call, so that a payment to it stays in our books (an own
 * merchant's credit, shared/domain/own-merchant-payments.ts).
 */
import type { SandboxDirectoryKeyRequest } from '../schemas/keys';
import type { Clock, IdGenerator } from './clock';
import { retryAfterSeconds, sendToConnector, type ConnectorClient } from './connector';
import { ownerOf, type DirectoryEntry, type DirectoryLookup, type DirectoryStore } from './directory';
import { RetryLater } from './errors';

/** How long the directory has to answer: a payer is waiting on the resolve. */
export const LOOKUP_TIMEOUT_MS = 3_000;

/** The seconds a client is told to wait when the connector did not answer. */
const UNAVAILABLE_RETRY_SECONDS = 5;

export interface NetworkDirectoryDeps {
  readonly connector: ConnectorClient;
  /** Our table's directory: our merchants' keys. */
  readonly own: Pick<DirectoryStore, 'get'>;
  readonly clock: Clock;
  readonly ids: IdGenerator;
  /** Whether a lookup's answer is the contract's: a key, its owner, participant and account. */
  readonly isEntry: (value: unknown) => value is SandboxDirectoryKeyRequest;
  readonly timeoutMs?: number;
}

const unavailable = (why: string): RetryLater =>
  new RetryLater(
    'SERVICE_UNAVAILABLE',
    `The network's directory did not answer (${why}); nothing was stored: retry`,
    UNAVAILABLE_RETRY_SECONDS,
  );

/** The lookup's 200 body as an entry of ours, or undefined when it is not the contract's shape. */
function answeredEntry(
  text: string,
  isEntry: NetworkDirectoryDeps['isEntry'],
  now: string,
  key: DirectoryEntry['key'],
): DirectoryEntry | undefined {
  let answer: unknown;
  try {
    answer = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof answer !== 'object' || answer === null) return undefined;
  // Only the contract's four members are read: whatever else the connector adds is not ours to keep.
  const { key: answeredKey, owner, participant, account } = answer as Record<string, unknown>;
  const read = { key: answeredKey, owner, participant, account };
  if (!isEntry(read)) return undefined;
  return {
    // The key as we asked for it (normalised): the payment names it so.
    key,
    owner: ownerOf(read.owner),
    participant: read.participant,
    account: read.account,
    source: 'NETWORK',
    status: 'ACTIVE',
    created_at: now,
    updated_at: now,
  };
}

export function networkDirectory(deps: NetworkDirectoryDeps): DirectoryLookup {
  return {
    async find(key, requestedBy) {
      const own = await deps.own.get(key);
      if (own?.source === 'API' && own.status === 'ACTIVE') return own;
      const answer = await sendToConnector(
        deps.connector,
        { method: 'POST', path: 'v1/directory/lookups', messageId: `lookup_${deps.ids.newId()}` },
        JSON.stringify({ key, requested_by: requestedBy }),
        deps.timeoutMs ?? LOOKUP_TIMEOUT_MS,
      );
      if ('error' in answer) throw unavailable(answer.error);
      if (answer.status === 404) return undefined;
      if (answer.status === 429) {
        throw new RetryLater(
          'LOOKUP_LIMITED',
          "The network's directory limits our lookups for now: retry after Retry-After",
          retryAfterSeconds(answer.retryAfter),
        );
      }
      if (answer.status !== 200) throw unavailable(`it answered ${answer.status}`);
      const entry = answeredEntry(answer.body, deps.isEntry, deps.clock.now(), key);
      if (!entry) throw unavailable('its answer is not the contract');
      return entry;
    },
  };
}
