/**
 * `npm run bench:functions`: every function of the route table, as Lambda bundles and as the
 * baseline build (bench/functions/builds.ts), side by side in one run, against DynamoDB Local:
 *
 * - bundle size (minified, without its source map);
 * - cold start: fresh Node processes importing the handler and serving one request (median);
 * - warm latency p50 and p99 through the local API (infra/local), at concurrency 1 and 16;
 * - throughput per core: requests per second of CPU of the process serving them;
 * - DynamoDB calls, read and write capacity per request, counted on the wire
 *   (bench/functions/dynamodb-meter.ts), and the connections opened;
 * - the cost of the shared middleware chain alone (bench/functions/chain-overhead.ts);
 * - DynamoDB calls of every write with an Idempotency-Key on its POSTs (a fresh one per request);
 * - under load: each family of routes (bench/functions/load-run.ts) at concurrency 1, 16 and 64.
 *
 * Writes docs/benchmarks.json and docs/benchmarks.md (bench/functions/report.ts, with the notes of
 * bench/functions/notes.md).
 * Every route needs a sample request in bench/functions/samples.ts.
 *
 * Options (environment): BENCH_COLD_STARTS (20), BENCH_BASELINE_COLD_STARTS (10), BENCH_COLD_LANES
 * (2), BENCH_C1_REQUESTS (20), BENCH_C16_REQUESTS (80), BENCH_WARM_RUN_MS (1500), BENCH_LOAD_REQUESTS
 * (40,320,640: the requests of a family at concurrency 1, 16 and 64), BENCH_ROUTES (comma-separated
 * route names: only those, for trying things out).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { routesFor, type RouteDefinition } from '../functions/routes';
import { startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { REPO_ROOT } from '../infra/paths';
import { buildLambdaBundles, buildUnbundled, buildBaselineHandlers, type Artefact } from './functions/builds';
import { DynamoDbMeter, type MeterReading } from './functions/dynamodb-meter';
import { lambdaEnvironment } from './functions/lambda-environment';
import { percentile, runLoad, send, type LoadResult } from './functions/load';
import { requestsPerRoute, routeFamilies, runMix, type LoadLevel, type RouteFamily } from './functions/load-run';
import { makeFixtures, missingSamples, samples, type Fixtures, type Sample } from './functions/samples';
import { BENCHMARKS_JSON, writeBenchmarksMarkdown } from './functions/report';
import type { ParentMessage, ServerConfig, ServerMessage } from './functions/server';

const COLD_STARTS = Number(process.env['BENCH_COLD_STARTS'] ?? 20);
/**
 * The baseline's cold starts are three to four times longer: fewer of them keep the run within its
 * ten minutes (its median moves little: it loads the same packages for every route).
 */
const BASELINE_COLD_STARTS = Number(process.env['BENCH_BASELINE_COLD_STARTS'] ?? 10);
const C1_REQUESTS = Number(process.env['BENCH_C1_REQUESTS'] ?? 20);
const C16_REQUESTS = Number(process.env['BENCH_C16_REQUESTS'] ?? 80);
/** A warm run stops after this long even if it sent fewer requests (DynamoDB Local's slow writes). */
const WARM_RUN_MS = Number(process.env['BENCH_WARM_RUN_MS'] ?? 1500);
/**
 * Cold starts run this many at a time, each in its own process: two keep the run within its ten
 * minutes on two cores (both builds alike, so the ratios hold; the absolute times are a little higher).
 */
const COLD_LANES = Number(process.env['BENCH_COLD_LANES'] ?? 2);
const CONCURRENCY = 16;
const ONLY = process.env['BENCH_ROUTES']?.split(',').map((name) => name.trim());
/** The load run's levels: concurrency, and the requests a family sends at it (per build). */
const LOAD_CONCURRENCY = [1, 16, 64] as const;
const LOAD_REQUESTS = (process.env['BENCH_LOAD_REQUESTS'] ?? '40,320,640').split(',').map(Number);
if (LOAD_CONCURRENCY.some((concurrency, level) => !((LOAD_REQUESTS[level] ?? 0) >= concurrency))) {
  throw new Error(
    `BENCH_LOAD_REQUESTS: a level sends at least as many requests as its ${LOAD_CONCURRENCY.join(', ')} connections`,
  );
}
/** Requests of each write sent one at a time with a fresh Idempotency-Key (on POSTs), to count its calls. */
const KEYED_WRITES = 3;

