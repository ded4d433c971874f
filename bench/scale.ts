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
 * Options (environment): SCALE_PAYMENTS_PER_SECOND (1000), SCALE_MERCHANTS (100),
 * SCALE_QR_PER_MERCHANT_PER_DAY (10000), SCALE_SECONDS (60), BENCH_REQUESTS (3).
 * Writes docs/benchmarks/scale.json and docs/img/scale-heat.svg.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from '../infra/paths';
import { measureRoutes, type RouteCapacity } from './capacity/measure';
import { touchesOf, type Touch } from './scale/touches';
import { heatFigure } from './scale/figure';

// The sweeper's index shards, as the code writes them (imported late: the module reads the runtime's settings).
const { DUE_SHARDS } = await import('../shared/data/due-work');

const PAYMENTS_PER_SECOND = Number(process.env['SCALE_PAYMENTS_PER_SECOND'] ?? 1000);
const MERCHANTS = Number(process.env['SCALE_MERCHANTS'] ?? 100);
const QR_PER_MERCHANT_PER_DAY = Number(process.env['SCALE_QR_PER_MERCHANT_PER_DAY'] ?? 10_000);
const SECONDS = Number(process.env['SCALE_SECONDS'] ?? 60);
const REQUESTS = Number(process.env['BENCH_REQUESTS'] ?? 3);
/** DynamoDB's limits per partition. */
const WCU_PER_PARTITION = 1000;
const RCU_PER_PARTITION = 3000;

type Scope = 'own' | 'merchant' | 'client' | 'due';
interface Template {
  readonly touches: readonly (Touch & { readonly scope: Scope })[];
}

/** The touches of each measured request, each partition marked with whom it is shared by. */
function templatesOf(route: RouteCapacity, merchantIds: readonly string[]): Template[] {
  const requests = route.perRequest!.map((r) => touchesOf([...r.calls, ...r.laterCalls], route.stored));
  const seenBy = new Map<string, number>();
  for (const touches of requests) {
    for (const name of new Set(touches.map((t) => `${t.index} ${t.partition}`))) {
      seenBy.set(name, (seenBy.get(name) ?? 0) + 1);
    }
  }
  return requests.map((touches) => ({
    touches: touches.map((t) => {
      const scope: Scope = t.partition.startsWith('DUE#')
        ? 'due'
        : (seenBy.get(`${t.index} ${t.partition}`) ?? 0) < 2
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
const measured = await measureRoutes(REQUESTS, { laterWork: ['createPayment', 'createQrCode'] });
const route = (name: string) => measured.routes.find((r) => r.name === name)!;
const mix = [
  { name: 'createPayment', perSecond: PAYMENTS_PER_SECOND },
  { name: 'createQrCode', perSecond: (MERCHANTS * QR_PER_MERCHANT_PER_DAY) / 86_400 },
].map((m) => ({ ...m, templates: templatesOf(route(m.name), measured.merchantIds) }));

/** Units per partition, second by second; a request's own partitions are summed apart. */
const heat = new Map<string, { wcu: Float64Array; rcu: Float64Array }>();
let ownPeak = { wcu: 0, rcu: 0 };
for (let second = 0; second < SECONDS; second += 1) {
  for (const { perSecond, templates } of mix) {
    const count = poisson((perSecond * (second + 1)) / SECONDS);
    for (let n = 0; n < count; n += 1) {
      const template = templates[Math.floor(Math.random() * templates.length)]!;
      const merchant = Math.floor(Math.random() * MERCHANTS);
      const own = new Map<string, { wcu: number; rcu: number }>();
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
              : touch.partition;
        const name = `${touch.index} ${partition}`;
        const cell = heat.get(name) ?? { wcu: new Float64Array(SECONDS), rcu: new Float64Array(SECONDS) };
        cell.wcu[second]! += touch.wcu;
        cell.rcu[second]! += touch.rcu;
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
  }))
  .sort(
    (a, b) =>
      b.peakWcu / WCU_PER_PARTITION +
      b.peakRcu / RCU_PER_PARTITION -
      (a.peakWcu / WCU_PER_PARTITION + a.peakRcu / RCU_PER_PARTITION),
  );
const top = partitions.slice(0, 12);
const round = (v: number) => Number(v.toFixed(2));
const report = {
  generatedAt: new Date().toISOString(),
  seconds: Math.round((Date.now() - started) / 1000),
  machine: `${os.cpus()[0]?.model ?? 'unknown'} x${os.cpus().length}, Node ${process.version}, load ${load.join(', ')}`,
  scenario: {
    paymentsPerSecond: PAYMENTS_PER_SECOND,
    merchants: MERCHANTS,
    qrPerMerchantPerDay: QR_PER_MERCHANT_PER_DAY,
    simulatedSeconds: SECONDS,
  },
  limits: { wcuPerPartition: WCU_PER_PARTITION, rcuPerPartition: RCU_PER_PARTITION },
  perRequest: mix.map((m) => ({
    route: m.name,
    perSecond: round(m.perSecond),
    touches: m.templates[0]!.touches.map(({ index, partition, wcu, rcu, scope }) => ({
      index,
      partition,
      wcu,
      rcu,
      scope,
    })),
  })),
  ownPartitionPeak: ownPeak,
  hottest: top.map(({ wcu: _series, ...p }) => ({ ...p, headroom: round(p.headroom) })),
};
writeFileSync(path.join(REPO_ROOT, 'docs', 'benchmarks', 'scale.json'), `${JSON.stringify(report, null, 2)}\n`);
writeFileSync(
  path.join(REPO_ROOT, 'docs', 'img', 'scale-heat.svg'),
  heatFigure(
    top.slice(0, 10),
    SECONDS,
    WCU_PER_PARTITION,
    `payments ramping from 0 to ${PAYMENTS_PER_SECOND}/s over ${SECONDS} s, ${MERCHANTS} merchants`,
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
