/**
 * What each route writes and reads, call by call: the local API (infra/local/runtime.ts, the same as
 * `npm start`, handlers from their sources) behind the recording proxy (bench/functions/dynamodb-meter.ts)
 * against DynamoDB Local, every route's sample (bench/functions/samples.ts) sent a few times one at a
 * time while the runtime's later work is held. Each call keeps its request and the capacity DynamoDB
 * Local reports per table and index (ReturnConsumedCapacity INDEXES).
 */
import type { ListShardSettings } from '../../shared/data/list-shards';
import { mkdtempSync } from 'node:fs';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import os from 'node:os';
import path from 'node:path';
import { routesFor, type RouteDefinition } from '../../functions/routes';
import { DynamoDbMeter, type LoggedCall } from '../functions/dynamodb-meter';
import { send } from '../functions/load';
import { makeFixtures, samples, type Fixtures } from '../functions/samples';
import { storedKey } from './floor';

/**
 * A webhook of the fixtures' client for every event a payment reports, to a loopback port nothing
 * listens on (one refused attempt each, ONCE): what a merchant's payments trigger besides their route.
 */
const PAYMENT_WEBHOOK = {
  url: 'http://127.0.0.1:9/capacity',
  events: [
    'payment.outbound.confirmed',
    'payment.inbound.received',
    'payment.inbound.confirmed',
    'payment.settled',
    'payment.rejected',
    'qr_code.paid',
  ],
  delivery_mode: 'ONCE',
};

const TABLE = 'capacity';
/** How long the later work (stream, dispatcher, sender, settlement) is given to finish. */
const LATER_WORK_MS = Number(process.env['BENCH_LATER_WORK_MS'] ?? 8_000);

export interface RouteCapacity {
  readonly name: string;
  readonly method: string;
  readonly requests: number;
  /** Every DynamoDB call of the route's requests, in order. */
  readonly calls: LoggedCall[];
  /** With `laterWork`: the calls of the work the requests left for later (events, webhooks, settlement). */
  readonly laterCalls?: LoggedCall[];
  /** The items the calls updated or checked, as stored after them (read around the meter), and those they deleted, as before. */
  readonly stored: Map<string, Record<string, unknown>>;
  /** With `laterWork`: each request of the later round alone, its calls and its later work's. */
  readonly perRequest?: { readonly calls: LoggedCall[]; readonly laterCalls: LoggedCall[] }[];
}

/** What measureRoutes answers: the routes, and the ids of the one merchant every sample acts for. */
export interface Measured {
  readonly routes: RouteCapacity[];
  readonly merchantIds: readonly string[];
}

/**
 * Runs every route's sample (the sandbox's tools included) `requests` times while the later work is
 * held; then, for the routes named in `laterWork`, `requests` more times with the workers running
 * for LATER_WORK_MS after each, keeping those calls apart. Answers the calls by route, in the route
 * table's order.
 */
