/**
 * `npm run bench:scale`: one big client's partition heat, simulated from the real code paths (issue
 * 31, docs/scale.md). createPayment and createQrCode run through the local API against DynamoDB
 * Local behind the recording proxy (bench/capacity/measure.ts), one request at a time with the work
 * it leaves for later (settlement, events, webhook delivery); the partitions each request touched
 * (bench/scale/touches.ts) are then replayed at the target rates for SCALE_SECONDS, each request as
 * one of the measured ones, and the units each partition takes are summed second by second. The
 * rates ramp up evenly from nothing to their targets over the simulated seconds, so that the figure
 * shows the rate at which each partition reaches its limit.
 *
 * A partition touched by one measured request only (its payment, its event, its idempotency record)
 * is that request's own: replayed, it is a new one each time, never hot. One touched by several is
 * shared: by every request of the client (its lists, its counters), by one merchant's requests (its
 * customer, account, key, and its scope lists: spread over MERCHANTS merchants), or by everyone
 * (`DUE#<n>`: the sweeper's shards, drawn by id).
 *
 * The client's payment and delivery lists are sharded (SCALE_LIST_SHARDS shards, as LIST_SHARDS
 * would give it: shared/data/list-shards.ts): a measured request's items land in some shard, and
 * each replayed request puts each of its items in a shard drawn at random, as its new id would.
 * SCALE_LIST_SHARDS=1 shows the client unsharded. The dispatcher reads the client's webhooks once a
 * stream batch (shared/domain/subscribers.ts): those reads are shared by the events of a batch, whose
 * size follows from the rate (SCALE_STREAM_SHARDS below).
 *
 * Options (environment): SCALE_PAYMENTS_PER_SECOND (1000), SCALE_MERCHANTS (100),
 * SCALE_QR_PER_MERCHANT_PER_DAY (10000), SCALE_SECONDS (60), SCALE_LIST_SHARDS (16),
 * SCALE_STREAM_SHARDS (32), BENCH_REQUESTS (3), SCALE_OUTPUT (scale: writes docs/benchmarks/scale.json
 * and docs/img/scale-heat.svg; `scale-unsharded` with SCALE_LIST_SHARDS=1, the figure before sharding).
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../infra/paths';
import { measureRoutes, type RouteCapacity } from './capacity/measure';
import { touchesOf, type Touch } from './scale/touches';
import type { LoggedCall } from './functions/dynamodb-meter';
import { heatFigure, UUID } from './scale/figure';

// The sweeper's index shards, as the code writes them (imported late: the module reads the runtime's settings).
const { DUE_SHARDS } = await import('../shared/data/due-work');

const PAYMENTS_PER_SECOND = Number(process.env['SCALE_PAYMENTS_PER_SECOND'] ?? 1000);
const MERCHANTS = Number(process.env['SCALE_MERCHANTS'] ?? 100);
const QR_PER_MERCHANT_PER_DAY = Number(process.env['SCALE_QR_PER_MERCHANT_PER_DAY'] ?? 10_000);
const SECONDS = Number(process.env['SCALE_SECONDS'] ?? 60);
const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 3);
const LIST_SHARDS = Number(process.env['SCALE_LIST_SHARDS'] ?? 16);
/** The report's name: docs/benchmarks/<name>.json and docs/img/<name with scale-heat>.svg. */
const OUTPUT = process.env['SCALE_OUTPUT'] ?? 'scale';
/** The bench's client: the samples' (bench/functions/samples.ts). */
const CLIENT = 'sandbox-client-a';
/**
 * The stream's shards the dispatcher's events are read from (one per table partition): Lambda polls
 * each about 4 times a second, and hands what arrived since as one batch (of up to 100, the
 * dispatcher's batch size). More shards make smaller batches: 32 is more than a table at this load
 * needs, so the batches are, if anything, larger than modelled.
 */
