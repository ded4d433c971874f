/** Idempotency-Key records in DynamoDB Local, and runIdempotently over them (docs/reliability.md). */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../shared/data/client';
import { itemKeys } from '../../shared/data/item-keys';
import { AppError } from '../../shared/domain/errors';
import { IDEMPOTENCY_TTL_SECONDS } from '../../shared/data/idempotency-store';
import {
  REPLAY_HEADER,
  runIdempotently,
  type IdempotentRequest,
  type IdempotencyStore,
} from '../../shared/http/idempotency';
import { jsonResponse, type HttpResponse } from '../../shared/http/responses';
import { createTestTable, type TestTable } from '../support/dynamo-table';

let table: TestTable;
let store: typeof import('../../shared/data/idempotency-store').dynamoIdempotencyStore;

beforeAll(async () => {
  table = await createTestTable('idempotency');
  ({ dynamoIdempotencyStore: store } = await import('../../shared/data/idempotency-store'));
});
afterAll(() => table.drop());

/** Every test works under a tenant and key of its own. */
const freshKey = () => ({ tenant: `tenant-${randomUUID()}`, key: randomUUID() });
const seconds = (ms: number): number => Math.floor(ms / 1000);
const CREATED = jsonResponse(200, { id: 'customer-1' });

/** Writes a record as a past request would have left it. */
async function writeRecord(tenant: string, key: string, fields: Record<string, unknown>): Promise<void> {
  await table.documents.send(
    new PutCommand({
      TableName: table.tableName,
      Item: { ...itemKeys.idempotency(tenant, key), entity: 'IDEMPOTENCY', ...fields },
    }),
  );
}

describe('dynamoIdempotencyStore', () => {
  test('begin on a fresh key starts', async () => {
    const { tenant, key } = freshKey();
    await expect(store.begin(tenant, key, 'hash-1', Date.now())).resolves.toEqual({ started: true });
  });

  test('a second begin does not start: the key is IN_PROGRESS with the first hash', async () => {
    const { tenant, key } = freshKey();
    await store.begin(tenant, key, 'hash-1', Date.now());
    const expected = { started: false, record: { requestHash: 'hash-1', status: 'IN_PROGRESS' } };
    await expect(store.begin(tenant, key, 'hash-1', Date.now())).resolves.toEqual(expected);
    await expect(store.begin(tenant, key, 'hash-2', Date.now())).resolves.toEqual(expected);
  });

  test('the same key of another tenant is another record', async () => {
    const { tenant, key } = freshKey();
    await store.begin(tenant, key, 'hash-1', Date.now());
    await expect(store.begin(`${tenant}-other`, key, 'hash-1', Date.now())).resolves.toEqual({ started: true });
  });

  test('complete then begin: COMPLETED with the stored response', async () => {
    const { tenant, key } = freshKey();
    await store.begin(tenant, key, 'hash-1', Date.now());
    await store.complete(tenant, key, CREATED);
    await expect(store.begin(tenant, key, 'hash-1', Date.now())).resolves.toEqual({
      started: false,
      record: { requestHash: 'hash-1', status: 'COMPLETED', response: CREATED },
    });
    await expect(store.find(tenant, key, Date.now())).resolves.toEqual({
      requestHash: 'hash-1',
      status: 'COMPLETED',
      response: CREATED,
    });
  });

  test('the record expires 24 hours after it was claimed', async () => {
    const { tenant, key } = freshKey();
    const now = Date.now();
    await store.begin(tenant, key, 'hash-1', now);
    const [item] = await table.scan((i) => i['pk'] === itemKeys.idempotency(tenant, key).pk);
    expect(item?.['expires_at']).toBe(seconds(now) + IDEMPOTENCY_TTL_SECONDS);
  });

  test('release then begin starts again', async () => {
    const { tenant, key } = freshKey();
    await store.begin(tenant, key, 'hash-1', Date.now());
    await store.release(tenant, key);
    await expect(store.find(tenant, key, Date.now())).resolves.toBeUndefined();
    await expect(store.begin(tenant, key, 'hash-2', Date.now())).resolves.toEqual({ started: true });
    await expect(store.find(tenant, key, Date.now())).resolves.toEqual({
      requestHash: 'hash-2',
      status: 'IN_PROGRESS',
    });
  });

  test('an expired record (not yet deleted by TTL) is not found and can be claimed with any hash', async () => {
    const { tenant, key } = freshKey();
    const now = Date.now();
    await writeRecord(tenant, key, {
      request_hash: 'old',
      status: 'COMPLETED',
      response: CREATED,
      expires_at: seconds(now) - 10,
    });
    await expect(store.find(tenant, key, now)).resolves.toBeUndefined();
    await expect(store.begin(tenant, key, 'new', now)).resolves.toEqual({ started: true });
    await expect(store.find(tenant, key, now)).resolves.toEqual({ requestHash: 'new', status: 'IN_PROGRESS' });
  });

  test('an IN_PROGRESS record whose lock ran out is taken over by the same request only', async () => {
    const { tenant, key } = freshKey();
    const now = Date.now();
    await writeRecord(tenant, key, {
      request_hash: 'hash-1',
      status: 'IN_PROGRESS',
      locked_until: now - 1000,
      expires_at: seconds(now) + 3600,
    });
    await expect(store.begin(tenant, key, 'hash-2', now)).resolves.toEqual({
      started: false,
      record: { requestHash: 'hash-1', status: 'IN_PROGRESS' },
    });
    await expect(store.begin(tenant, key, 'hash-1', now)).resolves.toEqual({ started: true });
  });

  test('an IN_PROGRESS record still locked is not taken over, even by the same request', async () => {
    const { tenant, key } = freshKey();
    const now = Date.now();
    await writeRecord(tenant, key, {
      request_hash: 'hash-1',
      status: 'IN_PROGRESS',
      locked_until: now + 10_000,
      expires_at: seconds(now) + 3600,
    });
    await expect(store.begin(tenant, key, 'hash-1', now)).resolves.toMatchObject({ started: false });
  });

  test('a COMPLETED record is never taken over while it lives', async () => {
    const { tenant, key } = freshKey();
    await store.begin(tenant, key, 'hash-1', Date.now());
    await store.complete(tenant, key, CREATED);
    // Long after any lock would have run out, but within the 24 hours.
    const later = Date.now() + 60 * 60 * 1000;
    await expect(store.begin(tenant, key, 'hash-1', later)).resolves.toMatchObject({
      started: false,
      record: { status: 'COMPLETED' },
    });
  });
});

