/**
 * Every log line of an end-to-end run at DEBUG level: every route of the route table answering a
 * valid request, a refused one and another client's, plus a DynamoDB outage. No line may hold an
 * identification number, phone, email, account number, key value or bearer token in clear.
 */
import { routes, type RouteDefinition } from '../../functions/routes';
import { DynamoDbFaultProxy } from '../support/dynamodb-fault-proxy';
import { linkMerchantBody } from '../support/fixtures';
import type { TestApi } from '../support/local-api';
import { SETTLEMENT_AFTER_THE_TESTS } from '../support/settlement';
import type { Party, SampleRequest } from '../support/route-samples';

// The functions' logger reads its level when its module loads: set it before the server is imported.
process.env['POWERTOOLS_LOG_LEVEL'] = 'DEBUG';
const { startTestApi, testEndpoint } = await import('../support/local-api');
const { createParty, sampleOf, secretsOf, sendSample } = await import('../support/route-samples');

const captured: string[] = [];
const restore: (() => void)[] = [];

/** Everything written to stdout, stderr or the console from now on is kept, and not shown. */
function capture(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write;
    stream.write = ((chunk: unknown) => captured.push(String(chunk)) > 0) as typeof stream.write;
    restore.push(() => (stream.write = write));
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
    const original = console[method];
    console[method] = (...args: unknown[]) => void captured.push(args.map(String).join(' '));
    restore.push(() => (console[method] = original));
  }
}

let proxy: DynamoDbFaultProxy;
let api: TestApi;
const secrets = new Set<string>();
let requests = 0;

beforeAll(async () => {
  proxy = await DynamoDbFaultProxy.start(testEndpoint());
  // The faults are injected by DynamoDB call: no settlement job may make calls in the background.
  api = await startTestApi({
    dynamodbEndpoint: proxy.endpoint,
    scanEndpoint: testEndpoint(),
    sandboxSettlementDelayMs: SETTLEMENT_AFTER_THE_TESTS,
  });
});

afterAll(async () => {
  await api.stop();
  await proxy.stop();
});

/** The party's personal and financial data, and its token. */
function remember(party: Party): void {
  const { email, mobile_phone_number: phone } = linkMerchantBody();
  for (const value of [...secretsOf(party), email, phone, `+57${phone}`, party.token, party.token.split('.')[2]!]) {
    secrets.add(String(value));
  }
}

/** The request with every secret in a field (or, for a GET, a query parameter) that does not exist. */
function refusedVersionOf(route: RouteDefinition, request: SampleRequest): SampleRequest {
  const leaked = [...secrets].join(' ');
  return route.method === 'GET'
    ? { ...request, query: { ...request.query, leaked } }
    : { ...request, body: { ...request.body, leaked } };
}

/** Identification, phone and account numbers, emails and key aliases anywhere in a request body. */
function identifiersIn(value: unknown): string[] {
  if (typeof value === 'string') return /^\+?\d{6,}$|@/.test(value) ? [value] : [];
  if (value && typeof value === 'object') return Object.values(value).flatMap(identifiersIn);
  return [];
}

it('logs no personal data or token in clear, on any route, success or failure', async () => {
  capture();
  try {
    const owner = await createParty(api, 'sandbox-client-a');
    const other = await createParty(api, 'sandbox-client-b');
    remember(owner);
    remember(other);
    // The sandbox directory's person, resolved by the resolveKey sample.
    for (const value of ['3001234567', '1020304050', 'ana.gomez@example.com']) secrets.add(value);

    for (const route of routes) {
      const sample = sampleOf(route);
      const request = await sample.valid({ api, party: owner });
      for (const value of identifiersIn(request.body)) secrets.add(value);
      const key = { 'idempotency-key': `log-${route.name}` };
      const answers = [
        await sendSample(api, route, request, { token: owner.token, headers: key }),
        // Refused: every secret sent where it does not belong (a field or a query parameter), a bad token.
        await sendSample(api, route, refusedVersionOf(route, request), { token: owner.token }),
        await sendSample(api, route, request, { headers: { authorization: `Bearer ${owner.token}x` } }),
        await sendSample(api, route, request, { token: other.token }),
      ];
      requests += answers.length;
      if (route.method === 'POST') {
        const another = await sample.valid({ api, party: owner });
        proxy.inject({ fault: 'InternalServerError' });
        const failed = await sendSample(api, route, another, { token: owner.token });
        proxy.clear();
        // 503, or a success for a route that needs no DynamoDB (decoding a payload).
        expect(failed.status === 503 || failed.status < 300).toBe(true);
        requests += 1;
      }
    }
  } finally {
    for (const undo of restore.splice(0)) undo();
  }

  const logLines = captured
    .join('')
    .split('\n')
    .filter((line) => line.startsWith('{'));
  // One line per request at least (the request line), so the capture did see the functions' logs.
  expect(logLines.filter((line) => line.includes('"message":"request"')).length).toBeGreaterThanOrEqual(
    routes.length * 2,
  );
  const leaks = [...secrets].flatMap((secret) =>
    captured.filter((chunk) => chunk.includes(secret)).map((chunk) => `${secret} in ${chunk.slice(0, 200)}`),
  );
  expect(leaks).toEqual([]);
  process.stdout.write(
    `logs: ${logLines.length} log lines of ${requests} requests checked for ${secrets.size} values\n`,
  );
}, 120_000);