const STREAM_SHARDS = Number(process.env['SCALE_STREAM_SHARDS'] ?? 32);
const POLLS_PER_SECOND = 4;
const DISPATCHER_BATCH_SIZE = 100;
/** A payment's events (its creation and its answer), each dispatched. */
const EVENTS_PER_PAYMENT = 2;
/** DynamoDB's limits per partition. */
const WCU_PER_PARTITION = 1000;
const RCU_PER_PARTITION = 3000;

type Scope = 'own' | 'merchant' | 'client' | 'due';
interface Template {
  readonly touches: readonly (Touch & { readonly scope: Scope; readonly perBatch: boolean })[];
}

/**
 * A partition of one shard of the client's payment or delivery lists, or of their counters (`<client>#
 * PAYMENT`, `COUNT#<client>#DELIVERY#WEBHOOK#<id>~3`, ...): its collection, and its shard (0: bare).
 */
const SHARDED = /^(?<base>(?:COUNT#)?[^#]+#(?<collection>PAYMENT|DELIVERY)(?:#.*?)?)(?:~(?<shard>\d+))?$/;

/** The partition without its shard: the measured requests' shards are one list, shared by the client. */
const unsharded = (partition: string): string =>
  (LIST_SHARDS > 1 ? SHARDED.exec(partition)?.groups?.['base'] : undefined) ?? partition;

/**
 * The partition a replayed request's touch lands in: a list shard of the client's is drawn at random
 * for each item of the request (`drawn` keeps one draw per collection and measured shard, so that an
 * item's lists and counters stay in one shard, as its id keeps them).
 */
function inDrawnShard(partition: string, drawn: Map<string, number>): string {
  const match = LIST_SHARDS > 1 ? SHARDED.exec(partition) : null;
  if (!match?.groups) return partition;
  const { base, collection, shard = '0' } = match.groups;
  const key = `${collection}~${shard}`;
  const draw = drawn.get(key) ?? Math.floor(Math.random() * LIST_SHARDS);
  drawn.set(key, draw);
  return draw === 0 ? base! : `${base}~${draw}`;
}

/**
 * The dispatcher reads a client's webhooks (their set, their gsi1 list, each webhook) once a stream
 * batch, for all the batch's events (shared/domain/subscribers.ts): the measured requests, dispatched
 * one at a time, read them once an event; at the replay's rates a batch holds many events.
 */
const readOncePerBatch = (call: LoggedCall, touch: Touch): boolean =>
  call.function === 'dispatchEvents' &&
  touch.wcu === 0 &&
  (/^WEBHOOKS?#/.test(touch.partition) || (touch.index === 'gsi1' && touch.partition.endsWith('#WEBHOOK')));

/** The events of one stream batch when payments are made at `paymentsPerSecond`. */
const eventsPerBatch = (paymentsPerSecond: number): number =>
  Math.min(
    DISPATCHER_BATCH_SIZE,
    Math.max(1, (EVENTS_PER_PAYMENT * paymentsPerSecond) / (POLLS_PER_SECOND * STREAM_SHARDS)),
  );

/** The touches of each measured request, each partition marked with whom it is shared by. */
function templatesOf(route: RouteCapacity, merchantIds: readonly string[]): Template[] {
  const requests = route.perRequest!.map((r) =>
    [...r.calls, ...r.laterCalls].flatMap((call) =>
      touchesOf([call], route.stored).map((touch) => ({ ...touch, perBatch: readOncePerBatch(call, touch) })),
    ),
  );
  const seenBy = new Map<string, number>();
  for (const touches of requests) {
    for (const name of new Set(touches.map((t) => `${t.index} ${unsharded(t.partition)}`))) {
      seenBy.set(name, (seenBy.get(name) ?? 0) + 1);
    }
  }
  return requests.map((touches) => ({
    touches: touches.map((t) => {
      const scope: Scope = t.partition.startsWith('DUE#')
        ? 'due'
        : (seenBy.get(`${t.index} ${unsharded(t.partition)}`) ?? 0) < 2
          ? 'own'
          : merchantIds.some((id) => t.partition.includes(id))
            ? 'merchant'
            : 'client';
      return { ...t, scope };
    }),
  }));
}

/** A Poisson draw (normal approximation above 50). */
function poisson(mean: number): number {
  if (mean > 50) {
    const u = 1 - Math.random();
    const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * Math.random());
    return Math.max(0, Math.round(mean + Math.sqrt(mean) * z));
  }
  let k = 0;
  for (let p = Math.random(); p > Math.exp(-mean); p *= Math.random()) k += 1;
  return k;
}

const started = Date.now();
const load = os.loadavg().map((l) => l.toFixed(2));
const measured = await measureRoutes(REQUESTS, {
  laterWork: ['createPayment', 'createQrCode'],
  ...(LIST_SHARDS > 1
    ? {
        listShards: {
          [CLIENT]: [{ from: '2000-01-01T00:00:00.000Z', shards: { PAYMENT: LIST_SHARDS, DELIVERY: LIST_SHARDS } }],
        },
      }
    : {}),
});
const route = (name: string) => measured.routes.find((r) => r.name === name)!;
const mix = [
  { name: 'createPayment', perSecond: PAYMENTS_PER_SECOND },
  { name: 'createQrCode', perSecond: (MERCHANTS * QR_PER_MERCHANT_PER_DAY) / 86_400 },
].map((m) => ({ ...m, templates: templatesOf(route(m.name), measured.merchantIds) }));

/** Units per partition, second by second; a request's own partitions are summed apart. */
const heat = new Map<string, { wcu: Float64Array; rcu: Float64Array }>();
let ownPeak = { wcu: 0, rcu: 0 };
for (let second = 0; second < SECONDS; second += 1) {
  const batchShare = 1 / eventsPerBatch((PAYMENTS_PER_SECOND * (second + 1)) / SECONDS);
  for (const { perSecond, templates } of mix) {
    const count = poisson((perSecond * (second + 1)) / SECONDS);
    for (let n = 0; n < count; n += 1) {
      const template = templates[Math.floor(Math.random() * templates.length)]!;
      const merchant = Math.floor(Math.random() * MERCHANTS);
      const own = new Map<string, { wcu: number; rcu: number }>();
      const drawn = new Map<string, number>();
      for (const touch of template.touches) {
        if (touch.scope === 'own') {
          const o = own.get(`${touch.index} ${touch.partition}`) ?? { wcu: 0, rcu: 0 };
          own.set(`${touch.index} ${touch.partition}`, { wcu: o.wcu + touch.wcu, rcu: o.rcu + touch.rcu });
          continue;
        }
        const partition =
          touch.scope === 'merchant'
            ? `${touch.partition} (merchant ${merchant})`
            : touch.scope === 'due'
              ? `DUE#${Math.floor(Math.random() * DUE_SHARDS)}`
              : inDrawnShard(touch.partition, drawn);
        const name = `${touch.index} ${partition}`;
        const cell = heat.get(name) ?? { wcu: new Float64Array(SECONDS), rcu: new Float64Array(SECONDS) };
        cell.wcu[second]! += touch.wcu;
        cell.rcu[second]! += touch.perBatch ? touch.rcu * batchShare : touch.rcu;
        heat.set(name, cell);
      }
      for (const o of own.values()) ownPeak = { wcu: Math.max(ownPeak.wcu, o.wcu), rcu: Math.max(ownPeak.rcu, o.rcu) };
    }
  }
}

const peak = (values: Float64Array) => Math.max(...values);
function atLimit(cell: { wcu: Float64Array; rcu: Float64Array }): number | null {
  const second = cell.wcu.findIndex((units, s) => units > WCU_PER_PARTITION || cell.rcu[s]! > RCU_PER_PARTITION);
  return second < 0 ? null : Math.round((PAYMENTS_PER_SECOND * (second + 1)) / SECONDS);
}
const partitions = [...heat.entries()]
  .map(([name, cell]) => ({
    name,
    peakWcu: peak(cell.wcu),
    peakRcu: peak(cell.rcu),
    headroom: Math.min(
      WCU_PER_PARTITION / Math.max(peak(cell.wcu), 1e-9),
      RCU_PER_PARTITION / Math.max(peak(cell.rcu), 1e-9),
    ),
    // The payment rate of the first second this partition took more than its limit.
    paymentsPerSecondAtLimit: atLimit(cell),
    wcu: [...cell.wcu],
    rcu: [...cell.rcu],
  }))
  .sort(
    (a, b) =>
      b.peakWcu / WCU_PER_PARTITION +
      b.peakRcu / RCU_PER_PARTITION -
      (a.peakWcu / WCU_PER_PARTITION + a.peakRcu / RCU_PER_PARTITION),
  );
const top = partitions.slice(0, 12);

/** A partition's kind: its name without the ids and shard numbers that tell its like apart. */
const kindOf = (name: string): string =>
  name
    .replace(UUID, '<id>')
    .replace(/~\d+$/, '~<n>')
    .replace(/DUE#\d+/, 'DUE#<n>')
    .replace(/\(merchant \d+\)/, '(merchant <n>)');
/** The hottest partition of each kind (partitions are sorted hottest first), and how many there are. */
const kinds = new Map<string, (typeof partitions)[number] & { partitions: number }>();
for (const p of partitions) {
  const kind = kindOf(p.name);
  const seen = kinds.get(kind);
  kinds.set(kind, seen ? { ...seen, partitions: seen.partitions + 1 } : { ...p, partitions: 1 });
}
const round = (v: number) => Number(v.toFixed(2));
const report = {
  generatedAt: new Date().toISOString(),
  seconds: Math.round((Date.now() - started) / 1000),
  machine: `${os.cpus()[0]?.model ?? 'unknown'} x${os.cpus().length}, Node ${process.version}, load ${load.join(', ')}`,
  scenario: {
    paymentsPerSecond: PAYMENTS_PER_SECOND,
    listShards: LIST_SHARDS,
    streamShards: STREAM_SHARDS,
    eventsPerBatchAtTarget: Number(eventsPerBatch(PAYMENTS_PER_SECOND).toFixed(1)),
    merchants: MERCHANTS,
    qrPerMerchantPerDay: QR_PER_MERCHANT_PER_DAY,
    simulatedSeconds: SECONDS,
  },
  limits: { wcuPerPartition: WCU_PER_PARTITION, rcuPerPartition: RCU_PER_PARTITION },
  perRequest: mix.map((m) => ({
    route: m.name,
    perSecond: round(m.perSecond),
    touches: m.templates[0]!.touches.map(({ index, partition, wcu, rcu, scope, perBatch }) => ({
      index,
      partition,
      wcu,
      rcu,
      scope,
      perBatch,
    })),
  })),
  ownPartitionPeak: ownPeak,
  hottest: top.map(({ wcu: _writes, rcu: _reads, ...p }) => ({ ...p, headroom: round(p.headroom) })),
  hottestOfEachKind: [...kinds.entries()]
    .slice(0, 25)
    .map(([kind, { wcu: _writes, rcu: _reads, name: _name, ...p }]) => ({
      kind,
      ...p,
      peakRcu: round(p.peakRcu),
      headroom: round(p.headroom),
    })),
};
writeFileSync(path.join(REPO_ROOT, 'docs', 'benchmarks', `${OUTPUT}.json`), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(
  path.join(REPO_ROOT, 'docs', 'img', `${OUTPUT.replace('scale', 'scale-heat')}.svg`),
  heatFigure(
    top.slice(0, 12),
    SECONDS,
    {
      wcu: WCU_PER_PARTITION,
      rcu: RCU_PER_PARTITION,
    },
    `payments ramping from 0 to ${PAYMENTS_PER_SECOND}/s over ${SECONDS} s, ${MERCHANTS} merchants, lists in ${LIST_SHARDS} shards`,
  ),
);
console.log(
  JSON.stringify(
    report.hottest.map(({ name, peakWcu, peakRcu, headroom, paymentsPerSecondAtLimit }) => ({
      name,
      paymentsPerSecondAtLimit,
      peakWcu,
      peakRcu,
      headroom,
    })),
    null,
    1,
  ),
);
console.log('own partition peak', ownPeak);
process.exit(0);
