/**
 * Idempotency-Key on POST (docs/reliability.md): the same key and body within 24 hours replay the
 * first answer without a second write; the same key with another body is 409. A request that is
 * still running under the key is waited for briefly, so concurrent retries all get the one answer.
 *
 * Two ways to keep that promise, by what the route's work writes:
 * - **One transaction at most** (`oneTransaction`): the work runs with its transaction held back; its
 *   answer is then committed under the key in that same transaction (or alone, when the work wrote
 *   nothing): one round trip, and the answer and the work are never one without the other. The first
 *   commit under the key wins; a request that loses replays it. The messages the work sends once its
 *   transaction committed (functions/after-commit.ts) wait for that commit; a work that turns out to
 *   do more than one transaction runs again under a claim.
 * - **Anything else**: the key is claimed before the work (IN_PROGRESS), then completed with the
 *   answer, or released after a failure.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, invalidField } from '../domain/errors';
import { logger } from './logger';
import { AfterHeldTransactionError, type Held, type HeldTransaction } from '../data/held-transaction';
import type { BeginResult, CommitResult, IdempotencyRecord as StoredRecord } from '../data/idempotency-store';
import { gateRefusal, gatingWrites, holdWritesUntil, outsideGate } from '../data/write-gate';
import type { HttpResponse } from './responses';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAY_HEADER = 'idempotent-replayed';
/** On a replay whose first answer held a secret: the fields the replay leaves out (docs/webhooks.md). */
export const WITHHELD_HEADER = 'idempotent-replay-withheld';
const WAIT_FOR_RUNNING_MS = [50, 100, 200, 400, 800, 1200];

type IdempotencyRecord = StoredRecord<HttpResponse>;

/** The store this needs (shared/data/idempotency-store.ts is the DynamoDB one). */
export interface IdempotencyStore {
  /** Claims the key for this request unless a live record holds it (atomic). */
  begin(tenant: string, key: string, requestHash: string, nowMs: number): Promise<BeginResult<HttpResponse>>;
  complete(tenant: string, key: string, response: HttpResponse): Promise<void>;
  /** Frees the key after a failure, so that a retry runs the request again. */
  release(tenant: string, key: string): Promise<void>;
  find(tenant: string, key: string, nowMs: number): Promise<IdempotencyRecord | undefined>;
  /** Runs `work`, holding back the one transaction it makes (sent by `commit`). */
  holding<T>(work: () => Promise<T>): Promise<Held<T>>;
  /**
   * Records the answer under the key unless a live record holds it, in one transaction with the
   * work's held `transaction` when it made one (both or neither).
   */
  commit(
    tenant: string,
    key: string,
    requestHash: string,
    answer: HttpResponse,
    nowMs: number,
    transaction?: HeldTransaction,
  ): Promise<CommitResult<HttpResponse>>;
}

export interface IdempotentRequest {
  readonly tenant: string;
  readonly key: string;
  readonly method: string;
  readonly path: string;
  readonly body: unknown;
}

/** JSON with object keys sorted, so that the same body always hashes the same. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export const requestHash = (request: Pick<IdempotentRequest, 'method' | 'path' | 'body'>): string =>
  createHash('sha256')
    .update(`${request.method} ${request.path}\n${canonicalJson(request.body)}`)
    .digest('hex');

export function readIdempotencyKey(headers: Record<string, string | undefined>): string | undefined {
  const key = headers[IDEMPOTENCY_HEADER];
  if (key === undefined) return undefined;
  if (!/^[\x21-\x7E]{1,255}$/.test(key))
    throw invalidField('Idempotency-Key', 'must be 1 to 255 visible ASCII characters');
  return key;
}

/** The recorded answer as replayed: marked so, with its redrawn field drawn again in its place. */
async function replay(response: HttpResponse, redrawn: Redrawn | undefined): Promise<HttpResponse> {
  const replayed = { ...response, headers: { ...response.headers, [REPLAY_HEADER]: 'true' } };
  if (!redrawn || response.statusCode >= 300 || !response.body) return replayed;
  const recordedBody = JSON.parse(response.body) as Record<string, unknown>;
  const source = recordedBody[redrawn.from];
  if (typeof source !== 'string') return replayed;
  const drawn = await redrawn.draw(source);
  const body = Object.fromEntries(
    Object.entries(recordedBody).flatMap(([name, value]) =>
      name === redrawn.from
        ? [
            [name, value],
            [redrawn.field, drawn],
          ]
        : [[name, value]],
    ),
  );
  return { ...replayed, body: JSON.stringify(body) };
}