describe('runIdempotently with the DynamoDB store', () => {
  const requestOf = (body: unknown): IdempotentRequest => ({
    ...freshKey(),
    method: 'POST',
    path: '/v1/customers/business/link',
    body,
  });

  /**
   * The work's write: an item of its own. The work runs beside the key's claim (its reads go at once),
   * and its writes wait for the claim (shared/data/write-gate.ts): a run that lost the claim throws
   * here, having written nothing.
   */
  const workWrite = () =>
    dynamo().send(new PutCommand({ TableName: table.tableName, Item: { pk: `WORK#${randomUUID()}`, sk: 'RUN' } }));

  /**
   * A `run` that writes, counts the runs whose write went through, and answers the given responses
   * in turn (the last one repeats).
   */
  function counted(...responses: HttpResponse[]) {
    const counter = {
      calls: 0,
      run: async (): Promise<HttpResponse> => {
        await workWrite();
        counter.calls += 1;
        return responses[Math.min(counter.calls, responses.length) - 1]!;
      },
    };
    return counter;
  }

  test('the second run replays the first answer, marked as replayed, without writing again', async () => {
    const request = requestOf({ business_name: 'Tienda', nit: '900123456' });
    const work = counted(jsonResponse(200, { call: 1 }), jsonResponse(200, { call: 2 }));

    const first = await runIdempotently(store, request, work.run);
    const second = await runIdempotently(
      store,
      { ...request, body: { nit: '900123456', business_name: 'Tienda' } },
      work.run,
    );

    expect(work.calls).toBe(1);
    expect(first.headers).not.toHaveProperty(REPLAY_HEADER);
    expect(second.statusCode).toBe(200);
    expect(JSON.parse(second.body)).toEqual({ call: 1 });
    expect(second.headers).toEqual({ ...first.headers, [REPLAY_HEADER]: 'true' });
  });

  test('the same key with another body is IDEMPOTENCY_KEY_REUSED and writes nothing', async () => {
    const request = requestOf({ business_name: 'Tienda' });
    const work = counted(jsonResponse(200, { ok: true }));
    await runIdempotently(store, request, work.run);

    const reuse = runIdempotently(store, { ...request, body: { business_name: 'Otra' } }, work.run);
    await expect(reuse).rejects.toBeInstanceOf(AppError);
    await expect(reuse).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(work.calls).toBe(1);
  });

  test('a rule violation (4xx) is the answer: stored and replayed', async () => {
    const request = requestOf({ nit: '900000000' });
    const work = counted(jsonResponse(409, { code: 'CUSTOMER_ALREADY_LINKED' }), jsonResponse(200, {}));
    await runIdempotently(store, request, work.run);
    const replay = await runIdempotently(store, request, work.run);
    expect(work.calls).toBe(1);
    expect(replay.statusCode).toBe(409);
    expect(replay.headers[REPLAY_HEADER]).toBe('true');
  });

  test('a run that throws releases the key, so a retry runs', async () => {
    const request = requestOf({ business_name: 'Tienda' });
    let calls = 0;
    const failOnce = async (): Promise<HttpResponse> => {
      calls += 1;
      if (calls === 1) throw new Error('DynamoDB went away');
      return jsonResponse(200, { call: calls });
    };

    await expect(runIdempotently(store, request, failOnce)).rejects.toThrow('DynamoDB went away');
    await expect(store.find(request.tenant, request.key, Date.now())).resolves.toBeUndefined();
    const retry = await runIdempotently(store, request, failOnce);
    expect(calls).toBe(2);
    expect(JSON.parse(retry.body)).toEqual({ call: 2 });
    expect(retry.headers).not.toHaveProperty(REPLAY_HEADER);
  });

  test('a 5xx answer is not stored: the retry runs again', async () => {
    const request = requestOf({ business_name: 'Tienda' });
    const work = counted(jsonResponse(503, { code: 'SERVICE_UNAVAILABLE' }), jsonResponse(200, { ok: true }));

    expect((await runIdempotently(store, request, work.run)).statusCode).toBe(503);
    await expect(store.find(request.tenant, request.key, Date.now())).resolves.toBeUndefined();
    const retry = await runIdempotently(store, request, work.run);
    expect(work.calls).toBe(2);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers).not.toHaveProperty(REPLAY_HEADER);
  });

  test('an answer the store fails to record is still the answer; the key stays claimed until its lock lapses', async () => {
    const request = requestOf({ business_name: 'Tienda' });
    const throttled = Object.assign(new Error('throttled'), { name: 'ThrottlingException' });
    const failingRecord: IdempotencyStore = {
      ...store,
      complete: () => Promise.reject(throttled),
    };

    const answer = await runIdempotently(failingRecord, request, async () => jsonResponse(200, { id: 'c-1' }));
    expect([answer.statusCode, JSON.parse(answer.body)]).toEqual([200, { id: 'c-1' }]);
    await expect(store.find(request.tenant, request.key, Date.now())).resolves.toMatchObject({ status: 'IN_PROGRESS' });
  });

  test('a failed release does not hide the failure of the run', async () => {
    const request = requestOf({ business_name: 'Tienda' });
    const failingRelease: IdempotencyStore = { ...store, release: () => Promise.reject(new Error('release failed')) };
    const run = (): Promise<HttpResponse> => Promise.reject(new Error('the run failed'));
    await expect(runIdempotently(failingRelease, request, run)).rejects.toThrow('the run failed');
  });

  test('10 concurrent requests with one key write once and all answer the same body', async () => {
    const request = requestOf({ business_name: 'Tienda' });
    let calls = 0;
    const slow = async (): Promise<HttpResponse> => {
      await workWrite();
      calls += 1;
      await sleep(300);
      return jsonResponse(200, { id: randomUUID() });
    };

    const answers = await Promise.all(Array.from({ length: 10 }, () => runIdempotently(store, request, slow)));

    expect(calls).toBe(1);
    expect(new Set(answers.map((a) => a.body)).size).toBe(1);
    expect(answers.every((a) => a.statusCode === 200)).toBe(true);
    expect(answers.filter((a) => a.headers[REPLAY_HEADER] === 'true')).toHaveLength(9);
  });
});