export const BUILDS = ['baseline', 'optimized'] as const;
export type Build = (typeof BUILDS)[number];

const FUNCTIONS_DIR = path.join(REPO_ROOT, 'bench', 'functions');
const TABLE_NAME = 'bench-functions';
/** The issuer of the tokens: both servers share it and the signing key, so one token serves both. */
const ISSUER = 'http://bench.local';

export interface Latency {
  readonly requests: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly requestsPerSecond: number;
}

export interface ColdStart {
  readonly samples: number;
  /** Import of the handler module plus the first request: what Lambda bills as init and first call. */
  readonly medianMs: number;
  readonly p90Ms: number;
  readonly initMedianMs: number;
  readonly firstRequestMedianMs: number;
  /** Node's own start-up before the handler module: the same for both builds, not counted above. */
  readonly nodeStartMedianMs: number;
  readonly rssMedianMb: number;
}

export interface DynamoDbUse {
  readonly callsPerRequest: number;
  readonly callsByOperation: Record<string, number>;
  readonly rcuPerRequest: number;
  readonly wcuPerRequest: number;
  /** Warm requests counted. */
  readonly requests: number;
  /** TCP connections the function opened to DynamoDB over them (at most one per concurrent request when reused). */
  readonly connections: number;
}

export interface FunctionMeasurement {
  /** Bytes of the artefact's own module: the bundle (minified, no source map), or our unbundled code. */
  readonly bytes: number;
  readonly coldStart: ColdStart;
  readonly c1: Latency;
  readonly c16: Latency;
  readonly requestsPerCpuSecond: number;
  readonly dynamodb: DynamoDbUse;
  readonly coldDynamodbCallsPerRequest: number;
  readonly xrayDocumentsPerRequest: number;
  /** A write's calls with an Idempotency-Key on every POST (undefined for GETs). */
  readonly keyedWrite?: DynamoDbUse;
}

export interface FunctionResult {
  readonly name: string;
  readonly method: string;
  readonly path: string;
  readonly sample: string;
  readonly builds: Record<Build, FunctionMeasurement>;
}

export interface ChainOverhead {
  readonly getP50Us: number;
  readonly getP99Us: number;
  readonly postP50Us: number;
  readonly postP99Us: number;
}

/** A family's levels under load, each measured on both builds. */
export interface FamilyLoad {
  readonly family: string;
  readonly routes: readonly string[];
  readonly levels: readonly Record<Build, LoadLevel>[];
}

export interface FunctionsReport {
  readonly generatedAt: string;
  readonly machine: string;
  readonly settings: {
    coldStarts: number;
    baselineColdStarts: number;
    coldLanes: number;
    c1Requests: number;
    c16Requests: number;
    warmRunMs: number;
    concurrency: number;
    keyedWrites: number;
    loadConcurrency: readonly number[];
    loadRequests: readonly number[];
  };
  readonly durationSeconds: number;
  readonly functions: FunctionResult[];
  readonly chainOverhead: Record<Build, ChainOverhead>;
  /** One route served alone by each build, in a process of its own: p50 of successive batches. */
  readonly dedicatedWarm?: { route: string; batch: number; p50Ms: Record<Build, number[]> };
  readonly load: readonly FamilyLoad[];
  /** The load average of the machine (1, 5 and 15 minutes) when the run began and when it ended. */
  readonly loadAverage: { readonly start: readonly number[]; readonly end: readonly number[] };
}

const median = (values: readonly number[]) => percentile(values, 0.5);
const round = (value: number, digits = 2) => Number(value.toFixed(digits));

