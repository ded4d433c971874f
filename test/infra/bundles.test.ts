/**
 * What deploys is what runs: the functions as `cdk synth` bundles them (real esbuild, no Docker), then
 * served by the local server from the cloud assembly (infra/local/bundles.ts) instead of their sources,
 * each sent a valid request (test/support/route-samples.ts) with a real token. A bundling fault the
 * sources cannot show (an alias to the wrong module, a package left out of the bundle, a wrong handler
 * entry) fails here rather than in Lambda. The workers' bundles are loaded from the assembly too, and
 * each handles an empty batch; the sign-in trigger's answers a sign-in. One synthesis serves every
 * test of this file: bundling all the functions is the slowest step of the CDK tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { build } from 'esbuild';
import { contractRoutes } from '../../functions/contract';
import { networkRoutes, readScopes, routesFor } from '../../functions/routes';
import { personClaimsTrigger } from '../../functions/triggers';
import { workers } from '../../functions/workers';
import { bundleOptions } from '../../infra/constructs/function-bundle';
import { bundleRewritesPlugin, isRequiredBuiltinSource } from '../../infra/constructs/bundle-rewrites';
import { bundleTracerOf } from '../../infra/constructs/service-function';
import { lambdaBundles } from '../../infra/local/bundles';
import { ensureTable } from '../../infra/local/create-table';
import { createDynamoDbClient } from '../../shared/data/client';
import { asInvocation } from '../../infra/local/invoke-store';
import { lambdaContext } from '../../infra/local/lambda-context';
import { stageSettings } from '../../infra/stages';
import { ENV, QUEUE_ENV } from '../../shared/runtime/config';
import { signInEvent } from '../support/cognito-events';
import { testDynamoDbEndpoint, uniqueTableName } from '../support/dynamo-table';
import { startTestApi, type TestApi } from '../support/local-api';
import { createParty, sampleOf, sendSample, type Party } from '../support/route-samples';
import { resourcesOf, serviceFunction, synth, type Synth } from './synth';

const STAGE = 'dev';
const deployed = routesFor(stageSettings(STAGE).sandboxEnabled);

/**
 * Never in a bundle: Ajv's compiler (the schemas are compiled at build time), the X-Ray SDK, Powertools
 * but Logger and Metrics (every function's), Parameters (the secrets cache,
 * shared/data/secret-values.ts), Batch (the queue consumers' batches, shared/runtime/batch-items.ts)
 * and the commons they carry, OpenTelemetry's API on a stage traced by X-Ray (telemetry.ts), and the
 * SDK's credential providers, discovery and event streams that our functions do not use
 * (function-bundle.ts).
 */
const LEFT_OUT_OF_BUNDLES =
  /node_modules\/(ajv\/dist\/compile|ajv-formats|aws-xray-sdk-core|@opentelemetry|@aws-lambda-powertools(?!\/logger\/|\/metrics\/|\/parameters\/|\/batch\/|\/commons\/)|mnemonist|@aws-sdk\/(nested-clients|endpoint-cache|middleware-endpoint-discovery|credential-provider-(ini|sso|process|web-identity|http))|@smithy\/core\/dist-es\/submodules\/event-streams)\//;

// In the temporary folder, with no node_modules above it: as in Lambda, an import a bundle left out
// of itself finds nothing.
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'breb-cdk-'));
let synthed: Synth;

beforeAll(() => {
  synthed = synth(STAGE, { bundle: { outdir } });
}, 600_000);

afterAll(() => fs.rmSync(outdir, { recursive: true, force: true }));

/** The code folder of one of our functions, found through the construct tree (not the way the server does). */
function assetDirOf(name: string): string {
  const fn = serviceFunction(synthed, name).function;
  const resource = resourcesOf(synthed)[synthed.stack.getLogicalId(fn.node.defaultChild as CfnFunction)];
  return path.join(outdir, resource.Metadata['aws:asset:path']);
}

/**
 * The sources bundled into a function, once its bundle is checked to be source-mapped ESM holding
 * nothing a function never runs (docs/benchmarks.md): no schema compiler, no X-Ray SDK, no credential
 * sources but the environment, no endpoint discovery, no event streams.
 */
