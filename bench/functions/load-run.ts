/**
 * The load run of the function benchmark: each family of routes under load through the local API,
 * its routes' sample requests mixed in turn, sent by autocannon over `concurrency` keep-alive
 * connections until `amount` requests were answered. What a level reports: the client's latency
 * (p50, p99), requests per second of CPU of the server process, and DynamoDB calls per request.
 */
import autocannon from 'autocannon';
import type { RouteDefinition } from '../../functions/routes';
import type { DynamoDbMeter } from './dynamodb-meter';
import { encoded, percentile, type HttpCall } from './load';

/** A family: the routes of one resource of the scopes (customers, keys, ...); the sandbox's tools apart. */
export interface RouteFamily {
  readonly name: string;
  readonly routes: readonly RouteDefinition[];
}

/**
 * Routes left out of the mix, and why: a sample that depends on the order of another route's requests,
 * which requests at once do not keep, or a write that only ever changes one item of the client.
 */
export const OUT_OF_THE_MIX: Readonly<Record<string, string>> = {
  activateKey: "activates the keys suspendKey's requests suspended, in their order",
  rotateInboundApprovalSecret:
    "rotates the client's one approval secret: all its requests change one item, each made again on what " +
    'the others wrote, and past 25 racing rotations one answers 409 CONCURRENT_UPDATE (a client rotates ' +
    'its secret now and then, never 64 times at once); measured alone in the tables above',
};

const familyOf = (route: RouteDefinition): string =>
  route.scopes[0]?.replace(/^[^/]+\/|\.(read|write)$/g, '') ?? 'sandbox';

/** The routes' families, in the order of the route table, each with the routes it mixes. */
export function routeFamilies(routes: readonly RouteDefinition[]): RouteFamily[] {
  const families = new Map<string, RouteDefinition[]>();
  for (const route of routes) {
    if (OUT_OF_THE_MIX[route.name]) continue;
    const family = familyOf(route);
    families.set(family, [...(families.get(family) ?? []), route]);
  }
  return [...families].map(([name, members]) => ({ name, routes: members }));
}

/**
 * Requests of each route a level of a family builds at most: the routes take turns over `amount`
 * requests and the one each connection builds ahead (its first, and one left unsent at the end).
 */
export const requestsPerRoute = (family: RouteFamily, amount: number, concurrency: number): number =>
  Math.ceil((amount + concurrency) / family.routes.length) + 1;

export interface LoadLevel {
  readonly concurrency: number;
  /** Requests answered. */
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requestsPerSecond: number;
  readonly requestsPerCpuSecond: number;
  readonly dynamodbCallsPerRequest: number;
  /** Answers other than the sample's success, by route and status (503: DynamoDB Local gave up). */
  readonly failures: Record<string, number>;
}

export interface LoadTarget {
  readonly url: string;
  cpuMicros(): Promise<number>;
}

export interface MixOptions {
  readonly family: RouteFamily;
  readonly concurrency: number;
  readonly amount: number;
  /** The next request of a route, sent by connection `worker` (0 to concurrency - 1). */
  readonly next: (route: RouteDefinition, worker: number) => HttpCall;
  /** The status of a route's success. */
  readonly status: (route: RouteDefinition) => number;
}

const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/**
 * One level of a family against one server: `amount` requests, the family's routes in turn. A failure
 * other than DynamoDB Local giving up (503) is a fault of the benchmark or the code: it throws.
 */
export async function runMix(target: LoadTarget, meter: DynamoDbMeter, options: MixOptions): Promise<LoadLevel> {
  const { family, concurrency, amount } = options;
  const latenciesMs: number[] = [];
  const failures: Record<string, number> = {};
  const wrong: string[] = [];
  let turn = 0;
  let workers = 0;
  meter.reset();
  const cpuBefore = await target.cpuMicros();
  const result = await autocannon({
    url: target.url,
    connections: concurrency,
    amount,
    timeout: 60,
    setupClient: (client) => {
      const worker = workers++;
      // Each connection sends one request at a time: the answer is to the request built last.
      let inFlight: RouteDefinition | undefined;
      client.setRequests([
        {
          setupRequest: (request) => {
            inFlight = family.routes[turn++ % family.routes.length]!;
            const call = options.next(inFlight, worker);
            const { headers, body } = encoded(call);
            return { ...request, method: call.method, path: call.path, headers, body: body ?? '' };
          },
          onResponse: (status, body) => {
            if (status === options.status(inFlight!)) return;
            const label = `${inFlight!.name} ${status}`;
            failures[label] = (failures[label] ?? 0) + 1;
            if (status !== 503) wrong.push(`${label}: ${body}`);
          },
        },
      ]);
      client.on('response', (_status, _bytes, responseTimeMs) => latenciesMs.push(responseTimeMs));
    },
  });
  const cpuSeconds = ((await target.cpuMicros()) - cpuBefore) / 1e6;
  const calls = Object.values(meter.reset().calls).reduce((sum, n) => sum + n, 0);
  if (wrong.length > 0 || result.errors > 0) {
    throw new Error(
      `${family.name} at concurrency ${concurrency}: ${result.errors} connection errors; ${wrong.slice(0, 5).join('; ')}`,
    );
  }
  return {
    concurrency,
    requests: latenciesMs.length,
    p50Ms: round(percentile(latenciesMs, 0.5)),
    p99Ms: round(percentile(latenciesMs, 0.99)),
    requestsPerSecond: round(latenciesMs.length / result.duration, 1),
    requestsPerCpuSecond: round(latenciesMs.length / cpuSeconds, 0),
    dynamodbCallsPerRequest: round(calls / latenciesMs.length),
    failures,
  };
}