async function answerFor(
  record: IdempotencyRecord,
  hash: string,
  redrawn: Redrawn | undefined,
): Promise<HttpResponse | undefined> {
  if (record.requestHash !== hash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
  }
  return record.status === 'COMPLETED' && record.response ? replay(record.response, redrawn) : undefined;
}

/**
 * The answer of the request that holds the key: its answer replayed, 409 for another body, or (while
 * it still runs) its answer once it has one, waited for briefly.
 */
async function holderAnswer(
  store: IdempotencyStore,
  request: IdempotentRequest,
  hash: string,
  record: IdempotencyRecord,
  redrawn: Redrawn | undefined,
): Promise<HttpResponse> {
  const answer = await answerFor(record, hash, redrawn);
  if (answer) return answer;
  for (const delay of WAIT_FOR_RUNNING_MS) {
    await sleep(delay);
    const current = await store.find(request.tenant, request.key, Date.now());
    if (!current) break;
    const settled = await answerFor(current, hash, redrawn);
    if (settled) return settled;
  }
  throw new AppError(
    'IDEMPOTENCY_REQUEST_IN_PROGRESS',
    'A request with this Idempotency-Key is still running; retry shortly',
  );
}

export interface IdempotencyOptions {
  /**
   * Top-level fields of a success answer that are never recorded under the key (a signing secret):
   * the first answer shows them, a replay goes without them and names them in WITHHELD_HEADER.
   */
  readonly withheld?: readonly string[];
  /**
   * The work writes at most one transaction, as its last step (reads, then one TransactWriteItems or
   * nothing, then only after-commit messages): its answer is committed in that transaction.
   */
  readonly oneTransaction?: boolean;
  /** A field of a success answer not recorded under the key but drawn again on a replay (Redrawn). */
  readonly redrawn?: Redrawn;
}

/**
 * A top-level field of a success answer drawn from another of its fields (a QR code's image, a PNG of
 * some 2 KB, from its payload): large, and the same whenever it is drawn. The record keeps the answer
 * without it, so that it is not written twice (in the record and in the resource's own answer to a
 * GET, which draws it too); a replay draws it again and puts it back in its place, right after its
 * source, so the replayed answer is the first one, byte for byte.
 */
export interface Redrawn {
  readonly field: string;
  readonly from: string;
  readonly draw: (source: string) => Promise<string>;
}

export async function runIdempotently(
  store: IdempotencyStore,
  request: IdempotentRequest,
  run: () => Promise<HttpResponse>,
  options: IdempotencyOptions = {},
): Promise<HttpResponse> {
  const hash = requestHash(request);
  const keeping: Keeping = {
    record: (response) => recorded(response, options.withheld ?? [], options.redrawn),
    redrawn: options.redrawn,
  };
  return options.oneTransaction
    ? committedWithWork(store, request, hash, run, keeping)
    : claimed(store, request, hash, run, keeping);
}

/** How an answer is kept under the key, and what a replay draws again. */
interface Keeping {
  readonly record: (response: HttpResponse) => HttpResponse;
  readonly redrawn: Redrawn | undefined;
}

/**
 * The answer as kept for 24 hours under the key: a success without its withheld fields, saying which,
 * so that no secret sits in the record nor replays to whoever of the tenant sends the same key and body.
 */
function recorded(response: HttpResponse, withheld: readonly string[], redrawn: Redrawn | undefined): HttpResponse {
  if ((withheld.length === 0 && !redrawn) || response.statusCode >= 300 || !response.body) return response;
  const body = JSON.parse(response.body) as Record<string, unknown>;
  for (const field of withheld) delete body[field];
  if (redrawn) delete body[redrawn.field];
  return {
    ...response,
    body: JSON.stringify(body),
    headers: { ...response.headers, ...(withheld.length ? { [WITHHELD_HEADER]: withheld.join(', ') } : {}) },
  };
}

