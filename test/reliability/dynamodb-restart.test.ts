/**
 * DynamoDB Local killed (SIGKILL) and started again under a running local server: meanwhile the API
 * answers 503 with Retry-After; afterwards it serves again, with its data, without being restarted.
 * This file runs its own DynamoDB Local (on disk), so the test run's shared one is never touched.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';
import { linkMerchantBody } from '../support/fixtures';
import { startTestApi, type TestApi } from '../support/local-api';
import { expectUnavailable } from '../support/problems';

const dataDir = mkdtempSync(join(tmpdir(), 'breb-restart-'));
let port: number;
let dynamodb: DynamoDbLocal;
let api: TestApi;

beforeAll(async () => {
  port = await freePort();
  dynamodb = await startDynamoDbLocal({ dataDir, port });
  api = await startTestApi({ dynamodbEndpoint: dynamodb.endpoint });
}, 60_000);

afterAll(async () => {
  await api?.stop();
  await dynamodb?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function kill(database: DynamoDbLocal): Promise<void> {
  const exited = new Promise((resolve) => database.process.once('exit', resolve));
  database.process.kill('SIGKILL');
  await exited;
}

it('answers 503 while DynamoDB Local is down and recovers when it is back, without a restart', async () => {
  const token = await api.token('sandbox-client-a');
  const linked = await api.request('POST', '/v1/customers/business/link', { token, body: linkMerchantBody() });
  expect(linked.status).toBe(200);
  const customer = `/v1/customers/${linked.body.id}`;

  await kill(dynamodb);
  expectUnavailable(await api.request('GET', customer, { token }));
  const approval = {
    token,
    body: { identification_type: 'NIT', identification_number: '812340001', business_name: 'Reinicio SAS' },
    headers: { 'idempotency-key': 'approve-during-outage' },
  };
  expectUnavailable(await api.request('POST', '/sandbox/sponsor-bank/merchants', approval));

  dynamodb = await startDynamoDbLocal({ dataDir, port });
  const read = await api.request('GET', customer, { token });
  expect(read.status).toBe(200);
  expect(read.body).toEqual(linked.body);
  const retried = await api.request('POST', '/sandbox/sponsor-bank/merchants', approval);
  expect(retried.status).toBe(201);
  expect(retried.headers.get('idempotent-replayed')).toBeNull();
}, 60_000);
