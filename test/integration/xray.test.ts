/**
 * X-Ray tracing without the X-Ray SDK (shared/observability/xray.ts): the documents a function sends to the X-Ray
 * daemon, read by a UDP socket standing where Lambda's daemon listens, for a handler that calls
 * DynamoDB Local through a captured client.
 */
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { DynamoDBClient, GetItemCommand } from '@aws-sdk/client-dynamodb';
import middy from '@middy/core';
import { daemonAddress, sampledTraceContext, XRayTracer } from '../../shared/observability/xray';
import { createTestTable, type TestTable } from '../support/dynamo-table';

const ROOT = '1-67891233-abcdef012345678912345678';
const FUNCTION_SEGMENT = '53995c3f42cd8ad8';
const LAMBDA_ENV = {
  AWS_EXECUTION_ENV: 'AWS_Lambda_nodejs24.x',
  AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
  _HANDLER: 'index.handler',
  _X_AMZN_TRACE_ID: `Root=${ROOT};Parent=${FUNCTION_SEGMENT};Sampled=1;Lineage=a87bd80c:0`,
};

type Document = Record<string, any>;

let table: TestTable;
let daemon: Socket;
const received: Document[] = [];
const saved = { ...process.env };

beforeAll(async () => {
  table = await createTestTable('xray');
  daemon = createSocket('udp4');
  daemon.on('message', (message) => {
    const [header, body] = message.toString('utf8').split('\n');
    expect(JSON.parse(header!)).toEqual({ format: 'json', version: 1 });
    received.push(JSON.parse(body!));
  });
  await new Promise<void>((bound) => daemon.bind(0, '127.0.0.1', bound));
  process.env['AWS_XRAY_DAEMON_ADDRESS'] = `127.0.0.1:${(daemon.address() as AddressInfo).port}`;
});
afterAll(async () => {
  daemon.close();
  await table.drop();
  process.env = saved;
});
beforeEach(() => {
  received.length = 0;
  Object.assign(process.env, LAMBDA_ENV);
});
afterEach(() => {
  for (const name of Object.keys(LAMBDA_ENV)) delete process.env[name];
});

/** Waits for `count` documents (UDP gives no acknowledgement). */
async function documents(count: number, patienceMs = 2000): Promise<Document[]> {
  for (let waited = 0; received.length < count && waited < patienceMs; waited += 10) await sleep(10);
  await sleep(20);
  return [...received];
}

/** The trace headers of the requests sent, as signed and sent (after the tracing middleware). */
const sentTraceHeaders: (string | undefined)[] = [];

function tracedFunction(
  tracer: XRayTracer,
  work: (client: DynamoDBClient, event: { calls?: number }) => Promise<unknown>,
) {
  const client = tracer.captureAWSv3Client(new DynamoDBClient({ endpoint: table.endpoint, region: 'us-east-1' }));
  client.middlewareStack.add(
    (next) => async (args) => {
      sentTraceHeaders.push((args.request as { headers: Record<string, string> }).headers['X-Amzn-Trace-Id']);
      return next(args);
    },
    { step: 'finalizeRequest' },
  );
  return tracer.traced(
    middy(async (event: { calls?: number }) => {
      await work(client, event);
      return { statusCode: 200 };
    }).use(tracer.handlerMiddleware()),
  );
}

const getItem = (client: DynamoDBClient, TableName = table.tableName) =>
  client.send(new GetItemCommand({ TableName, Key: { pk: { S: 'none' }, sk: { S: 'none' } } }));