/** A child process of this benchmark, spoken to over IPC. */
class ServerProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly environment: Record<string, string>,
  ) {}

  static async start(build: Build, config: ServerConfig, environment: Record<string, string>) {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(FUNCTIONS_DIR, 'server.ts')], {
      cwd: REPO_ROOT,
      // Only what a function's process has (this process's own settings stay here).
      env: { PATH: process.env['PATH'] ?? '', ...environment, BENCH_SERVER_CONFIG: JSON.stringify(config) },
      // The functions' log lines and EMF metrics go where Lambda would send them: nowhere we read.
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const ready = await new Promise<ServerMessage>((resolve, reject) => {
      child.once('message', (message: ServerMessage) => resolve(message));
      child.once('exit', (code) => reject(new Error(`the ${build} server exited (${code}) before it was ready`)));
    });
    if (ready.type !== 'ready') throw new Error(`the ${build} server said ${ready.type} first`);
    return new ServerProcess(child, ready.url, ready.environment);
  }

  ask<T extends ServerMessage['type']>(message: ParentMessage & { type: T }): Promise<ServerMessage & { type: T }> {
    return new Promise((resolve) => {
      this.child.once('message', (answer: ServerMessage) => resolve(answer as ServerMessage & { type: T }));
      this.child.send(message);
    });
  }

  async cpuMicros(): Promise<number> {
    return (await this.ask({ type: 'cpu' })).micros;
  }

  async xrayDocuments(): Promise<number> {
    return (await this.ask({ type: 'xray' })).documents;
  }

  /** Holds the runtime's later work for good: from here on only requests call DynamoDB. */
  async holdWorkers(): Promise<void> {
    await this.ask({ type: 'hold' });
  }

  stop(): Promise<void> {
    return new Promise((stopped) => {
      this.child.once('exit', () => stopped());
      this.child.disconnect();
    });
  }
}

/** Runs a plain Node script in a function's environment; answers what it wrote to descriptor 3. */
function runFunctionProcess(args: readonly string[], environment: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env['PATH'] ?? '', ...environment },
      stdio: ['ignore', 'ignore', 'pipe', 'pipe'],
    });
    const output: Buffer[] = [];
    const errors: Buffer[] = [];
    child.stdio[3]!.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk));
    child.once('error', reject);
    child.once('exit', (code) => {
      if (code === 0 && output.length > 0) resolve(Buffer.concat(output).toString('utf8'));
      else reject(new Error(`${args.join(' ')} exited with ${code}: ${Buffer.concat(errors).toString('utf8')}`));
    });
  });
}

function expectStatus(route: RouteDefinition, sample: Sample) {
  return (answer: { status: number; body: string }, call: { method: string; path: string }) => {
    if (answer.status !== sample.status) {
      throw new Error(
        `${route.name}: ${call.method} ${call.path} answered ${answer.status}, not ${sample.status}: ${answer.body}`,
      );
    }
  };
}

function latencyOf(result: LoadResult): Latency {
  return {
    requests: result.latenciesMs.length,
    p50Ms: round(percentile(result.latenciesMs, 0.5)),
    p99Ms: round(percentile(result.latenciesMs, 0.99)),
    requestsPerSecond: round(result.latenciesMs.length / (result.elapsedMs / 1000), 1),
  };
}

function dynamodbUse(readings: readonly MeterReading[], requests: number): DynamoDbUse {
  const callsByOperation: Record<string, number> = {};
  for (const reading of readings) {
    for (const [operation, calls] of Object.entries(reading.calls)) {
      callsByOperation[operation] = (callsByOperation[operation] ?? 0) + calls;
    }
  }
  const total = Object.values(callsByOperation).reduce((sum, calls) => sum + calls, 0);
  return {
    callsPerRequest: round(total / requests),
    callsByOperation: Object.fromEntries(
      Object.entries(callsByOperation).map(([operation, calls]) => [operation, round(calls / requests)]),
    ),
    rcuPerRequest: round(readings.reduce((sum, r) => sum + r.readCapacity, 0) / requests),
    wcuPerRequest: round(readings.reduce((sum, r) => sum + r.writeCapacity, 0) / requests),
    requests,
    connections: readings.reduce((sum, r) => sum + r.connections, 0),
  };
}

interface Bench {
  readonly fixtures: Fixtures;
  readonly meter: DynamoDbMeter;
  readonly servers: Record<Build, ServerProcess>;
  readonly artefacts: Record<Build, Map<string, Artefact>>;
  readonly eventsDir: string;
  readonly xrayDaemon: string;
  /** The next request index of each route (unique across builds, warm and cold). */
  readonly nextIndex: Map<string, number>;
  /** Builds whose first cold start (the uncounted one) already ran. */
  readonly warmedUp: Set<Build>;
}

function indices(bench: Bench, route: string, count: number): number {
  const first = bench.nextIndex.get(route) ?? 0;
  bench.nextIndex.set(route, first + count);
  return first;
}

