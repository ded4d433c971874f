/**
 * docs/benchmarks.md from the function benchmark's results (docs/benchmarks.json): the tables, the
 * targets with what was measured against each, and links to the pagination and QR benchmarks that
 * `npm run bench` runs first.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { RouteDefinition } from '../../functions/routes';
import { REPO_ROOT } from '../../infra/paths';
import type {
  Build,
  DynamoDbUse,
  FamilyLoad,
  FunctionMeasurement,
  FunctionResult,
  FunctionsReport,
} from '../functions';
import { OUT_OF_THE_MIX } from './load-run';

export const BENCHMARKS_JSON = path.join(REPO_ROOT, 'docs', 'benchmarks.json');
const BENCHMARKS_MARKDOWN = path.join(REPO_ROOT, 'docs', 'benchmarks.md');
/** The notes written from the figures, which end the report. */
const NOTES = path.join(REPO_ROOT, 'bench', 'functions', 'notes.md');

const KB = 1024;
const NON_QR_BUNDLE_LIMIT = 250 * KB;
const QR_BUNDLE_LIMIT = 600 * KB;
const COLD_START_RATIO_LIMIT = 0.4;
const CHAIN_OVERHEAD_LIMIT_US = 1000;

/** The QR routes have a budget of their own: only they may carry the QR image code. */
export const isQrRoute = (route: Pick<RouteDefinition, 'paths'>): boolean =>
  route.paths.some((path) => path.startsWith('/v1/qrcodes'));

type Kind = 'get' | 'list' | 'write';
/** A GET answering a page of items (its response schema is a list's) is a list; another GET, a get. */
const kindOf = (f: Pick<FunctionResult, 'name' | 'method'>, routes: readonly RouteDefinition[]): Kind => {
  if (f.method !== 'GET') return 'write';
  const response = routes.find((route) => route.name === f.name)?.schemas.response ?? '';
  return response.endsWith('ListSchema') ? 'list' : 'get';
};

const kb = (bytes: number) => (bytes / KB).toFixed(1);
const ms = (value: number) => value.toFixed(1);
const ratio = (value: number) => `${value.toFixed(2)}x`;
type Verdict = boolean | 'partly';
const yes = (holds: Verdict) => (holds === 'partly' ? '**partly**' : holds ? 'yes' : '**no**');

function callsOf(use: DynamoDbUse): string {
  const byOperation = Object.entries(use.callsByOperation)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([operation, n]) => `${operation} ${n}`)
    .join(', ');
  return `${use.callsPerRequest} (${byOperation || 'none'})`;
}

const calls = (m: FunctionMeasurement): string => callsOf(m.dynamodb);

const WRITE_OPERATIONS = ['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems'];
/** Calls that write, per request: the round trips a write waits on besides its reads. */
const writeCalls = (use: DynamoDbUse): number =>
  WRITE_OPERATIONS.reduce((sum, operation) => sum + (use.callsByOperation[operation] ?? 0), 0);

type Cells = readonly (string | number)[];

/** A Markdown table: its header and alignment rows as written, then a row of cells per item. */
function table(header: string, alignment: string, rows: readonly Cells[]): string {
  return [header, alignment, ...rows.map((cells) => `| ${cells.join(' | ')} |`)].join('\n');
}

/** A table with a row per function: its name, then what `cells` makes of its two builds. */
interface FunctionTable {
  readonly header: string;
  readonly alignment: string;
  readonly cells: (optimized: FunctionMeasurement, baseline: FunctionMeasurement, result: FunctionResult) => Cells;
}

const functionTable = (functions: readonly FunctionResult[], { header, alignment, cells }: FunctionTable): string =>
  table(
    header,
    alignment,
    functions.map((result) => [result.name, ...cells(result.builds.optimized, result.builds.baseline, result)]),
  );

const SIZE_AND_COLD_START: FunctionTable = {
  header:
    '| Function | Bundle KB | Cold start median ms | p90 ms | init + first request ms | Baseline median ms | Baseline init + first request ms | Cold start vs baseline | RSS MB (baseline) |',
  alignment: '|---|--:|--:|--:|--:|--:|--:|--:|--:|',
  cells: (o, b) => [
    kb(o.bytes),
    ms(o.coldStart.medianMs),
    ms(o.coldStart.p90Ms),
    `${ms(o.coldStart.initMedianMs)} + ${ms(o.coldStart.firstRequestMedianMs)}`,
    ms(b.coldStart.medianMs),
    `${ms(b.coldStart.initMedianMs)} + ${ms(b.coldStart.firstRequestMedianMs)}`,
    ratio(o.coldStart.medianMs / b.coldStart.medianMs),
    `${o.coldStart.rssMedianMb.toFixed(0)} / ${b.coldStart.rssMedianMb.toFixed(0)}`,
  ],
};