function bundledSources(name: string): string[] {
  const assetDir = assetDirOf(name);
  const code = fs.readFileSync(path.join(assetDir, 'index.mjs'), 'utf8');
  expect(code.startsWith("import { createRequire } from 'module';")).toBe(true);
  expect(fs.existsSync(path.join(assetDir, 'index.mjs.map'))).toBe(true);
  const { sources } = JSON.parse(fs.readFileSync(path.join(assetDir, 'index.mjs.map'), 'utf8')) as {
    sources: string[];
  };
  expect({ [name]: sources.filter((source) => LEFT_OUT_OF_BUNDLES.test(source)) }).toEqual({ [name]: [] });
  return sources;
}

test("a function's asset is the bundle a build of it alone makes, its map's sources found from the asset", async () => {
  const definition = deployed.find((route) => route.name === 'createPayment')!;
  const assetDir = assetDirOf(definition.name);
  const alone = fs.mkdtempSync(path.join(os.tmpdir(), 'breb-alone-'));
  const tracer = bundleTracerOf(stageSettings(STAGE).tracing);
  await build({
    ...bundleOptions(definition, tracer),
    outfile: path.join(alone, 'index.mjs'),
    plugins: [bundleRewritesPlugin],
  });
  // The code byte for byte; the map the same but for its sources' paths, relative to where each lies.
  expect(fs.readFileSync(path.join(assetDir, 'index.mjs'), 'utf8')).toBe(
    fs.readFileSync(path.join(alone, 'index.mjs'), 'utf8'),
  );
  const mapIn = (dir: string) =>
    JSON.parse(fs.readFileSync(path.join(dir, 'index.mjs.map'), 'utf8')) as { sources: string[]; mappings: string };
  const [asset, built] = [mapIn(assetDir), mapIn(alone)];
  expect(asset.mappings).toBe(built.mappings);
  // A module that requires one of Node's own is no file: its name stays as it is.
  const fileOf = (dir: string) => (source: string) =>
    isRequiredBuiltinSource(source) ? source : path.resolve(dir, source);
  expect(asset.sources.map(fileOf(assetDir))).toEqual(built.sources.map(fileOf(alone)));
  expect(asset.sources.some(isRequiredBuiltinSource)).toBe(true);
  const files = asset.sources.filter((source) => !isRequiredBuiltinSource(source));
  expect(files.filter((source) => !fs.existsSync(path.resolve(assetDir, source)))).toEqual([]);
  fs.rmSync(alone, { recursive: true });
});

test('every function is bundled locally as source-mapped ESM, holding only what it runs', () => {
  for (const route of [...deployed, contractRoutes]) {
    const sources = bundledSources(route.name);
    // The QR image code only in QR routes.
    if (sources.some((source) => source.includes('node_modules/qrcode/'))) {
      expect({ [route.name]: route.paths }).toEqual({ [route.name]: [expect.stringMatching(/^\/v1\/qrcodes/)] });
    }
  }
});