async function warmRun(bench: Bench, build: Build, route: RouteDefinition, sample: Sample, concurrency: number) {
  const server = bench.servers[build];
  const requests = concurrency === 1 ? C1_REQUESTS : C16_REQUESTS;
  const first = indices(bench, route.name, requests);
  bench.meter.reset();
  const cpuBefore = await server.cpuMicros();
  const result = await runLoad(server.url, {
    requests,
    concurrency,
    durationMs: WARM_RUN_MS,
    next: (n, worker) => sample.call(bench.fixtures, first + n, worker),
    check: expectStatus(route, sample),
  });
  const cpuSeconds = ((await server.cpuMicros()) - cpuBefore) / 1e6;
  return { result, requests: result.latenciesMs.length, reading: bench.meter.reset(), cpuSeconds };
}

/**
 * Cold starts of one build of a route: COLD_STARTS processes, after an uncounted one that warms the
 * file system's caches (Node's, and the baseline's node_modules) for the first route of each build.
 */
async function coldStarts(bench: Bench, build: Build, route: RouteDefinition, sample: Sample) {
  const server = bench.servers[build];
  const warmUps = bench.warmedUp.has(build) ? 0 : 1;
  bench.warmedUp.add(build);
  const count = (build === 'baseline' ? BASELINE_COLD_STARTS : COLD_STARTS) + warmUps;
  const first = indices(bench, route.name, count);
  // The local API turns the sample requests into API Gateway events, without running the handler.
  await server.ask({ type: 'capture', on: true });
  for (let n = 0; n < count; n += 1) await send(server.url, sample.call(bench.fixtures, first + n, -1));
  await server.ask({ type: 'capture', on: false });
  const { events } = await server.ask({ type: 'events' });
  if (events.length !== count) throw new Error(`${route.name}: captured ${events.length} events, not ${count}`);

  const artefact = bench.artefacts[build].get(route.name)!;
  const environment = lambdaEnvironment(route.name, {
    tableName: TABLE_NAME,
    dynamodbEndpoint: bench.meter.endpoint,
    xrayDaemon: bench.xrayDaemon,
    extra: server.environment,
  });
  type Timing = { processStartMs: number; initMs: number; firstRequestMs: number; rssMb: number };
  const startCold = async (n: number): Promise<Timing> => {
    const eventFile = path.join(bench.eventsDir, `${route.name}-${build}-${n}.json`);
    writeFileSync(eventFile, JSON.stringify(events[n]!.event));
    const output = JSON.parse(
      await runFunctionProcess([path.join(FUNCTIONS_DIR, 'cold-start.mjs'), artefact.file, eventFile], environment),
    );
    if (output.status !== sample.status) {
      throw new Error(
        `${route.name} (${build}, cold): answered ${output.status}, not ${sample.status}: ${output.body}`,
      );
    }
    return output;
  };
  bench.meter.reset();
  for (let n = 0; n < warmUps; n += 1) await startCold(n);
  const timings: Timing[] = [];
  let next = warmUps;
  await Promise.all(
    Array.from({ length: COLD_LANES }, async () => {
      while (next < count) timings.push(await startCold(next++));
    }),
  );
  const reading = bench.meter.reset();
  const totals = timings.map((t) => t.initMs + t.firstRequestMs);
  const coldStart: ColdStart = {
    samples: timings.length,
    medianMs: round(median(totals), 1),
    p90Ms: round(percentile(totals, 0.9), 1),
    initMedianMs: round(median(timings.map((t) => t.initMs)), 1),
    firstRequestMedianMs: round(median(timings.map((t) => t.firstRequestMs)), 1),
    nodeStartMedianMs: round(median(timings.map((t) => t.processStartMs)), 1),
    rssMedianMb: round(median(timings.map((t) => t.rssMb)), 1),
  };
  const calls = Object.values(reading.calls).reduce((sum, c) => sum + c, 0);
  return { coldStart, callsPerRequest: round(calls / count) };
}

/**
 * A write's DynamoDB calls as a client that sends an Idempotency-Key on every POST makes them: its
 * sample, one request at a time, each with a key of its own.
 */
async function keyedWriteCalls(bench: Bench, build: Build, route: RouteDefinition): Promise<DynamoDbUse> {
  const sample = samples[route.name]!;
  const first = indices(bench, route.name, KEYED_WRITES);
  bench.meter.reset();
  for (let n = first; n < first + KEYED_WRITES; n += 1) {
    const call = sample.call(bench.fixtures, n, 0);
    const keyed =
      route.method === 'POST'
        ? { ...call, headers: { ...call.headers, 'idempotency-key': `bench-${build}-${route.name}-${n}` } }
        : call;
    expectStatus(route, sample)(await send(bench.servers[build].url, keyed), keyed);
  }
  return dynamodbUse([bench.meter.reset()], KEYED_WRITES);
}