const WARM: FunctionTable = {
  header:
    '| Function | c1 p50 / p99 ms | c16 p50 / p99 ms | Requests per CPU-second | Baseline c1 p50 / p99 ms | Baseline c16 p50 / p99 ms | Baseline requests per CPU-second |',
  alignment: '|---|--:|--:|--:|--:|--:|--:|',
  cells: (o, b) => [
    `${ms(o.c1.p50Ms)} / ${ms(o.c1.p99Ms)}`,
    `${ms(o.c16.p50Ms)} / ${ms(o.c16.p99Ms)}`,
    o.requestsPerCpuSecond.toFixed(0),
    `${ms(b.c1.p50Ms)} / ${ms(b.c1.p99Ms)}`,
    `${ms(b.c16.p50Ms)} / ${ms(b.c16.p99Ms)}`,
    b.requestsPerCpuSecond.toFixed(0),
  ],
};

const DYNAMODB: FunctionTable = {
  header:
    '| Function | Sample request | DynamoDB calls per request (by operation) | RCU | WCU | Baseline calls | Connections opened / warm requests (baseline) | X-Ray documents per request (baseline) |',
  alignment: '|---|---|---|--:|--:|---|--:|--:|',
  cells: (o, b, { sample }) => [
    `\`${sample}\``,
    calls(o),
    o.dynamodb.rcuPerRequest,
    o.dynamodb.wcuPerRequest,
    o.dynamodb.callsPerRequest === b.dynamodb.callsPerRequest ? 'same' : calls(b),
    `${o.dynamodb.connections} / ${o.dynamodb.requests} (${b.dynamodb.connections} / ${b.dynamodb.requests})`,
    `${o.xrayDocumentsPerRequest} / ${b.xrayDocumentsPerRequest}`,
  ],
};

/** Every write, with an Idempotency-Key on its POSTs: the baseline (a claim around every POST) and the bundle. */
function keyedWrites(functions: readonly FunctionResult[]): string {
  const rows = functions.flatMap((f) => {
    const before = f.builds.baseline.keyedWrite;
    const after = f.builds.optimized.keyedWrite;
    if (!before || !after) return [];
    return [
      [
        f.name,
        `\`${f.sample}\``,
        callsOf(before),
        callsOf(after),
        `${writeCalls(before)} → ${writeCalls(after)}`,
        `${before.wcuPerRequest} → ${after.wcuPerRequest}`,
      ],
    ];
  });
  return table(
    '| Function | Request | Before: calls (by operation) | After: calls (by operation) | Write round trips | WCU |',
    '|---|---|---|---|--:|--:|',
    rows,
  );
}

const loadCell = (level: FamilyLoad['levels'][number][Build]) => [
  `${ms(level.p50Ms)} / ${ms(level.p99Ms)}`,
  level.requestsPerCpuSecond.toFixed(0),
  level.dynamodbCallsPerRequest,
];

function underLoad(load: readonly FamilyLoad[]): string {
  const rows = load.flatMap((family) =>
    family.levels.map((level) => {
      const { optimized: o, baseline: b } = level;
      const failed = Object.entries({ ...o.failures, ...b.failures });
      return [
        `${family.family} (${family.routes.length})`,
        o.concurrency,
        ...loadCell(o),
        ...loadCell(b),
        ratio(o.p50Ms / b.p50Ms),
        ratio(o.requestsPerCpuSecond / b.requestsPerCpuSecond),
        failed.length === 0 ? '-' : failed.map(([what, n]) => `${what}: ${n}`).join(', '),
      ];
    }),
  );
  return table(
    '| Family (routes mixed) | Concurrency | p50 / p99 ms | Requests per CPU-second | DynamoDB calls per request | Baseline p50 / p99 ms | Baseline requests per CPU-second | Baseline calls per request | p50 vs baseline | Requests per CPU-second vs baseline | Answers other than success (bundle and baseline) |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|',
    rows,
  );
}

