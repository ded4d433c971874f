/**
 * An Idempotency-Key's answer committed in the work's own transaction (docs/reliability.md), against
 * DynamoDB Local, with a real route's work: linking a merchant (a sponsor bank read, then one
 * transaction of the customer, its NIT guard and its list counters). The repositories reach DynamoDB
 * through the fault proxy, which shows each call and fails the ones a test names.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { systemNewRecords } from '../../shared/domain/clock';
import { AppError } from '../../shared/domain/errors';
import { itemKeys } from '../../shared/data/item-keys';
import { EVERY_PLATFORM } from '../../shared/domain/sponsor-bank';
import { ENV } from '../../shared/runtime/config';
import { REPLAY_HEADER, requestHash, type IdempotentRequest } from '../../shared/http/idempotency';
import { errorResponse, jsonResponse, type HttpResponse } from '../../shared/http/responses';
import { createTestTable, type Item, type TestTable } from '../support/dynamo-table';
import { DynamoDbFaultProxy } from '../support/dynamodb-fault-proxy';
import { linkMerchantBody, uniqueNit } from '../support/fixtures';

let table: TestTable;
let proxy: DynamoDbFaultProxy;
let modules: {
  store: typeof import('../../shared/data/idempotency-store').dynamoIdempotencyStore;
  runIdempotently: typeof import('../../shared/http/idempotency').runIdempotently;
  linkMerchant: typeof import('../../shared/domain/customers').linkMerchant;
  customers: typeof import('../../shared/data/customers-repository').dynamoCustomerStore;
  sponsorBank: typeof import('../../shared/data/sponsor-bank-repository').dynamoSponsorBank;
  getRecord: typeof import('../../shared/data/records').getRecord;
  sentAfterCommit: typeof import('../../functions/after-commit').sentAfterCommit;
};

beforeAll(async () => {
  table = await createTestTable('idempotency-with-work');
  proxy = await DynamoDbFaultProxy.start(table.endpoint);
  // The repositories read the endpoint on first use: every call of theirs crosses the proxy.
  process.env[ENV.dynamodbEndpoint] = proxy.endpoint;
  modules = {
    store: (await import('../../shared/data/idempotency-store')).dynamoIdempotencyStore,
    runIdempotently: (await import('../../shared/http/idempotency')).runIdempotently,
    linkMerchant: (await import('../../shared/domain/customers')).linkMerchant,
    customers: (await import('../../shared/data/customers-repository')).dynamoCustomerStore,
    sponsorBank: (await import('../../shared/data/sponsor-bank-repository')).dynamoSponsorBank,
    getRecord: (await import('../../shared/data/records')).getRecord,
    sentAfterCommit: (await import('../../functions/after-commit')).sentAfterCommit,
  };
});

afterEach(() => proxy.clear());

afterAll(async () => {
  await table.drop();
  await proxy.stop();
});

interface Link {
  readonly request: IdempotentRequest;
  /** The route's work as the handler runs it: the domain's answer, a rule's refusal as its problem. */
  readonly run: () => Promise<HttpResponse>;
  /** How many times the work ran. */
  runs(): number;
}

/** A link-merchant request of a tenant of its own, with a fresh key, for a merchant the bank approved. */
async function approvedLink(nit = uniqueNit(), approve = true): Promise<Link> {
  if (approve) {
    await modules.sponsorBank.saveMerchant(
      {
        identificationType: 'NIT',
        identificationNumber: nit,
        businessName: 'Tienda',
        approvedAt: new Date().toISOString(),
        platform: EVERY_PLATFORM,
        status: 'APPROVED',
      },
      [],
    );
  }
  const tenant = `tenant-${randomUUID()}`;
  const body = linkMerchantBody({ identification_number: nit });
  let runs = 0;
  const deps = { ...systemNewRecords, customers: modules.customers, sponsorBank: modules.sponsorBank };
  return {
    request: { tenant, key: randomUUID(), method: 'POST', path: '/v1/customers/business/link', body },
    run: async () => {
      runs += 1;
      try {
        return jsonResponse(200, await modules.linkMerchant(deps, tenant, body as never));
      } catch (error) {
        if (error instanceof AppError) return errorResponse(error, 'request-1');
        throw error;
      }
    },
    runs: () => runs,
  };
}

const oneTrip = (link: Pick<Link, 'request' | 'run'>, run = link.run) =>
  modules.runIdempotently(modules.store, link.request, run, { oneTransaction: true });

/** The DynamoDB operations that crossed the proxy since `from`, one per SDK call. */
function callsSince(from: number): string[] {
  const seen = new Set<string>();
  return proxy.attempts
    .slice(from)
    .filter((attempt) => !seen.has(attempt.invocation) && seen.add(attempt.invocation))
    .map((attempt) => attempt.operation);
}