async function measure(bench: Bench, build: Build, route: RouteDefinition): Promise<FunctionMeasurement> {
  const sample = samples[route.name]!;
  const server = bench.servers[build];
  const xrayBefore = await server.xrayDocuments();
  const c1 = await warmRun(bench, build, route, sample, 1);
  const c16 = await warmRun(bench, build, route, sample, CONCURRENCY);
  const warmRequests = c1.requests + c16.requests;
  const xrayDocuments = (await server.xrayDocuments()) - xrayBefore;
  const cold = await coldStarts(bench, build, route, sample);
  const keyedWrite = route.method === 'GET' ? undefined : await keyedWriteCalls(bench, build, route);
  return {
    bytes: bench.artefacts[build].get(route.name)!.bytes,
    coldStart: cold.coldStart,
    c1: latencyOf(c1.result),
    c16: latencyOf(c16.result),
    requestsPerCpuSecond: round(c16.requests / c16.cpuSeconds, 0),
    dynamodb: dynamodbUse([c1.reading, c16.reading], warmRequests),
    coldDynamodbCallsPerRequest: cold.callsPerRequest,
    xrayDocumentsPerRequest: round(xrayDocuments / warmRequests),
    ...(keyedWrite ? { keyedWrite } : {}),
  };
}

/** Every family under load, level after level, both builds at each level (alternating which goes first). */
async function loadFamilies(bench: Bench, families: readonly RouteFamily[], elapsed: () => string) {
  const results: FamilyLoad[] = [];
  for (const family of families) {
    const levels: Record<Build, LoadLevel>[] = [];
    for (const [level, concurrency] of LOAD_CONCURRENCY.entries()) {
      const order = level % 2 === 0 ? BUILDS : ([...BUILDS].reverse() as Build[]);
      const measured: Partial<Record<Build, LoadLevel>> = {};
      for (const build of order) {
        measured[build] = await runMix(bench.servers[build], bench.meter, {
          family,
          concurrency,
          amount: LOAD_REQUESTS[level]!,
          next: (route, worker) => samples[route.name]!.call(bench.fixtures, indices(bench, route.name, 1), worker),
          status: (route) => samples[route.name]!.status,
        });
      }
      levels.push(measured as Record<Build, LoadLevel>);
      const { optimized: o, baseline: b } = measured as Record<Build, LoadLevel>;
      console.log(
        `${elapsed()} load ${family.name} c${concurrency}: p50 ${o.p50Ms} ms (${b.p50Ms}), ` +
          `${o.requestsPerCpuSecond} requests per CPU-second (${b.requestsPerCpuSecond})`,
      );
    }
    results.push({ family: family.name, routes: family.routes.map((route) => route.name), levels });
  }
  return results;
}

/** The load averages of the machine (1, 5, 15 minutes), rounded. */
const loadAverage = (): number[] => os.loadavg().map((value) => round(value, 2));

/** The route measured alone, warm, in a process per build: a read, whose latency is mostly ours. */
const DEDICATED_ROUTE = 'getCustomer';
const DEDICATED_BATCH = 100;
const DEDICATED_BATCHES = 5;

/**
 * One route served by a process of its own (as in Lambda, where no other route warms the SDK's code):
 * the p50 of successive batches of requests at concurrency 1, from its first request on.
 */
async function warmAlone(
  bench: Bench,
  build: Build,
  route: RouteDefinition,
  environment: Record<string, string>,
  dataDir: string,
): Promise<number[]> {
  const sample = samples[route.name]!;
  const server = await ServerProcess.start(
    build,
    {
      handlers: { [route.name]: bench.artefacts[build].get(route.name)!.file },
      dynamodbEndpoint: bench.meter.endpoint,
      tableName: TABLE_NAME,
      dataDir,
      issuer: ISSUER,
    },
    lambdaEnvironment(`${route.name}-alone`, {
      tableName: TABLE_NAME,
      dynamodbEndpoint: bench.meter.endpoint,
      xrayDaemon: bench.xrayDaemon,
      extra: environment,
    }),
  );
  try {
    await server.holdWorkers();
    const p50s: number[] = [];
    for (let batch = 0; batch < DEDICATED_BATCHES; batch += 1) {
      const first = indices(bench, route.name, DEDICATED_BATCH);
      const { latenciesMs } = await runLoad(server.url, {
        requests: DEDICATED_BATCH,
        concurrency: 1,
        next: (n, worker) => sample.call(bench.fixtures, first + n, worker),
        check: expectStatus(route, sample),
      });
      p50s.push(round(median(latenciesMs)));
    }
    return p50s;
  } finally {
    await server.stop();
  }
}