function dedicatedWarm(report: FunctionsReport): string {
  const warm = report.dedicatedWarm;
  if (!warm) return '';
  return [
    `### ${warm.route} alone in a process of its own`,
    '',
    `The fair warm comparison: each build serving only ${warm.route}, in a new process (as in Lambda),`,
    `through the same local API; the p50 of each batch of ${warm.batch} requests at concurrency 1, from the`,
    "process's first request on (both builds' code gets faster as the compiler optimises it).",
    '',
    table(
      '| Requests | Bundle p50 ms | Baseline p50 ms | Bundle vs baseline |',
      '|---|--:|--:|--:|',
      warm.p50Ms.optimized.map((p50, batch) => [
        `${batch * warm.batch + 1} to ${(batch + 1) * warm.batch}`,
        ms(p50),
        ms(warm.p50Ms.baseline[batch] ?? NaN),
        ratio(p50 / (warm.p50Ms.baseline[batch] ?? NaN)),
      ]),
    ),
  ].join('\n');
}

interface Target {
  readonly target: string;
  readonly measured: string;
  readonly holds: Verdict;
}

function targets(report: FunctionsReport, routes: readonly RouteDefinition[]): Target[] {
  const isQr = (name: string) => {
    const route = routes.find((r) => r.name === name);
    return route ? isQrRoute(route) : false;
  };
  const fns = report.functions;
  const nonQr = fns.filter((f) => !isQr(f.name));
  const qr = fns.filter((f) => isQr(f.name));
  const overBudget = (list: readonly FunctionResult[], limit: number) =>
    list.filter((f) => f.builds.optimized.bytes >= limit);
  const largest = (list: readonly FunctionResult[]) =>
    list.reduce<FunctionResult | undefined>(
      (max, f) => (!max || f.builds.optimized.bytes > max.builds.optimized.bytes ? f : max),
      undefined,
    );
  const coldRatios = fns.map((f) => ({
    name: f.name,
    ratio: f.builds.optimized.coldStart.medianMs / f.builds.baseline.coldStart.medianMs,
  }));
  const worstCold = coldRatios.reduce((max, r) => (r.ratio > max.ratio ? r : max), { name: '-', ratio: 0 });
  const chain = report.chainOverhead.optimized;
  const gets = fns.filter((f) => kindOf(f, routes) === 'get');
  const lists = fns.filter((f) => kindOf(f, routes) === 'list');
  const writes = fns.filter((f) => kindOf(f, routes) === 'write');
  const transactions = (f: FunctionResult) => f.builds.optimized.dynamodb.callsByOperation['TransactWriteItems'] ?? 0;
  const describe = (list: readonly FunctionResult[]) =>
    list.map((f) => `${f.name} ${f.builds.optimized.dynamodb.callsPerRequest}`).join(', ');
  const keyedWriteCalls = (f: FunctionResult) =>
    writeCalls(f.builds.optimized.keyedWrite ?? f.builds.optimized.dynamodb);
  const oneTrip = writes.filter((f) => keyedWriteCalls(f) <= 1);
  const manyTrips = writes.filter((f) => keyedWriteCalls(f) > 1);
  const describeWrites = (list: readonly FunctionResult[]) =>
    list.map((f) => `${f.name} ${keyedWriteCalls(f)}`).join(', ') || 'none';

  const nonQrOver = overBudget(nonQr, NON_QR_BUNDLE_LIMIT);
  const qrOver = overBudget(qr, QR_BUNDLE_LIMIT);
  const largestNonQr = largest(nonQr);
  const largestQr = largest(qr);
  return [
    {
      target: 'Every non-QR bundle under 250 KB',
      measured:
        `largest ${largestNonQr?.name ?? '-'} ${kb(largestNonQr?.builds.optimized.bytes ?? 0)} KB; ` +
        (nonQrOver.length === 0
          ? 'all under'
          : `${nonQrOver.length} of ${nonQr.length} over: ${nonQrOver.map((f) => `${f.name} ${kb(f.builds.optimized.bytes)}`).join(', ')}`),
      holds: nonQrOver.length === 0,
    },
    {
      target: 'Every QR bundle under 600 KB',
      measured: largestQr
        ? `largest ${largestQr.name} ${kb(largestQr.builds.optimized.bytes)} KB`
        : 'no QR route in this run',
      holds: qrOver.length === 0,
    },
    {
      target: 'Cold start at most 0.4x the baseline',
      measured: `worst ${worstCold.name} ${ratio(worstCold.ratio)}; median of all ${ratio(
        [...coldRatios].sort((a, b) => a.ratio - b.ratio)[Math.floor(coldRatios.length / 2)]?.ratio ?? 0,
      )}`,
      holds: coldRatios.every((r) => r.ratio <= COLD_START_RATIO_LIMIT),
    },
    {
      target: 'Warm overhead of the middleware chain under 1 ms at p50',
      measured: `GET ${(chain.getP50Us / 1000).toFixed(3)} ms, POST (JSON body validated) ${(chain.postP50Us / 1000).toFixed(3)} ms`,
      holds: chain.getP50Us < CHAIN_OVERHEAD_LIMIT_US && chain.postP50Us < CHAIN_OVERHEAD_LIMIT_US,
    },
    {
      target: 'One DynamoDB call for a get',
      measured: describe(gets),
      holds: gets.every((f) => f.builds.optimized.dynamodb.callsPerRequest === 1),
    },
    {
      target: 'At most two DynamoDB calls for a page of a walk (page and total)',
      measured: `first page of a walk: ${describe(lists)} (later pages: see the pagination benchmark)`,
      holds: lists.every((f) => f.builds.optimized.dynamodb.callsPerRequest <= 2),
    },
    {
      target: 'A write: only the reads its rules need, plus one round trip that writes',
      measured: `at most one transaction per write: ${yes(writes.every((f) => transactions(f) <= 1))}; write round trips with an Idempotency-Key on POSTs: one for ${oneTrip.map((f) => f.name).join(', ') || 'none'}; more for ${describeWrites(manyTrips)}`,
      // Which reads a rule needs is a judgement: the notes below go through the writes one by one.
      holds: 'partly',
    },
  ];
}

