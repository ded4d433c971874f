/**
 * Reads never write (issue 31, docs/pagination.md): every GET of the route table, sent through the
 * local server to DynamoDB Local behind a proxy that records every call on the wire (the benchmark's
 * meter, bench/functions/dynamodb-meter.ts), makes no write call (but for the one audited read: a
 * report's download URL handed out writes its audit event, one transaction, docs/audit.md); page 1 of a new walk of every list
 * makes at most 2 calls, and every later page of its walk at most 4 (the counter, the items after
 * the snapshot, the keys stepped over, the page), whatever the page. A list under a resource (an
 * account's movements, a webhook's deliveries) reads that resource within those calls: with the
 * counter, whose call it shares.
 */
import { routes, type RouteDefinition } from '../../functions/routes';
import { DynamoDbMeter, type MeterReading } from '../../bench/functions/dynamodb-meter';
import { startTestApi, testEndpoint, type TestApi } from '../support/local-api';
import { SETTLEMENT_AFTER_THE_TESTS } from '../support/settlement';
import { createParty, pathOf, sampleOf, type Party } from '../support/route-samples';

let meter: DynamoDbMeter;
let api: TestApi;
let party: Party;
const seen: string[] = [];

const WRITES = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems', 'ExecuteStatement'];
const callCount = (reading: MeterReading): number => Object.values(reading.calls).reduce((sum, n) => sum + n, 0);
const writesOf = (reading: MeterReading): Record<string, number> =>
  Object.fromEntries(Object.entries(reading.calls).filter(([operation]) => WRITES.includes(operation)));

beforeAll(async () => {
  meter = await DynamoDbMeter.start(testEndpoint());
  api = await startTestApi({
    dynamodbEndpoint: meter.endpoint,
    scanEndpoint: testEndpoint(),
    // Nothing may call DynamoDB in the background while a request is counted.
    sandboxSettlementDelayMs: SETTLEMENT_AFTER_THE_TESTS,
  });
  party = await createParty(api, 'sandbox-client-a');
  // A second of each listed kind the party can make cheaply, so that its lists have a page 2 at page_size 1.
  await createParty(api, 'sandbox-client-a');
}, 120_000);

afterAll(async () => {
  process.stdout.write(`reads-never-write:\n${seen.join('\n')}\n`);
  await api.stop();
  await meter.stop();
});

/** The DynamoDB calls of one request, the runtime's later work held meanwhile. */
async function callsOf(path: string): Promise<{ status: number; body: Record<string, any>; reading: MeterReading }> {
  return api.quietly(async () => {
    meter.reset();
    const answer = await api.request('GET', path, { token: party.token });
    return { status: answer.status, body: answer.body, reading: meter.reset() };
  });
}

const reads = routes.filter((route) => route.method === 'GET');

/** The writes of an audited read: a report's download URL handed out, its event in one transaction. */
const auditedWrites = (route: RouteDefinition, body: Record<string, any>): Record<string, number> =>
  route.name === 'getReport' && body['download_url'] !== undefined ? { TransactWriteItems: 1 } : {};

describe('every GET', () => {
  it.each(reads.map((route) => [route.name, route] as const))('%s makes no write call', async (_, route) => {
    const request = await sampleOf(route).valid({ api, party });
    const query = new URLSearchParams(request.query ?? {}).toString();
    const { status, body, reading } = await callsOf(`${pathOf(route, request)}${query ? `?${query}` : ''}`);
    expect(status).toBe(200);
    expect(writesOf(reading)).toEqual(auditedWrites(route, body));
    seen.push(`  ${route.name}: ${callCount(reading)} calls ${JSON.stringify(reading.calls)}`);
  });
});

const lists = reads.filter((route: RouteDefinition) => sampleOf(route).list);

describe('every list', () => {
  it.each(lists.map((route) => [route.name, route] as const))(
    '%s: page 1 of a new walk in at most 2 calls, every later page in at most 4, none writing',
    async (_, route) => {
      const request = await sampleOf(route).valid({ api, party });
      const path = pathOf(route, request);
      // The sample's query (its filters), and the whole list: the counter's way to a total.
      for (const filters of [request.query ?? {}, {}]) {
        const query = (extra: Record<string, string>) =>
          `${path}?${new URLSearchParams({ ...filters, page_size: '1', ...extra }).toString()}`;
        const first = await callsOf(query({}));
        expect(first.status).toBe(200);
        expect(writesOf(first.reading)).toEqual({});
        expect(callCount(first.reading)).toBeLessThanOrEqual(2);
        const { total_pages: pages, first_request_timestamp: snapshot } = first.body['pagination_info'];
        const counts = [callCount(first.reading)];
        // Page 2, the middle, the last page and the one past it, in the walk page 1 began.
        for (const page of [...new Set([2, Math.ceil(pages / 2), pages, pages + 1])].filter((p) => p >= 2)) {
          const later = await callsOf(query({ page_number: String(page), first_request_timestamp: snapshot }));
          expect(later.status).toBe(200);
          expect(writesOf(later.reading)).toEqual({});
          expect(callCount(later.reading)).toBeLessThanOrEqual(4);
          counts.push(callCount(later.reading));
        }
        const what = Object.keys(filters).length ? JSON.stringify(filters) : 'whole list';
        seen.push(`  ${route.name} ${what} (${pages} pages of 1): calls per page ${counts.join(', ')}`);
      }
    },
  );
});