async function chainOverhead(artefact: Artefact, xrayDaemon: string): Promise<ChainOverhead> {
  const environment = lambdaEnvironment('chainOverhead', {
    tableName: TABLE_NAME,
    dynamodbEndpoint: 'http://127.0.0.1:9',
    xrayDaemon,
  });
  const { get, post } = JSON.parse(await runFunctionProcess([artefact.file], environment)) as Record<
    'get' | 'post',
    number[]
  >;
  return {
    getP50Us: round(median(get), 1),
    getP99Us: round(percentile(get, 0.99), 1),
    postP50Us: round(median(post), 1),
    postP99Us: round(percentile(post, 0.99), 1),
  };
}

async function main(): Promise<void> {
  const started = performance.now();
  const loadAtStart = loadAverage();
  const routes = routesFor(true).filter((route) => !ONLY || ONLY.includes(route.name));
  const missing = missingSamples(routes);
  if (missing.length > 0) {
    throw new Error(`No sample request for ${missing.join(', ')}: add one to bench/functions/samples.ts`);
  }

  console.log(`Building ${routes.length} functions: Lambda bundles (cdk synth) and the baseline...`);
  const overheadEntry = path.join(FUNCTIONS_DIR, 'chain-overhead.ts');
  const bundles = await buildLambdaBundles(routes);
  const baseline = await buildBaselineHandlers(routes);
  const overheadBuilds: Record<Build, Artefact> = {
    baseline: (await buildUnbundled([overheadEntry], { name: 'baseline-chain', baseline: true })).get(overheadEntry)!,
    optimized: (await buildUnbundled([overheadEntry], { name: 'current-chain', baseline: false })).get(overheadEntry)!,
  };

  const daemon = createSocket('udp4');
  await new Promise<void>((bound) => daemon.bind(0, '127.0.0.1', bound));
  daemon.unref();
  const xrayDaemon = `127.0.0.1:${(daemon.address() as AddressInfo).port}`;

  const elapsed = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  console.log(`Built in ${elapsed()}. Middleware chain alone...`);
  const overhead: Record<Build, ChainOverhead> = {
    baseline: await chainOverhead(overheadBuilds.baseline, xrayDaemon),
    optimized: await chainOverhead(overheadBuilds.optimized, xrayDaemon),
  };

  const dynamoDbLocal = await startDynamoDbLocal();
  const meter = await DynamoDbMeter.start(dynamoDbLocal.endpoint);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'breb-bench-'));
  const servers: Partial<Record<Build, ServerProcess>> = {};
  try {
    const artefacts: Record<Build, Map<string, Artefact>> = { baseline, optimized: bundles };
    for (const build of BUILDS) {
      const config: ServerConfig = {
        handlers: Object.fromEntries([...artefacts[build]].map(([name, artefact]) => [name, artefact.file])),
        dynamodbEndpoint: meter.endpoint,
        tableName: TABLE_NAME,
        dataDir,
        issuer: ISSUER,
      };
      const environment = lambdaEnvironment(`bench-${build}`, {
        tableName: TABLE_NAME,
        dynamodbEndpoint: meter.endpoint,
        xrayDaemon,
      });
      servers[build] = await ServerProcess.start(build, config, environment);
    }
    const bench: Bench = {
      fixtures: await makeFixtures(servers.optimized!.url),
      meter,
      servers: servers as Record<Build, ServerProcess>,
      artefacts,
      eventsDir: path.join(dataDir, 'events'),
      xrayDaemon,
      nextIndex: new Map(),
      warmedUp: new Set(),
    };
    mkdirSync(bench.eventsDir);

    console.log(`${elapsed()}: preparing the data the samples consume...`);
    const coldStartsPlanned = COLD_STARTS + BASELINE_COLD_STARTS + BUILDS.length;
    const families = routeFamilies(routes);
    const loadRequests = new Map<string, number>();
    for (const family of families) {
      for (const route of family.routes) {
        const perBuild = LOAD_CONCURRENCY.reduce(
          (sum, concurrency, level) => sum + requestsPerRoute(family, LOAD_REQUESTS[level]!, concurrency),
          0,
        );
        loadRequests.set(route.name, perBuild * BUILDS.length);
      }
    }
    for (const route of routes) {
      const sample = samples[route.name]!;
      if (!sample.prepare) continue;
      const plan = {
        requests:
          (C1_REQUESTS + C16_REQUESTS + KEYED_WRITES) * BUILDS.length +
          coldStartsPlanned +
          (loadRequests.get(route.name) ?? 0),
        workers: Math.max(CONCURRENCY, ...LOAD_CONCURRENCY),
        coldStarts: coldStartsPlanned,
      };
      bench.fixtures.pools.set(route.name, await sample.prepare(bench.fixtures, plan));
    }
    // The data is made (the failed deliveries by the sender, among others): from here on the meter
    // counts the routes' calls alone, not the stream reader's, the dispatcher's or the queues'.
    for (const build of BUILDS) await bench.servers[build].holdWorkers();

    const functions: FunctionResult[] = [];
    for (const [position, route] of routes.entries()) {
      // Alternating which build goes first spreads any drift of the machine over both.
      const order = position % 2 === 0 ? BUILDS : ([...BUILDS].reverse() as Build[]);
      const measured: Partial<Record<Build, FunctionMeasurement>> = {};
      for (const build of order) measured[build] = await measure(bench, build, route);
      const call = samples[route.name]!.call(bench.fixtures, 0, 0);
      functions.push({
        name: route.name,
        method: route.method,
        path: route.paths[0]!,
        sample: `${call.method} ${call.path.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '{id}')}`,
        builds: measured as Record<Build, FunctionMeasurement>,
      });
      const { baseline: b, optimized: o } = measured as Record<Build, FunctionMeasurement>;
      console.log(
        `${elapsed()} ${route.name}: ${(o.bytes / 1024).toFixed(0)} KB, cold ${o.coldStart.medianMs} ms (baseline ${b.coldStart.medianMs}), ` +
          `c1 p50 ${o.c1.p50Ms} ms (${b.c1.p50Ms}), ${o.dynamodb.callsPerRequest} DynamoDB calls`,
      );
    }

    const dedicated = routes.find((route) => route.name === DEDICATED_ROUTE);
    const dedicatedWarm = dedicated && {
      route: dedicated.name,
      batch: DEDICATED_BATCH,
      p50Ms: {
        baseline: await warmAlone(bench, 'baseline', dedicated, servers.baseline!.environment, dataDir),
        optimized: await warmAlone(bench, 'optimized', dedicated, servers.optimized!.environment, dataDir),
      },
    };
    console.log(`${elapsed()}: ${DEDICATED_ROUTE} alone in a process per build: done`);
    const load = await loadFamilies(bench, families, elapsed);

    const report: FunctionsReport = {
      generatedAt: new Date().toISOString(),
      machine: `${os.cpus()[0]?.model ?? 'unknown CPU'} x${os.cpus().length}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, ${os.platform()} ${os.release()}, Node ${process.version}`,
      settings: {
        coldStarts: COLD_STARTS,
        baselineColdStarts: BASELINE_COLD_STARTS,
        coldLanes: COLD_LANES,
        c1Requests: C1_REQUESTS,
        c16Requests: C16_REQUESTS,
        warmRunMs: WARM_RUN_MS,
        concurrency: CONCURRENCY,
        keyedWrites: KEYED_WRITES,
        loadConcurrency: LOAD_CONCURRENCY,
        loadRequests: LOAD_REQUESTS,
      },
      durationSeconds: round((performance.now() - started) / 1000, 0),
      functions,
      chainOverhead: overhead,
      ...(dedicatedWarm ? { dedicatedWarm } : {}),
      load,
      loadAverage: { start: loadAtStart, end: loadAverage() },
    };
    writeFileSync(BENCHMARKS_JSON, `${JSON.stringify(report, null, 2)}\n`);
    writeBenchmarksMarkdown(report, routes);
    console.log(`Wrote docs/benchmarks.md and docs/benchmarks.json in ${report.durationSeconds} s`);
  } finally {
    for (const server of Object.values(servers)) await server.stop();
    await meter.stop();
    await dynamoDbLocal.stop();
    rmSync(dataDir, { recursive: true, force: true });
    daemon.close();
  }
}

await main();