test('each invocation and each DynamoDB call is a subsegment of the function segment Lambda created', async () => {
  const tracer = new XRayTracer({ serviceName: 'breb-test' });
  expect(tracer.isTracingEnabled()).toBe(true);
  const handler = tracedFunction(tracer, (client) => getItem(client));

  await handler({}, {} as never);
  const [call, invocation] = await documents(2);

  expect(invocation).toMatchObject({
    name: '## index.handler',
    type: 'subsegment',
    trace_id: ROOT,
    parent_id: FUNCTION_SEGMENT,
    annotations: { ColdStart: true, Service: 'breb-test' },
  });
  expect(invocation!['id']).toMatch(/^[0-9a-f]{16}$/);
  expect(invocation!['end_time']).toBeGreaterThanOrEqual(invocation!['start_time']);
  expect(invocation).not.toHaveProperty('fault');

  expect(call).toMatchObject({
    name: 'DynamoDB',
    namespace: 'aws',
    type: 'subsegment',
    trace_id: ROOT,
    parent_id: invocation!['id'],
    aws: { operation: 'GetItem', region: 'us-east-1', table_name: table.tableName, retries: 0 },
    http: { response: { status: 200 } },
  });
  expect(call!['aws'].request_id).toEqual(expect.any(String));
  expect(call!['start_time']).toBeGreaterThanOrEqual(invocation!['start_time']);
  expect(call!['end_time']).toBeLessThanOrEqual(invocation!['end_time']);
  // DynamoDB receives the call's place in the trace.
  expect(sentTraceHeaders).toEqual([`Root=${ROOT};Parent=${call!['id']};Sampled=1`]);

  // Later invocations of the same environment are warm.
  await handler({}, {} as never);
  expect((await documents(4))[3]).toMatchObject({ annotations: { ColdStart: false } });
});

test('a failed call is flagged by its status, and an error ending the invocation is kept as its cause', async () => {
  const tracer = new XRayTracer({ serviceName: 'breb-test' });
  const handler = tracedFunction(tracer, (client) => getItem(client, 'no-such-table'));

  await expect(handler({}, {} as never)).rejects.toThrow();
  const [call, invocation] = await documents(2);

  expect(call).toMatchObject({
    http: { response: { status: 400 } },
    error: true,
    cause: { exceptions: [{ type: 'ResourceNotFoundException', remote: true }] },
  });
  expect(call).not.toHaveProperty('fault');
  expect(invocation).toMatchObject({
    fault: true,
    cause: { exceptions: [{ type: 'ResourceNotFoundException', stack: expect.any(Array) }] },
  });
});

test('invocations running at once in one process each keep their own calls', async () => {
  const tracer = new XRayTracer({ serviceName: 'breb-test' });
  const handler = tracedFunction(tracer, async (client, { calls = 0 }) => {
    for (let call = 0; call < calls; call += 1) {
      await sleep(5);
      await getItem(client);
    }
  });
  await Promise.all([handler({ calls: 1 }, {} as never), handler({ calls: 2 }, {} as never)]);
  const sent = await documents(5);
  const invocations = sent.filter((document) => document['name'] === '## index.handler');
  const calls = sent.filter((document) => document['name'] === 'DynamoDB');
  expect(invocations).toHaveLength(2);
  expect(calls).toHaveLength(3);
  const callsOf = invocations.map(
    (invocation) => calls.filter((call) => call['parent_id'] === invocation['id']).length,
  );
  expect(callsOf.sort()).toEqual([1, 2]);
});

test('nothing is sent for an invocation Lambda did not sample, nor outside Lambda', async () => {
  process.env['_X_AMZN_TRACE_ID'] = `Root=${ROOT};Parent=${FUNCTION_SEGMENT};Sampled=0`;
  await tracedFunction(new XRayTracer({ serviceName: 'breb-test' }), (client) => getItem(client))({}, {} as never);

  delete process.env['AWS_EXECUTION_ENV'];
  const outside = new XRayTracer({ serviceName: 'breb-test' });
  expect(outside.isTracingEnabled()).toBe(false);
  await tracedFunction(outside, (client) => getItem(client))({}, {} as never);

  expect(await documents(1, 300)).toEqual([]);
});

test('trace headers and daemon addresses', () => {
  expect(sampledTraceContext(`Root=${ROOT};Parent=${FUNCTION_SEGMENT};Sampled=1`)).toEqual({
    traceId: ROOT,
    parentId: FUNCTION_SEGMENT,
  });
  expect(sampledTraceContext(`Root=${ROOT};Sampled=1`)).toBeUndefined();
  expect(sampledTraceContext(undefined)).toBeUndefined();
  expect(daemonAddress('169.254.79.129:2000')).toEqual({ host: '169.254.79.129', port: 2000 });
  expect(daemonAddress('tcp:127.0.0.1:3000 udp:127.0.0.2:2001')).toEqual({ host: '127.0.0.2', port: 2001 });
  expect(daemonAddress(undefined)).toEqual({ host: '127.0.0.1', port: 2000 });
});