/** Writes docs/benchmarks.md from a run's figures and the notes. */
export function writeBenchmarksMarkdown(report: FunctionsReport, routes: readonly RouteDefinition[]): void {
  writeFileSync(BENCHMARKS_MARKDOWN, benchmarksMarkdown({ report, routes, notes: readFileSync(NOTES, 'utf8') }));
}

export interface ReportInputs {
  readonly report: FunctionsReport;
  readonly routes: readonly RouteDefinition[];
  /** Closing notes written from the figures (why targets miss, what would close the gaps). */
  readonly notes: string;
}

export function benchmarksMarkdown({ report, routes, notes }: ReportInputs): string {
  const { settings } = report;
  const b = report.chainOverhead.baseline;
  const o = report.chainOverhead.optimized;
  return `# Benchmarks

Generated by \`npm run bench\` on ${report.generatedAt}, in ${report.durationSeconds} s for the function
benchmark (bench/functions.ts; its figures are in [benchmarks.json](benchmarks.json)).
Machine: ${report.machine}, shared with other work: load average (1, 5, 15 minutes) ${report.loadAverage.start.join(', ')}
when the run began, ${report.loadAverage.end.join(', ')} when it ended. Database: DynamoDB Local (in memory), behind
a proxy that counts the calls. While it measures, the local runtime's later work (the stream reader,
the dispatcher, the queues' functions) is held: every call counted is a route's.

\`npm run bench\` also runs the [pagination benchmark](benchmarks/pagination.md) (what list pages
cost with 1,000 accounts), the [QR benchmark](benchmarks/qr.md) (CPU per QR code) and the
[webhook delivery benchmark](benchmarks/webhooks.md) (a payment's commit to the receiver's \`200\`).

## What is compared

Every function of the route table (functions/routes/), built two ways and measured in the same run:

- **Bundle**: the Lambda bundle the stack deploys. The bench synthesizes the CDK stack with bundling
  (infra/constructs/function-bundle.ts: esbuild, minified ESM for Node 24, request validators generated
  at build time, only the AWS SDK commands used, the SDK's credential chain replaced by the
  environment's credentials, X-Ray written by shared/observability/xray.ts).
- **Baseline**: the same handler files built the usual way: our TypeScript compiled by esbuild into
  one unminified ES module per handler, every package left external and loaded by Node from
  node_modules (\`@aws-sdk/client-dynamodb\` and \`lib-dynamodb\` whole, as their CommonJS builds, with
  the SDK's full default credential chain), the full Middy chain, request validators compiled by AJV
  at cold start (the same schemas and options: bench/functions/baseline/compiled-at-cold-start.ts),
  tracing by Powertools' Tracer over the X-Ray SDK (bench/functions/baseline/xray.ts), and every POST
  with an \`Idempotency-Key\` claiming the key before its work and recording its answer after it
  (bench/functions/baseline/idempotency.ts), as every POST did before the answer was committed in the
  work's own transaction. Everything else is the current code. Its size column would be its own code
  only; what it loads from node_modules is several megabytes. So the baseline is the before, the
  bundle the after, measured side by side in one run.

Both run in the environment Lambda gives a function (the stack's variables, \`AWS_EXECUTION_ENV\`, a
sampled \`_X_AMZN_TRACE_ID\`, \`NODE_OPTIONS=--enable-source-maps\`): logs and EMF metrics are written,
and X-Ray documents are sent to a UDP socket standing in for the daemon.

- **Cold start**: ${settings.coldStarts} fresh \`node\` processes per function for the bundle,
  ${settings.baselineColdStarts} for the baseline (its processes take three to four times longer,
  and its median moves little from route to route), ${settings.coldLanes === 1 ? 'one at a time' : `${settings.coldLanes} at a time`}; each imports
  the handler and serves one request against DynamoDB Local. The figure is the median of import +
  first request (what Lambda reports as init and first duration); Node's own start-up before the
  import is left out (the same for both). One uncounted process per build warms the file caches.
- **Warm**: the local API (infra/local, the same server as \`npm start\`) serving every function of
  one build in one process; ${settings.c1Requests} requests at concurrency 1, then ${settings.c16Requests} at concurrency
  ${settings.concurrency} over keep-alive connections, each run stopped after ${settings.warmRunMs / 1000} s (writes against DynamoDB
  Local are slow). Latency is the client's, through the local API Gateway (JWT check included).
  Throughput per core is requests served per second of CPU used by that server process.
- **DynamoDB**: calls per request by operation, and the read and write capacity DynamoDB Local
  reports for them (\`ReturnConsumedCapacity: TOTAL\` added on the wire), over the warm requests.
- **Writes with an Idempotency-Key**: every write's sample, ${settings.keyedWrites} requests one at a time, each POST
  with a fresh \`Idempotency-Key\`, also those whose sample sends none (validate-key and decode, which
  read only, and the webhook actions), its DynamoDB calls counted as above.
- **Under load**: each family of routes (the resource of their scopes: customers, accounts, keys,
  QR codes, payments, webhooks; the sandbox's tools) through the same local API, its routes' samples
  in turn over ${settings.loadConcurrency.join(', ')} keep-alive connections (autocannon), ${settings.loadRequests.join(', ')} requests
  at those levels, each build in turn at each level. Latency is the client's; requests per
  CPU-second are those of the server process; DynamoDB calls are counted on the wire.
  ${Object.entries(OUT_OF_THE_MIX)
    .map(([name, why]) => `${name} is left out of its family's mix: it ${why}.`)
    .join(' ')}
