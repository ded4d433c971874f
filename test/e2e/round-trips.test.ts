/**
 * DynamoDB round trips on a request's path, seen on the wire. The server talks to DynamoDB Local
 * through a proxy that holds every call 25 ms, as a network would (so calls made together overlap
 * whatever the local timings), and groups the calls each request made into the round trips they
 * took one after another (roundTrips). On AWS each is a network round trip of a few milliseconds: a
 * request's latency grows with their count, not with its work.
 */
import { DynamoDbFaultProxy, roundTrips, type Attempt } from '../support/dynamodb-fault-proxy';
import { startTestApi, testEndpoint, type ApiAnswer, type TestApi } from '../support/local-api';
import { routesFor } from '../../functions/routes';
import { createParty, sampleOf, sendSample, type Party } from '../support/route-samples';
import { SETTLEMENT_AFTER_THE_TESTS } from '../support/settlement';

let proxy: DynamoDbFaultProxy;
let api: TestApi;
let party: Party;

beforeAll(async () => {
  proxy = await DynamoDbFaultProxy.start(testEndpoint(), { delayMs: 25 });
  api = await startTestApi({
    dynamodbEndpoint: proxy.endpoint,
    // As on every deployed stage: the tenant's counter, a write of every request, beside its reads. Its
    // limit is the stage's tenfold: on a fast machine the samples' own setup passed 10 requests a second.
    tenantRateLimit: { requestsPerSecond: 100, burst: 200 },
    scanEndpoint: testEndpoint(),
    // No settlement job or sweep makes calls in the background of the requests measured.
    sandboxSettlementDelayMs: SETTLEMENT_AFTER_THE_TESTS,
    sweepIntervalMs: 3_600_000,
  });
  party = await createParty(api, 'sandbox-client-a');
}, 120_000);

afterAll(async () => {
  await api.stop();
  await proxy.stop();
});