/** Every item of the tenant's: its customers, NIT guards, counters and Idempotency-Key records. */
const itemsOf = (tenant: string): Promise<Item[]> => table.scan((item) => JSON.stringify(item).includes(tenant));

/** What one link and its answer under the key write: the customer, its guard, its lists' counters, the record. */
const ONE_LINK_AND_ITS_ANSWER = ['COUNTER', 'COUNTER', 'CUSTOMER', 'IDEMPOTENCY', 'NIT_GUARD'];

const entities = (items: readonly Item[]) => items.map((item) => String(item['entity'] ?? item['pk'])).sort();

async function recordOf(request: IdempotentRequest): Promise<Item | undefined> {
  const [record] = await table.scan((item) => item['pk'] === itemKeys.idempotency(request.tenant, request.key).pk);
  return record;
}

describe('an answer committed in the work’s own transaction', () => {
  test('one write: the customer, its guard, its counters and the answer under the key in one transaction', async () => {
    const link = await approvedLink();
    const from = proxy.attempts.length;

    const answer = await oneTrip(link);

    expect(answer.statusCode).toBe(200);
    expect(answer.headers).not.toHaveProperty(REPLAY_HEADER);
    // The sponsor bank's approval, then one TransactWriteItems: no claim before, no answer after.
    expect(callsSince(from)).toEqual(['GetItem', 'TransactWriteItems']);
    const items = await itemsOf(link.request.tenant);
    expect(entities(items)).toEqual(ONE_LINK_AND_ITS_ANSWER);
    const record = await recordOf(link.request);
    expect(record).toMatchObject({ status: 'COMPLETED', request_hash: requestHash(link.request), response: answer });
    expect(record).not.toHaveProperty('locked_until');
  });

  test('a retry replays the committed answer; its own work is never written', async () => {
    const link = await approvedLink();
    const first = await oneTrip(link);
    const before = await itemsOf(link.request.tenant);
    const from = proxy.attempts.length;

    const retry = await oneTrip(link);

    expect([retry.statusCode, retry.body]).toEqual([first.statusCode, first.body]);
    expect(retry.headers[REPLAY_HEADER]).toBe('true');
    // The retry's work ran up to its transaction, which met the key's record and was written not at all.
    expect(link.runs()).toBe(2);
    expect(callsSince(from)).toEqual(['GetItem', 'TransactWriteItems']);
    expect(await itemsOf(link.request.tenant)).toEqual(before);
  });

  test('the same key with another body: 409 IDEMPOTENCY_KEY_REUSED, nothing written', async () => {
    const link = await approvedLink();
    await oneTrip(link);
    const before = await itemsOf(link.request.tenant);
    const other = await approvedLink();

    const reuse = oneTrip({ request: { ...link.request, body: other.request.body }, run: other.run });

    await expect(reuse).rejects.toMatchObject({ code: 'IDEMPOTENCY_KEY_REUSED' });
    expect(await itemsOf(link.request.tenant)).toEqual(before);
  });

  test('a refusal before the transaction is recorded in one conditional write, and replayed', async () => {
    const link = await approvedLink(uniqueNit(), false);
    const from = proxy.attempts.length;

    const refused = await oneTrip(link);

    expect([refused.statusCode, JSON.parse(refused.body).code]).toEqual([400, 'MERCHANT_NOT_APPROVED']);
    expect(callsSince(from)).toEqual(['GetItem', 'PutItem']);
    expect(entities(await itemsOf(link.request.tenant))).toEqual(['IDEMPOTENCY']);
    const replay = await oneTrip(link);
    expect([replay.statusCode, replay.body, replay.headers[REPLAY_HEADER]]).toEqual([400, refused.body, 'true']);
  });

  test('a value the transaction refuses: the work runs again under a claim, and its 409 is the answer', async () => {
    const nit = uniqueNit();
    const taken = await approvedLink(nit);
    await oneTrip(taken);
    // The same NIT under the same tenant, with another key: the transaction's guard refuses it.
    const link = { ...taken, request: { ...taken.request, key: randomUUID() } };

    const refused = await oneTrip(link);

    expect([refused.statusCode, JSON.parse(refused.body).code]).toEqual([409, 'CUSTOMER_ALREADY_LINKED']);
    expect(await recordOf(link.request)).toMatchObject({ status: 'COMPLETED', response: refused });
    expect(entities(await itemsOf(link.request.tenant)).filter((e) => e === 'CUSTOMER')).toHaveLength(1);
    const replay = await oneTrip(link);
    expect([replay.statusCode, replay.body, replay.headers[REPLAY_HEADER]]).toEqual([409, refused.body, 'true']);
  });

  test('a commit DynamoDB fails writes nothing and leaves the key free: the retry runs and commits', async () => {
    const link = await approvedLink();
    proxy.inject({ fault: 'InternalServerError', operations: ['TransactWriteItems'] });

    await expect(oneTrip(link)).rejects.toMatchObject({ name: 'InternalServerError' });
    expect(await itemsOf(link.request.tenant)).toEqual([]);

    proxy.clear();
    const retry = await oneTrip(link);
    expect(retry.statusCode).toBe(200);
    expect(retry.headers).not.toHaveProperty(REPLAY_HEADER);
    expect(entities(await itemsOf(link.request.tenant))).toEqual(ONE_LINK_AND_ITS_ANSWER);
  });

  test('10 identical requests at once: one customer, one answer, nine replays', async () => {
    const link = await approvedLink();

    const answers = await Promise.all(Array.from({ length: 10 }, () => oneTrip(link)));

    expect(new Set(answers.map((answer) => `${answer.statusCode} ${answer.body}`)).size).toBe(1);
    expect(answers[0]!.statusCode).toBe(200);
    expect(answers.filter((answer) => answer.headers[REPLAY_HEADER] === 'true')).toHaveLength(9);
    expect(entities(await itemsOf(link.request.tenant))).toEqual(ONE_LINK_AND_ITS_ANSWER);
  });

  test('a key claimed by a request still running: its answer, once it has one', async () => {
    const link = await approvedLink();
    const claimed = await modules.store.begin(
      link.request.tenant,
      link.request.key,
      requestHash(link.request),
      Date.now(),
    );
    expect(claimed).toEqual({ started: true });
    const running = jsonResponse(200, { id: 'the claimant’s customer' });

    const answer = oneTrip(link);
    await sleep(150);
    await modules.store.complete(link.request.tenant, link.request.key, running);

    expect(JSON.parse((await answer).body)).toEqual({ id: 'the claimant’s customer' });
    expect(entities(await itemsOf(link.request.tenant))).toEqual(['IDEMPOTENCY']);
  });
});