- Every request is a sample of bench/functions/samples.ts, on its success path; writes never repeat
  (each consumes data made beforehand). Lists ask for the first page of a new walk.

## Size and cold start

${functionTable(report.functions, SIZE_AND_COLD_START)}

## Warm latency and throughput

No ratio here, on purpose: in the baseline's server process every route shares one copy of the AWS
SDK, optimised by the compiler over all the requests of the routes measured before, while each bundle
carries its own copy, warmed only by its own route's requests. The comparison leans to the baseline,
more so for the routes measured last. Each function in a process of its own, as in Lambda, is the
fair comparison: see the notes.

${functionTable(report.functions, WARM)}

${dedicatedWarm(report)}

## DynamoDB per request

${functionTable(report.functions, DYNAMODB)}

## DynamoDB calls per write: before and after

Every write, its POSTs with an \`Idempotency-Key\`: before (the baseline: the key claimed before the
work, the answer recorded after it) and after (the bundle: the answer committed in the work's own
transaction where the work is one transaction at most; docs/reliability.md). Write round trips count
the calls that write (\`PutItem\`, \`UpdateItem\`, \`DeleteItem\`, \`BatchWriteItem\`,
\`TransactWriteItems\`); the others are reads.

${keyedWrites(report.functions)}

## Under load

${underLoad(report.load)}

## The middleware chain alone

The shared Middy chain (shared/http/handler.ts) around a route whose own work is nothing, called
in-process one call at a time (bench/functions/chain-overhead.ts), with logging, metrics and tracing
on: GET (auth context, query validation, logs, metrics, tracing), POST (the same plus body size,
JSON parsing and validation of a link-merchant body).

| Chain | GET p50 µs | GET p99 µs | POST p50 µs | POST p99 µs |
|---|--:|--:|--:|--:|
| current | ${o.getP50Us} | ${o.getP99Us} | ${o.postP50Us} | ${o.postP99Us} |
| baseline | ${b.getP50Us} | ${b.getP99Us} | ${b.postP50Us} | ${b.postP99Us} |

## Targets

| Target | Measured | Holds |
|---|---|---|
${targets(report, routes)
  .map((t) => `| ${t.target} | ${t.measured} | ${yes(t.holds)} |`)
  .join('\n')}

${notes}
`;
}

export type { Build };