/** The kind of item (its sort key) a single-item call names. */
const itemOf = (call: Attempt): string | undefined =>
  ['GetItem', 'PutItem', 'UpdateItem', 'DeleteItem'].includes(call.operation)
    ? /"(?:Key|Item)":\{"pk":\{"S":"[^"]*"\},"sk":\{"S":"([^"#]*)/.exec(call.body)?.[1]
    : undefined;

/**
 * Calls of the local runtime's own, made beside the requests through the same proxy: the stream
 * readers' polls; the audit chain's links, written as the audit stream is read; the events'
 * dispatch, which reads the client's webhooks (a Query of their index among them), and marks the
 * event sent. No call of the payment's path queries.
 */
const inBackground = (call: Attempt): boolean =>
  ['GetRecords', 'GetShardIterator', 'DescribeStream', 'ListStreams', 'Query'].includes(call.operation) ||
  ['AUDIT_CHAIN', 'WEBHOOK_IDS', 'WEBHOOK', 'EVENT', 'DELIVERY'].includes(itemOf(call) ?? '') ||
  call.body.includes('"sk":{"S":"AUDIT_LINK"}');

/** What a call names: its operation, and the kind of item of a single-item call. */
const named = (call: Attempt): string => [call.operation, itemOf(call)].filter(Boolean).join(' ');

/**
 * The request's answer, and the round trips of the calls made while it ran (each sorted by name):
 * those of `functionName` alone, when it is named (the local runtime names each call's function).
 */
async function onTheWire(
  send: () => Promise<ApiAnswer>,
  functionName?: string,
): Promise<{ answer: ApiAnswer; trips: string[][] }> {
  const from = proxy.attempts.length;
  const answer = await send();
  const calls = proxy.attempts
    .slice(from)
    .filter((call) => (functionName ? call.functionName === functionName : !inBackground(call)));
  return { answer, trips: roundTrips(calls).map((trip) => trip.map(named).sort()) };
}

const succeeded = (answer: ApiAnswer) => ({
  status: answer.status,
  problem: answer.status >= 300 ? answer.body : undefined,
});

/** A resolution of a key at another participant, for the party's customer. */
async function resolvedKey(): Promise<string> {
  const resolution = await api.request('POST', '/v1/resolve-key', {
    token: party.token,
    body: { customer_id: party.customerId, key: { key_type: 'PHONE', key_value: '3001234567' } },
  });
  return resolution.body['id'] as string;
}

const payment = { amount: { value: '10.00', currency: 'COP' } };

describe('POST /v1/payments: the reads that do not depend on each other in one round trip', () => {
  test('of a resolution: the resolution, the payer and the counter together, then the transaction', async () => {
    const body = {
      customer_id: party.customerId,
      account_id: party.accountId,
      resolution_id: await resolvedKey(),
      ...payment,
    };
    const { answer, trips } = await onTheWire(() => api.request('POST', '/v1/payments', { token: party.token, body }));
    expect(succeeded(answer)).toEqual({ status: 200, problem: undefined });
    expect(trips).toEqual([
      ['GetItem ACCOUNT', 'GetItem BALANCE', 'GetItem CUSTOMER', 'GetItem RESOLUTION', 'UpdateItem RATE_WINDOW'],
      ['TransactWriteItems'],
    ]);
  });

  test("of a recipient with an Idempotency-Key: the reads, the directory, then the transaction with the key's answer", async () => {
    const recipient = await api.request('POST', '/v1/recipients', {
      token: party.token,
      body: { customer_id: party.customerId, resolution_id: await resolvedKey(), alias: 'Ana' },
    });
    const body = {
      customer_id: party.customerId,
      account_id: party.accountId,
      recipient_id: recipient.body['id'],
      ...payment,
    };
    const { answer, trips } = await onTheWire(() =>
      api.request('POST', '/v1/payments', {
        token: party.token,
        body,
        headers: { 'idempotency-key': `round-trips-${process.pid}` },
      }),
    );
    expect(succeeded(answer)).toEqual({ status: 200, problem: undefined });
    // The Idempotency-Key's answer commits in the payment's transaction (shared/http/idempotency.ts):
    // the settlement job goes once it committed.
    expect(trips).toEqual([
      [
        'GetItem ACCOUNT',
        'GetItem BALANCE',
        'GetItem CUSTOMER',
        'GetItem RECIPIENT',
        'GetItem RESOLUTION',
        'UpdateItem RATE_WINDOW',
      ],
      ['GetItem DIRECTORY'],
      ['TransactWriteItems'],
    ]);
  });
});

describe("PATCH /v1/customers/{id}: the sponsor bank's approval checked in the change's own transaction", () => {
  test('activating: the customer with its accounts and the counter, the transaction, the copies', async () => {
    const patch = (status: string) =>
      api.request('PATCH', `/v1/customers/${party.customerId}`, { token: party.token, body: { status } });
    expect(succeeded(await patch('INACTIVE'))).toEqual({ status: 200, problem: undefined });
    const { answer, trips } = await onTheWire(() => patch('ACTIVE'), 'updateCustomer');
    expect(succeeded(answer)).toEqual({ status: 200, problem: undefined });
    expect(answer.body['status']).toBe('ACTIVE');
    expect(trips).toEqual([
      ['GetItem CUSTOMER', 'Query', 'UpdateItem RATE_WINDOW'],
      ['TransactWriteItems'],
      ['Query', 'UpdateItem ACCOUNT'],
    ]);
  });
});

/**
 * The routes whose request path takes more than 3 round trips, and why. Every other write route
 * takes at most 3, the tenant's counter included (it runs beside the first reads).
 */
const MORE_THAN_THREE: Record<string, string> = {
  approveSponsorBankMerchant:
    'the sandbox stand-in for the sponsor bank: the merchant, then each of up to 100 accounts written on its own; no deployed production path',
  paySandboxQrCode:
    "the sandbox's simulator of another participant's payer: it reads the code, then pays it through the inbound path, as the network would; no deployed production path",
  receiveSandboxInboundPayment:
    "the sandbox's simulator of the network's credit: the inbound path's reads and approval, as the network would drive them; no deployed production path",
};

describe('every write route: at most 3 round trips on its request path, its tenant counted beside its reads', () => {
  const writes = routesFor(true).filter((route) => route.method !== 'GET');
  test.each(writes.map((route) => [route.name, route] as const))('%s', async (name, route) => {
    const sample = sampleOf(route);
    const request = await sample.valid({ api, party });
    // The route's own calls: a report's run or a dispatch another request left goes on beside it.
    const { answer, trips } = await onTheWire(() => sendSample(api, route, request, { token: party.token }), name);
    expect(succeeded(answer)).toEqual({ status: sample.status ?? 200, problem: undefined });
    // The counter is one of the calls of the first round trip, beside the route's first calls: never
    // a round trip of its own in front of reads that come later.
    const reads = (trip: string[]) => trip.some((call) => call.startsWith('GetItem'));
    const alone = trips[0]!.length === 1 && trips.slice(1).some(reads);
    expect({ first: trips[0], alone }).toEqual({
      first: expect.arrayContaining(['UpdateItem RATE_WINDOW']),
      alone: false,
    });
    if (MORE_THAN_THREE[name]) return;
    expect({ name, trips: trips.length <= 3 ? 'at most 3' : trips }).toEqual({ name, trips: 'at most 3' });
  });
});
