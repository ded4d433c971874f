/**
 * Idempotency-Key on POST (docs/reliability.md): the same key and body within 24 hours replay the
 * first answer without a second write; the same key with another body is 409. A request that is
 * still running under the key is waited for briefly, so concurrent retries all get the one answer.
 */
import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { AppError, invalidField } from '../domain/errors';
import { logger } from './logger';
import type { BeginResult, IdempotencyRecord as StoredRecord } from '../data/idempotency-store';
import type { HttpResponse } from './responses';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAY_HEADER = 'idempotent-replayed';
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

const replay = (response: HttpResponse): HttpResponse => ({
  ...response,
  headers: { ...response.headers, [REPLAY_HEADER]: 'true' },
});

function answerFor(record: IdempotencyRecord, hash: string): HttpResponse | undefined {
  if (record.requestHash !== hash) {
    throw new AppError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was already used with a different request');
  }
  return record.status === 'COMPLETED' && record.response ? replay(record.response) : undefined;
}

export async function runIdempotently(
  store: IdempotencyStore,
  request: IdempotentRequest,
  run: () => Promise<HttpResponse>,
): Promise<HttpResponse> {
  const hash = requestHash(request);
  const claim = await store.begin(request.tenant, request.key, hash, Date.now());
  if (!claim.started) {
    const answer = answerFor(claim.record, hash);
    if (answer) return answer;
    for (const delay of WAIT_FOR_RUNNING_MS) {
      await sleep(delay);
      const record = await store.find(request.tenant, request.key, Date.now());
      if (!record) break;
      const settled = answerFor(record, hash);
      if (settled) return settled;
    }
    throw new AppError(
      'IDEMPOTENCY_REQUEST_IN_PROGRESS',
      'A request with this Idempotency-Key is still running; retry shortly',
    );
  }

  let response: HttpResponse;
  try {
    response = await run();
  } catch (error) {
    await settle(() => store.release(request.tenant, request.key));
    throw error;
  }
  // Server-side failures are not the request's answer: leave the key free for a retry.
  if (response.statusCode >= 500) await settle(() => store.release(request.tenant, request.key));
  else await settle(() => store.complete(request.tenant, request.key, response));
  return response;
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