/** The work with its transaction held, then committed together with its answer under the key. */
async function committedWithWork(
  store: IdempotencyStore,
  request: IdempotentRequest,
  hash: string,
  run: () => Promise<HttpResponse>,
  keeping: Keeping,
): Promise<HttpResponse> {
  // A run that throws wrote nothing (its transaction was held): the key stays free for a retry.
  let held: Held<HttpResponse>;
  try {
    held = await store.holding(run);
  } catch (error) {
    // The work did more than one transaction this time (a payment to one of our own merchants is
    // decided within its request): nothing was sent, so it runs again under a claim of the key.
    if (error instanceof AfterHeldTransactionError) return claimed(store, request, hash, run, keeping);
    throw error;
  }
  const { result: response, transaction } = held;
  // Server-side failures are not the request's answer: nothing is committed, the key stays free.
  if (response.statusCode >= 500) return response;
  const commit = await store.commit(
    request.tenant,
    request.key,
    hash,
    keeping.record(response),
    Date.now(),
    transaction,
  );
  switch (commit.outcome) {
    case 'committed':
      // The messages the work owes once committed (each failure harmless: the sweeper sends it).
      for (const send of held.afterCommit) await send();
      return response;
    case 'taken':
      return holderAnswer(store, request, hash, commit.record, keeping.redrawn);
    case 'refused':
      // The transaction's own conditions refused it (a value taken, a status changed): the answer
      // is the refusal the work gives when it meets them, so it runs again, this time for real,
      // under a claim of the key.
      return claimed(store, request, hash, run, keeping);
  }
}

/**
 * The key claimed beside the work's first reads, the work, then its answer recorded (or the key
 * released after a failure). The work's writes wait for the claim (shared/data/write-gate.ts): a
 * request that finds the key held has read, never written, and answers the holder's answer.
 */
function claimed(
  store: IdempotencyStore,
  request: IdempotentRequest,
  hash: string,
  run: () => Promise<HttpResponse>,
  keeping: Keeping,
): Promise<HttpResponse> {
  return gatingWrites(async () => {
    // The claim, its release and its answer go outside the gate: they are the check, or undo it.
    const claiming = outsideGate(() => store.begin(request.tenant, request.key, hash, Date.now()));
    const keyHeld = new Error('The Idempotency-Key is held by another request');
    holdWritesUntil(
      claiming.then(
        (claim) => (claim.started ? undefined : keyHeld),
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
    );
    const release = () => settle(() => outsideGate(() => store.release(request.tenant, request.key)));

    let outcome: { response: HttpResponse } | { failure: unknown };
    try {
      outcome = { response: await run() };
    } catch (failure) {
      outcome = { failure };
    }
    const claim = await claiming;
    // Another check refused the request (the rate limit): the key is left free for its retry.
    const refusal = await gateRefusal();
    if (refusal && refusal !== keyHeld) {
      if (claim.started) await release();
      throw refusal;
    }
    if (!claim.started) return holderAnswer(store, request, hash, claim.record, keeping.redrawn);
    if ('failure' in outcome) {
      await release();
      throw outcome.failure;
    }
    const { response } = outcome;
    // Server-side failures are not the request's answer: leave the key free for a retry.
    if (response.statusCode >= 500) await release();
    else await settle(() => outsideGate(() => store.complete(request.tenant, request.key, keeping.record(response))));
    return response;
  });
}

/**
 * Records the outcome under the key. When the store fails at that moment, the request's own outcome
 * still stands: its work is committed (or was never done) and its answer is the truth, where a 503
 * would send the client into a retry against a key still claimed. The claim then lapses with its lock
 * (IDEMPOTENCY_LOCK_MS): meanwhile a retry gets IDEMPOTENCY_REQUEST_IN_PROGRESS, after it runs again.
 */
async function settle(record: () => Promise<void>): Promise<void> {
  try {
    await record();
  } catch (error) {
    logger.warn('idempotency record not updated', { error_name: (error as Error).name });
  }
}