describe("a work's messages owed once it committed (functions/after-commit.ts)", () => {
  /** The link's work, then a message sent after its commit, noting what the key's record was then. */
  const linkThenSend = (link: Link, seen: (string | undefined)[]) => async (): Promise<HttpResponse> => {
    const answer = await link.run();
    await modules.sentAfterCommit(
      async () => void seen.push((await recordOf(link.request))?.['status'] as string | undefined),
      'settlement',
      {},
    );
    return answer;
  };

  test('wait for the held transaction to commit with the answer, then go', async () => {
    const link = await approvedLink();
    const seen: (string | undefined)[] = [];
    expect((await oneTrip(link, linkThenSend(link, seen))).statusCode).toBe(200);
    // Sent once, after the record and the work committed together.
    expect(seen).toEqual(['COMPLETED']);
    expect(entities(await itemsOf(link.request.tenant))).toEqual(ONE_LINK_AND_ITS_ANSWER);
  });

  test('are never sent by a request whose commit lost the key', async () => {
    const link = await approvedLink();
    await oneTrip(link);
    const seen: (string | undefined)[] = [];
    const replay = await oneTrip(link, linkThenSend(link, seen));
    expect(replay.headers[REPLAY_HEADER]).toBe('true');
    expect(seen).toEqual([]);
  });
});

describe('a work that does more than one transaction: nothing of its held try is sent; it runs again under a claim', () => {
  test('a DynamoDB call after its held transaction: the work is written once, with its answer', async () => {
    const link = await approvedLink();
    let runs = 0;
    const readsAfterwards = async (): Promise<HttpResponse> => {
      runs += 1;
      const answer = await link.run();
      await modules.getRecord(itemKeys.customer(JSON.parse(answer.body).id));
      return answer;
    };

    const answer = await oneTrip(link, readsAfterwards);
    expect([answer.statusCode, runs]).toEqual([200, 2]);
    expect(entities(await itemsOf(link.request.tenant))).toEqual(ONE_LINK_AND_ITS_ANSWER);
    expect(await recordOf(link.request)).toMatchObject({ status: 'COMPLETED' });
  });

  test('a second transaction: both written once, the answer under the key', async () => {
    const first = await approvedLink();
    const second = await approvedLink();
    const twoLinks = async (): Promise<HttpResponse> => {
      await first.run();
      return second.run();
    };

    expect((await oneTrip(first, twoLinks)).statusCode).toBe(200);
    expect(entities(await itemsOf(first.request.tenant))).toEqual(ONE_LINK_AND_ITS_ANSWER);
    expect(entities(await itemsOf(second.request.tenant))).toEqual(
      ONE_LINK_AND_ITS_ANSWER.filter((entity) => entity !== 'IDEMPOTENCY'),
    );
  });
});