test("every worker's bundle holds only what it runs, loads as Lambda loads it, and handles an empty batch", async () => {
  // The variables the stack sets on the workers (a queue's URL is only read when a message is sent, the
  // sealing key's only when a secret is opened).
  const environment = {
    [ENV.tableName]: 'breb-bundles',
    [QUEUE_ENV.webhookDeliveries]: 'https://sqs.invalid/q',
    [ENV.secretKeyArn]: 'arn:aws:kms:us-east-1:111122223333:key/00000000-0000-0000-0000-000000000000',
  };
  const saved = Object.fromEntries(Object.keys(environment).map((name) => [name, process.env[name]]));
  Object.assign(process.env, environment);
  try {
    for (const worker of workers.filter((w) => !('schedule' in w.source))) {
      const sources = bundledSources(worker.name);
      expect({ [worker.name]: sources.some((source) => source.includes('node_modules/qrcode/')) }).toEqual({
        [worker.name]: false,
      });
      const module = (await import(pathToFileURL(path.join(assetDirOf(worker.name), 'index.mjs')).href)) as {
        handler: (event: unknown, context: unknown) => Promise<unknown>;
      };
      expect(typeof module.handler).toBe('function');
      // In an invocation of its own, as Lambda (and the local runtime: invoke-store.ts) runs every one.
      const context = lambdaContext(worker.name);
      await expect(asInvocation(context.awsRequestId, () => module.handler({ Records: [] }, context))).resolves.toEqual(
        {
          batchItemFailures: [],
        },
      );
    }
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
});

test("the sweeper's bundle holds only what it runs, loads as Lambda loads it, and sweeps an empty table", async () => {
  // A table of its own in the test run's DynamoDB Local: the sweeper queries its index of due work.
  // (Created here, not with createTestTable: this process's own modules must not read its name.)
  const endpoint = testDynamoDbEndpoint();
  const tableName = uniqueTableName('bundles-sweeper');
  const client = createDynamoDbClient(endpoint);
  await ensureTable(client, tableName);
  const environment = {
    [ENV.tableName]: tableName,
    [ENV.dynamodbEndpoint]: endpoint,
    [QUEUE_ENV.settlement]: 'https://sqs.invalid/s',
    [QUEUE_ENV.webhookDeliveries]: 'https://sqs.invalid/q',
    [QUEUE_ENV.reports]: 'https://sqs.invalid/r',
    [QUEUE_ENV.reconciliations]: 'https://sqs.invalid/c',
  };
  const saved = Object.fromEntries(Object.keys(environment).map((name) => [name, process.env[name]]));
  Object.assign(process.env, environment);
  try {
    for (const worker of workers.filter((w) => 'schedule' in w.source)) {
      expect(bundledSources(worker.name).some((source) => source.includes('node_modules/qrcode/'))).toBe(false);
      const module = (await import(pathToFileURL(path.join(assetDirOf(worker.name), 'index.mjs')).href)) as {
        handler: (event: unknown, context: unknown) => Promise<unknown>;
      };
      const scheduled = { 'detail-type': 'Scheduled Event', source: 'aws.events', time: new Date().toISOString() };
      await expect(module.handler(scheduled, lambdaContext(worker.name))).resolves.toBeUndefined();
    }
  } finally {
    for (const [name, value] of Object.entries(saved)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await client.send(new DeleteTableCommand({ TableName: tableName }));
    client.destroy();
  }
});

test("the sign-in trigger's bundle loads as Lambda loads it and gives a person's token their tenant", async () => {
  const sources = bundledSources(personClaimsTrigger.name);
  expect(sources.some((source) => source.includes('node_modules/'))).toBe(false);
  const module = (await import(pathToFileURL(path.join(assetDirOf(personClaimsTrigger.name), 'index.mjs')).href)) as {
    handler: (event: unknown) => Promise<{ response: Record<string, any> }>;
  };
  const answer = await module.handler(signInEvent({ 'custom:tenant': 'platform-client-id', 'custom:access': 'read' }));
  expect(answer.response['claimsAndScopeOverrideDetails'].accessTokenGeneration).toMatchObject({
    claimsToAddOrOverride: { tenant: 'platform-client-id' },
    scopesToAdd: readScopes,
  });
});

test("the local server finds the bundle of every route, the network's and the description's function, and nothing else", () => {
  const bundles = lambdaBundles(outdir);
  expect(Object.fromEntries(bundles)).toEqual(
    Object.fromEntries(
      [...deployed, ...networkRoutes, contractRoutes].map((route) => [
        route.name,
        { file: path.join(assetDirOf(route.name), 'index.mjs'), exportName: 'handler' },
      ]),
    ),
  );
});

describe('served by the local server', () => {
  let api: TestApi;
  let party: Party;

  beforeAll(async () => {
    api = await startTestApi({ cloudAssembly: outdir });
    party = await createParty(api, 'sandbox-client-a');
  }, 120_000);

  afterAll(async () => {
    await api?.stop();
  });

  test("the description's bundle serves the document and Swagger UI's files, which the stack copied into it", async () => {
    const document = await api.request('GET', '/openapi.json');
    expect(document.status).toBe(200);
    expect(document.body['openapi']).toBe('3.1.0');
    for (const file of ['swagger-ui.css', 'swagger-ui-bundle.js']) {
      const answer = await api.request('GET', `/docs/${file}`);
      expect({ file, status: answer.status }).toEqual({ file, status: 200 });
      expect(answer.text).toBe(
        fs.readFileSync(path.join(assetDirOf(contractRoutes.name), 'node_modules', 'swagger-ui-dist', file), 'utf8'),
      );
    }
  });

  test.each(deployed.map((route) => [route.name, route] as const))(
    '%s answers its sample request from its bundle',
    async (_, route) => {
      const sample = sampleOf(route);
      const answer = await sendSample(api, route, await sample.valid({ api, party }), { token: party.token });
      // The problem the bundle answered, if any, says what broke.
      expect({ status: answer.status, problem: answer.status >= 400 ? answer.body : undefined }).toEqual({
        status: sample.status ?? 200,
        problem: undefined,
      });
    },
  );
});
