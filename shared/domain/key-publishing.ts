/**
 * Our merchants' keys in the network's directory (docs/network.md, "Directory"): the KeyPublisher a
 * key's registration and status changes tell before they change our table. On a sandbox stage our
 * table is the directory and there is nothing to tell (tableIsTheDirectory); on a connector stage
 * (connectorPublisher) a registration is `POST <connector>/v1/directory/keys`, a suspension or an
 * activation `PATCH .../keys/{key_type}/{key_value}` with the status, a deletion `DELETE` there.
 *
 * The network is told first: a connector that fails or does not answer is 503 with Retry-After and
 * nothing here changes. The directory answers a registration repeated by the same participant for the
 * same account as it answered the first (201), so a retry after a crash between the two steps
 * finishes the registration instead of meeting its own key.
 */
import type { KeyStatus } from '../schemas/keys';
import { sendToConnector, type ConnectorAnswer, type ConnectorClient } from './connector';
import type { DirectoryEntry, DirectoryKey, DirectoryStore } from './directory';
import { AppError, RetryLater } from './errors';
import type { IdGenerator } from './clock';

export type PublishedStatus = 'ACTIVE' | 'SUSPENDED';

export interface KeyPublisher {
  /** The directory holds `entry` for us, or this throws: 409 KEY_ALREADY_REGISTERED, 503. */
  publish(entry: DirectoryEntry): Promise<void>;
  /** The key resolves (ACTIVE) or not (SUSPENDED) in the directory; published again when it lost it. */
  setStatus(key: DirectoryKey, status: PublishedStatus): Promise<void>;
  /** The directory no longer holds the key (already gone is done too). */
  withdraw(key: DirectoryKey): Promise<void>;
}

/** Tells the directory a key's status as our table will have it: DELETED withdraws it. */
export const publishStatus = (publisher: KeyPublisher, key: DirectoryKey, status: KeyStatus): Promise<void> =>
  status === 'DELETED' ? publisher.withdraw(key) : publisher.setStatus(key, status);

/** A sandbox stage: our table is the directory, written with the key itself. */
export const tableIsTheDirectory: KeyPublisher = {
  publish: () => Promise.resolve(),
  setStatus: () => Promise.resolve(),
  withdraw: () => Promise.resolve(),
};

/** How long the directory has to answer: a client is waiting on its key. */
export const PUBLISH_TIMEOUT_MS = 5_000;

/** The seconds a client is told to wait when the connector did not answer. */
const UNAVAILABLE_RETRY_SECONDS = 5;

const unavailable = (why: string): RetryLater =>
  new RetryLater(
    'SERVICE_UNAVAILABLE',
    `The network's directory did not answer (${why}); nothing was changed: retry`,
    UNAVAILABLE_RETRY_SECONDS,
  );

const isSuccess = (answer: ConnectorAnswer): boolean =>
  'status' in answer && answer.status >= 200 && answer.status < 300;

const why = (answer: ConnectorAnswer): string => ('error' in answer ? answer.error : `it answered ${answer.status}`);

/** The path of one key in the directory: its type and its value, each one path segment. */
const keyPath = (key: DirectoryKey): string =>
  `v1/directory/keys/${encodeURIComponent(key.key_type)}/${encodeURIComponent(key.key_value)}`;

export interface ConnectorPublisherDeps {
  readonly connector: ConnectorClient;
  /** Our table's directory: the entry a key lost by the network is published again with. */
  readonly own: Pick<DirectoryStore, 'get'>;
  readonly ids: IdGenerator;
  readonly timeoutMs?: number;
}

export function connectorPublisher(deps: ConnectorPublisherDeps): KeyPublisher {
  const send = (method: 'POST' | 'PATCH' | 'DELETE', path: string, body: unknown) =>
    sendToConnector(
      deps.connector,
      { method, path, messageId: `directory_${deps.ids.newId()}` },
      body === undefined ? '' : JSON.stringify(body),
      deps.timeoutMs ?? PUBLISH_TIMEOUT_MS,
    );

  const publish = async (entry: DirectoryEntry): Promise<void> => {
    const answer = await send('POST', 'v1/directory/keys', {
      key: entry.key,
      account: entry.account,
      owner: entry.owner,
    });
    if (isSuccess(answer)) return;
    if ('status' in answer && answer.status === 409) {
      throw new AppError(
        'KEY_ALREADY_REGISTERED',
        `This ${entry.key.key_type} key is already registered in the Bre-B directory`,
      );
    }
    throw unavailable(why(answer));
  };

  return {
    publish,
    async setStatus(key, status) {
      const answer = await send('PATCH', keyPath(key), { status });
      if (isSuccess(answer)) return;
      if (!('status' in answer && answer.status === 404)) throw unavailable(why(answer));
      // The directory lost the key (never published, or withdrawn by the bank): a suspended key is
      // where it should be; an active one is published again, as our table has it.
      if (status === 'SUSPENDED') return;
      const entry = await deps.own.get(key);
      if (entry?.source !== 'API') throw unavailable('it does not hold the key, and neither do we');
      return publish(entry);
    },
    async withdraw(key) {
      const answer = await send('DELETE', keyPath(key), undefined);
      if (isSuccess(answer) || ('status' in answer && answer.status === 404)) return;
      throw unavailable(why(answer));
    },
  };
}