export async function measureRoutes(
  requests: number,
  {
    laterWork = [] as readonly string[],
    listShards,
  }: { laterWork?: readonly string[]; listShards?: ListShardSettings } = {},
): Promise<Measured> {
  process.env['POWERTOOLS_LOG_LEVEL'] = 'ERROR';
  const { startDynamoDbLocal } = await import('../../infra/local/dynamodb-local');
  const { startLocalRuntime } = await import('../../infra/local/runtime');
  const { createDynamoDbClient } = await import('../../shared/data/client');
  const dynamoDbLocal = await startDynamoDbLocal();
  const meter = await DynamoDbMeter.start(dynamoDbLocal.endpoint, { detail: true });
  const runtime = await startLocalRuntime({
    port: 0,
    dataDir: mkdtempSync(path.join(os.tmpdir(), 'breb-capacity-')),
    tableName: TABLE,
    dynamodbEndpoint: meter.endpoint,
    dynamodbRequestTimeoutMs: 15_000,
    ...(listShards ? { listShards } : {}),
  });
  const direct = DynamoDBDocumentClient.from(createDynamoDbClient(dynamoDbLocal.endpoint));
  /** The stored items of every key the calls name without the item itself (updates, deletes, checks). */
  const storedOf = async (calls: readonly LoggedCall[]) => {
    const stored = new Map<string, Record<string, unknown>>();
    for (const call of calls) {
      const entries =
        call.operation === 'TransactWriteItems'
          ? (call.input['TransactItems'] as Record<string, Record<string, unknown>>[]).map((e) => Object.values(e)[0]!)
          : call.operation === 'UpdateItem'
            ? [call.input]
            : [];
      for (const body of entries) {
        if (body['Item'] || !body['Key']) continue;
        const key = unmarshall(body['Key'] as Record<string, AttributeValue>);
        const { Item } = await direct.send(new GetCommand({ TableName: TABLE, Key: key }));
        if (Item) stored.set(storedKey(key), Item);
      }
      // A deleted item, as the meter read it just before its delete.
      for (const [key, item] of Object.entries(call.deleted ?? {})) {
        if (!stored.has(key)) stored.set(key, unmarshall(item as Record<string, AttributeValue>));
      }
    }
    return stored;
  };
  const sendOne = async (route: RouteDefinition, fixtures: Fixtures, n: number) => {
    const sample = samples[route.name]!;
    const answer = await send(runtime.url, sample.call(fixtures, n, 0));
    if (answer.status !== sample.status) throw new Error(`${route.name} answered ${answer.status}: ${answer.body}`);
  };
  const sendAll = async (route: RouteDefinition, fixtures: Fixtures, from: number) => {
    for (let n = from; n < from + requests; n += 1) await sendOne(route, fixtures, n);
  };
  try {
    const fixtures = await makeFixtures(runtime.url);
    const answer = await send(runtime.url, {
      method: 'POST',
      path: '/v1/webhooks',
      headers: { authorization: fixtures.authorization },
      body: PAYMENT_WEBHOOK,
    });
    if (answer.status !== 200) throw new Error(`webhook: ${answer.status} ${answer.body}`);
    // A route without a sample (bench/functions/samples.ts) cannot be measured: the report names it.
    const chosen = routesFor(true).filter((route) => samples[route.name]);
    for (const route of chosen) {
      const sample = samples[route.name]!;
      if (sample.prepare) {
        const plan = { requests: requests * (laterWork.includes(route.name) ? 2 : 1), workers: 1, coldStarts: 0 };
        fixtures.pools.set(route.name, await sample.prepare(fixtures, plan));
      }
    }
    // From here on the meter counts the routes' calls alone.
    await runtime.pauseWorkers();
    meter.log.splice(0);
    const measured: RouteCapacity[] = [];
    for (const route of chosen) {
      await sendAll(route, fixtures, 0);
      const calls = meter.log.splice(0);
      measured.push({ name: route.name, method: route.method, requests, calls, stored: await storedOf(calls) });
    }
    const runWorkers = async () => {
      runtime.resumeWorkers();
      await new Promise((resolve) => setTimeout(resolve, LATER_WORK_MS));
      await runtime.pauseWorkers();
    };
    for (const name of laterWork) {
      const route = chosen.find((r) => r.name === name)!;
      // What the earlier requests left for later is done first, so that only this route's is counted.
      await runWorkers();
      meter.log.splice(0);
      const perRequest = [];
      const stored = new Map(measured.find((r) => r.name === name)!.stored);
      // One request at a time, its later work after it: what each request touches, apart.
      for (let n = requests; n < 2 * requests; n += 1) {
        await sendOne(route, fixtures, n);
        const calls = meter.log.splice(0);
        await runWorkers();
        // The stream's polls carry no capacity; every other call of the workers counts, idle polls included.
        const laterCalls = meter.log.splice(0).filter((call) => call.operation !== 'GetRecords');
        perRequest.push({ calls, laterCalls });
        for (const [key, item] of await storedOf([...calls, ...laterCalls])) stored.set(key, item);
      }
      const index = measured.findIndex((r) => r.name === name);
      const laterCalls = perRequest.flatMap((r) => r.laterCalls);
      measured[index] = { ...measured[index]!, laterCalls, stored, perRequest };
    }
    return { routes: measured, merchantIds: [fixtures.customerId, fixtures.accountId, fixtures.keyId] };
  } finally {
    await runtime.stop();
    await meter.stop();
    await dynamoDbLocal.stop();
  }
}
