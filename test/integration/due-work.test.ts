/**
 * The index of due work and the sweeper, in DynamoDB Local through the real repositories: each kind
 * of work enters the index with the commit that owes it and leaves it with the commit that does it;
 * a sweep restarts each stranded item once (also two sweeps at once), leaves it alone for a grace,
 * and restarts it again if its work has still not happened. The queues are recorders: the messages a
 * crash or an SQS outage would have lost are exactly what the sweeper must send again. The
 * repositories reach DynamoDB Local through the recording proxy, which shows the shards each sweep
 * reads: all 32 at the deployed schedule's minute, 8 (and the turn counter) at the local tests' 300 ms.
 */
import { randomUUID } from 'node:crypto';
import type { Clock } from '../../shared/domain/clock';
import { deliveryIdOf, newDelivery, type StoredDelivery } from '../../shared/domain/deliveries';
import { payResolution } from '../../shared/domain/pay-resolution';
import { later, type StoredPayment } from '../../shared/domain/payments';
import { settlePayment } from '../../shared/domain/settlement';
import { SHARD_PAGE, sweep, type DueWorkStore, type SweepReport } from '../../shared/domain/sweep';
import { createWebhook, randomWebhookSecrets } from '../../shared/domain/webhooks';
import { dynamoDeliveryStore } from '../../shared/data/deliveries-repository';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import {
  dynamoDueWork,
  DUE_SHARDS,
  dueShardOf,
  sweptDueWork,
  SWEEP_TURN_KEY,
  type DueEntry,
} from '../../shared/data/due-work';
import { DUE_INDEX } from '../../shared/data/table';
import { ENV } from '../../shared/runtime/config';
import { dynamoDispatchedEvents } from '../../shared/data/events';
import { dynamoInboundPaymentStore } from '../../shared/data/payments-repository';
import { dynamoReportStore } from '../../shared/data/reports-repository';
import { dynamoReconciliationStore, receiveSettlementFileRecord } from '../../shared/data/reconciliations-repository';
import { settlementFileName, type StoredSettlementFile } from '../../shared/domain/settlement-files';
import type { StoredReport } from '../../shared/domain/reports';
import { dynamoWebhookStore } from '../../shared/data/webhooks-repository';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { DynamoDbFaultProxy } from '../support/dynamodb-fault-proxy';
import { testSealer } from '../support/sealer';
import {
  HeldSettlements,
  otherParticipantKey,
  paymentDeps,
  paymentRequest,
  SETTLEMENT_DELAY_MS,
  settlementDeps,
  storedMerchant,
  storedQrCode,
  storedResolution,
} from '../support/payments';

let table: TestTable;
let proxy: DynamoDbFaultProxy;
beforeAll(async () => {
  table = await createTestTable('due-work');
  proxy = await DynamoDbFaultProxy.start(table.endpoint);
  // The repositories read the endpoint on first use: every call of theirs crosses the proxy.
  process.env[ENV.dynamodbEndpoint] = proxy.endpoint;
});
afterAll(async () => {
  await table.drop();
  await proxy.stop();
});

const MINUTE = 60_000;
const GRACE_MS = 2 * MINUTE;
/** How long restarted work may wait in its queue (the queues' visibility timeouts, here all alike). */
const HOLD_MS = 10 * MINUTE;
const HOLDS = {
  payment: HOLD_MS,
  refund: HOLD_MS,
  delivery: HOLD_MS,
  report: HOLD_MS,
  reconciliation: HOLD_MS,
  event: 0,
};
/** The time a run keeps before its timeout (the deployed one's: one group of restarts). */
const MARGIN_MS = 10_000;
const tenant = (): string => `tenant-${randomUUID()}`;
const clockAt = (at: string): Clock => ({ now: () => at });

/** The index entry of an item, as [pk, duesk], or undefined when it is out of the index. */
async function dueEntryOf(pk: string): Promise<string | undefined> {
  // The entity's own item (`PAYMENT#<id>` / `PAYMENT`), not another of its partition (a payment's details).
  const [item] = await table.scan((i) => i['pk'] === pk && i['sk'] === pk.split('#')[0]);
  if (!item) throw new Error(`${pk} does not exist`);
  if (item['duepk'] !== undefined) expect(item['duepk']).toBe(`DUE#${dueShardOf(String(item['id']))}`);
  return item['duesk'];
}

/** A PENDING payment to another participant whose settlement job was lost (held, never run). */
async function pendingPayment(who = tenant()) {
  const payer = await storedMerchant(who, 500_00);
  const resolution = await storedResolution(payer, await otherParticipantKey());
  const payment = await payResolution(
    paymentDeps(new HeldSettlements()),
    who,
    paymentRequest(payer, resolution, '10.00'),
  );
  const [event] = await table.scan((i) => i['entity'] === 'EVENT' && i['data']?.id === payment.id);
  return { payer, payment, eventId: String(event!['id']) };
}

/** An inbound payment left PROCESSING by a request that died before its decision (and its lost job). */
async function processingPayment(who = tenant()): Promise<StoredPayment> {
  const merchant = await storedMerchant(who, 0);
  const code = await storedQrCode(merchant);
  const at = new Date().toISOString();
  const payment: StoredPayment = {
    id: randomUUID(),
    tenant: who,
    customer_id: merchant.customer.id,
    account_id: merchant.account.id,
    direction: 'INBOUND',
    status: 'PROCESSING',
    amount_cents: 25_00,
    counterparty: {
      owner: { identification_type: 'CC', identification_number: '1', type: 'PERSON' },
      participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
      account: { account_number: '1', account_type: 'SAVINGS' },
    },
    created_at: at,
    updated_at: at,
  };
  const workDueAt = later(at, 30_000);
  expect(await dynamoInboundPaymentStore.receive({ payment, workDueAt, keyId: code.key_id, events: [] })).toEqual({
    written: true,
  });
  return payment;
}

async function subscribedWebhook(who: string) {
  return createWebhook(
    {
      clock: { now: () => new Date().toISOString() },
      ids: { newId: () => randomUUID() },
      webhooks: dynamoWebhookStore,
      secrets: randomWebhookSecrets,
      sealer: testSealer,
      urlPolicy: { localReceivers: false },
      resolver: { resolve: async () => ['93.184.216.34'] },
    },
    who,
    { url: 'https://hooks.example.com/breb', events: ['payment.outbound.confirmed'] },
  );
}

describe('the index of due work', () => {
  it('holds a PENDING payment from its commit, due when the network should have answered, until its answer', async () => {
    const { payment, eventId } = await pendingPayment();
    expect(await dueEntryOf(`PAYMENT#${payment.id}`)).toBe(later(payment.created_at, SETTLEMENT_DELAY_MS));
    // Its event too, due at once: until the dispatcher has made its deliveries.
    expect(await dueEntryOf(`EVENT#${eventId}`)).toBe(payment.created_at);

    await settlePayment(settlementDeps(), payment.id);
    expect(await dueEntryOf(`PAYMENT#${payment.id}`)).toBeUndefined();
    await dynamoDispatchedEvents.dispatched(eventId);
    expect(await dueEntryOf(`EVENT#${eventId}`)).toBeUndefined();
  });

  it('holds a PROCESSING payment until its decision', async () => {
    const payment = await processingPayment();
    expect(await dueEntryOf(`PAYMENT#${payment.id}`)).toBe(later(payment.created_at, 30_000));
    await settlePayment(settlementDeps(), payment.id);
    expect(await dueEntryOf(`PAYMENT#${payment.id}`)).toBeUndefined();
  });

  it('holds a delivery while PENDING, due at its next attempt; a redelivery puts it back', async () => {
    const who = tenant();
    const webhook = await subscribedWebhook(who);
    const at = new Date().toISOString();
    const event = { id: randomUUID(), tenant: who, type: 'payment.settled' as const, created_at: at, data: {} };
    const delivery: StoredDelivery = newDelivery(event, webhook, at);
    const pk = `DELIVERY#${delivery.id}`;
    expect(await dynamoDeliveryStore.createIfAbsent(delivery)).toBe(true);
    expect(await dueEntryOf(pk)).toBe(at);

    const retryAt = later(at, MINUTE);
    const attempt = { attempted_at: at, status_code: 500, duration_ms: 3 };
    expect(
      await dynamoDeliveryStore.recordAttempt(delivery, { attempt, status: 'PENDING', next_attempt_at: retryAt }, at),
    ).toBe(true);
    expect(await dueEntryOf(pk)).toBe(retryAt);

    const retrying = (await dynamoDeliveryStore.get(delivery.id))!;
    const ok = { attempted_at: retryAt, status_code: 200, duration_ms: 3 };
    expect(await dynamoDeliveryStore.recordAttempt(retrying, { attempt: ok, status: 'SUCCEEDED' }, retryAt)).toBe(true);
    expect(await dueEntryOf(pk)).toBeUndefined();

    const reopenedAt = later(retryAt, MINUTE);
    const reopened = await dynamoDeliveryStore.reopen((await dynamoDeliveryStore.get(delivery.id))!, reopenedAt);
    expect(reopened).toMatchObject({ status: 'PENDING', next_attempt_at: reopenedAt });
    expect(await dueEntryOf(pk)).toBe(reopenedAt);
    // The index's attributes stay the table's: the record read back has none of them.
    expect(Object.keys(reopened!).filter((name) => name.startsWith('due'))).toEqual([]);
  });
});

describe('a sweep', () => {
  /** What a sweep restarts: the recorded messages and dispatches of these items alone. */
  function sweeper(
    mine: Set<string>,
    clock: Clock,
    store: DueWorkStore<DueEntry> = dynamoDueWork,
    remainingMs: () => number = () => 60_000,
  ) {
    const settled: string[] = [];
    const sent: string[] = [];
    const reportRuns: string[] = [];
    const reconciliationRuns: string[] = [];
    /** The message group of each job queued (its client's), in order. */
    const groups: (string | undefined)[] = [];
    const deliveries = {
      send: async (id: string, _delayMs: number, tenant?: string) => void (sent.push(id), groups.push(tenant)),
    };
    const run = (): Promise<SweepReport> =>
      sweep({
        // The file's other tests leave work due too: this sweep restarts the items of its own test.
        due: {
          shards: store.shards,
          page: async (shard, upTo, limit, after) => {
            const page = await store.page(shard, upTo, limit, after);
            return { ...page, entries: page.entries.filter((entry) => mine.has(entry.ref)) };
          },
          claim: store.claim,
        },
        settlement: {
          schedule: async (id: string, _delayMs: number, tenant?: string) =>
            void (settled.push(id), groups.push(tenant)),
        },
        refunds: {
          schedule: async (id: string, _delayMs: number, tenant?: string) =>
            void (settled.push(id), groups.push(tenant)),
        },
        deliveries,
        reports: { run: async (id: string) => void reportRuns.push(id) },
        reconciliations: { run: async (date: string) => void reconciliationRuns.push(date) },
        dispatch: {
          webhooks: dynamoWebhookStore,
          deliveries: dynamoDeliveryStore,
          events: dynamoDispatchedEvents,
          queue: deliveries,
          clock,
        },
        clock,
        graceMs: GRACE_MS,
        holdMs: HOLDS,
        remainingMs,
        marginMs: MARGIN_MS,
      });
    return { run, settled, sent, reportRuns, reconciliationRuns, groups };
  }

  let fileDays = 0;
  /** One stranded item of each kind, for one client with a webhook subscribed to the payment's event. */
  async function strandedWork() {
    const who = tenant();
    const webhook = await subscribedWebhook(who);
    const { payment, eventId } = await pendingPayment(who);
    const processing = await processingPayment(who);
    const at = new Date().toISOString();
    const otherEvent = { id: randomUUID(), tenant: who, type: 'payment.settled' as const, created_at: at, data: {} };
    const delivery = newDelivery(otherEvent, webhook, at);
    await dynamoDeliveryStore.createIfAbsent(delivery);
    const dispatchedDelivery = `DELIVERY#${deliveryIdOf(eventId, webhook.id)}`;
    // A PENDING report whose run was never queued (its create's SendMessage failed).
    const report: StoredReport = {
      id: randomUUID(),
      tenant: who,
      type: 'payments',
      created_from: '2026-01-01',
      created_to: '2026-01-31',
      status: 'PENDING',
      runs: 0,
      created_at: at,
      updated_at: at,
    };
    await dynamoReportStore.insert(report, 1_000);
    // A day's settlement file whose reconciliation was never queued: a day of its own for each call.
    const date = `2020-01-${String(++fileDays).padStart(2, '0')}`;
    const version = randomUUID();
    const file: StoredSettlementFile = {
      date,
      version,
      file: settlementFileName(date, version),
      line_count: 0,
      status: 'PENDING',
      received_at: at,
      runs: 0,
    };
    await receiveSettlementFileRecord(file);
    const mine = new Set([
      `RECONCILIATION#${date}`,
      `REPORT#${report.id}`,
      `PAYMENT#${payment.id}`,
      `PAYMENT#${processing.id}`,
      `DELIVERY#${delivery.id}`,
      `EVENT#${eventId}`,
      dispatchedDelivery,
    ]);
    return { who, payment, processing, delivery, eventId, dispatchedDelivery, report, file, mine };
  }

  it('restarts each stranded item once, leaves it while its queue may hold it, and restarts what is still not done', async () => {
    const work = await strandedWork();
    const hourLater = later(new Date().toISOString(), 60 * MINUTE);
    const first = sweeper(work.mine, clockAt(hourLater));

    const report = await first.run();
    expect(report.restarted).toEqual({ payment: 2, refund: 0, delivery: 1, event: 1, report: 1, reconciliation: 1 });
    // Each client's jobs in its own message group (a fair queue), the sweeper's restarts included.
    expect(first.groups).toEqual(Array(first.groups.length).fill(work.who));
    expect(first.groups.length).toBeGreaterThanOrEqual(3);
    expect(first.reportRuns).toEqual([work.report.id]);
    expect(first.reconciliationRuns).toEqual([work.file.date]);
    expect(report.failures).toEqual([]);
    expect(report.oldestAgeMs).toBeGreaterThanOrEqual(59 * MINUTE);
    expect(first.settled.sort()).toEqual([work.payment.id, work.processing.id].sort());
    // The event was dispatched as the dispatcher would: its delivery made and queued, the event done.
    const dispatched = work.dispatchedDelivery.slice('DELIVERY#'.length);
    expect(first.sent.sort()).toEqual([work.delivery.id, dispatched].sort());
    expect(await dynamoDeliveryStore.get(dispatched)).toMatchObject({ status: 'PENDING', event_id: work.eventId });
    expect(await dueEntryOf(`EVENT#${work.eventId}`)).toBeUndefined();

    // Run again at once: every item was taken for a grace, nothing is restarted twice.
    const again = await first.run();
    expect(again.restarted).toEqual({ payment: 0, refund: 0, delivery: 0, event: 0, report: 0, reconciliation: 0 });
    expect(again.oldestAgeMs).toBe(0);

    // A grace later, what was restarted may still wait in its queue (a consumer at its concurrency
    // cap): left alone. Only the delivery the event's dispatch made, due from then on, is restarted.
    const graceLater = sweeper(work.mine, clockAt(later(hourLater, GRACE_MS)));
    expect((await graceLater.run()).restarted).toEqual({
      payment: 0,
      refund: 0,
      delivery: 1,
      event: 0,
      report: 0,
      reconciliation: 0,
    });
    // Past its queue's visibility timeout and a grace, the work has still not happened (the messages
    // were lost again): restarted again.
    const holdLater = sweeper(work.mine, clockAt(later(hourLater, HOLD_MS + GRACE_MS)));
    expect((await holdLater.run()).restarted).toEqual({
      payment: 2,
      refund: 0,
      delivery: 1,
      event: 0,
      report: 1,
      reconciliation: 1,
    });

    // Work done leaves the index: the payments answered, the report finished, nothing of theirs is restarted.
    await settlePayment(settlementDeps(), work.payment.id);
    await settlePayment(settlementDeps(), work.processing.id);
    expect(await dynamoReportStore.fail({ ...work.report, status: 'FAILED', failure_reason: 'test' })).toBe(true);
    expect(
      await dynamoReconciliationStore.complete({ ...work.file, status: 'COMPLETED', completed_at: hourLater }),
    ).toBe(true);
    const afterDone = sweeper(work.mine, clockAt(later(hourLater, 3 * HOLD_MS)));
    expect((await afterDone.run()).restarted).toEqual({
      payment: 0,
      refund: 0,
      delivery: 2,
      event: 0,
      report: 0,
      reconciliation: 0,
    });
  });

  it('two sweeps at once restart each item once between them', async () => {
    const work = await strandedWork();
    const clock = clockAt(later(new Date().toISOString(), 60 * MINUTE));
    const a = sweeper(work.mine, clock);
    const b = sweeper(work.mine, clock);
    const reports = await Promise.all([a.run(), b.run()]);
    const total = (kind: 'payment' | 'delivery' | 'event' | 'report' | 'reconciliation') =>
      reports.reduce((n, r) => n + r.restarted[kind], 0);
    expect([total('payment'), total('delivery'), total('event'), total('report'), total('reconciliation')]).toEqual([
      2, 1, 1, 1, 1,
    ]);
    expect([...a.settled, ...b.settled].sort()).toEqual([work.payment.id, work.processing.id].sort());
    expect([...a.sent, ...b.sent]).toHaveLength(2);
    expect(new Set([...a.sent, ...b.sent]).size).toBe(2);
  });

  it('finds due work through the sharded index alone, oldest first in each shard', async () => {
    const { payment } = await pendingPayment();
    const due = await dynamoDueWork.due(later(new Date().toISOString(), MINUTE), 1000);
    expect(due.some((entry) => entry.ref === `PAYMENT#${payment.id}`)).toBe(true);
    expect(new Set(due.map((entry) => entry.ref)).size).toBe(due.length);
    expect(DUE_SHARDS).toBe(32);
    for (let shard = 0; shard < DUE_SHARDS; shard++) {
      const times = due.filter((e) => dueShardOf(e.ref.split('#')[1]!) === shard).map((e) => e.dueAt);
      expect(times).toEqual([...times].sort());
    }
  });

  /** What one call of `run` asked DynamoDB: the index's shards it queried, and its other calls. */
  async function callsOf(run: () => Promise<unknown>) {
    const from = proxy.attempts.length;
    await run();
    const calls = proxy.attempts.slice(from).map((a) => ({ operation: a.operation, body: JSON.parse(a.body) }));
    const queries = calls.filter((c) => c.operation === 'Query' && c.body.IndexName === DUE_INDEX);
    return {
      shards: queries.map((q) => Number(String(q.body.ExpressionAttributeValues[':shard'].S).slice('DUE#'.length))),
      others: calls.filter((c) => !queries.includes(c)).map((c) => c.operation),
    };
  }
  const ALL = Array.from({ length: DUE_SHARDS }, (_, shard) => shard);
  const sorted = (shards: number[]) => [...shards].sort((a, b) => a - b);

  it('a sweep at the deployed schedule (a run a minute) queries every shard, and nothing else', async () => {
    // Nothing of this test's is due: the sweep's own calls are all there is.
    const idle = sweeper(new Set(), clockAt(later(new Date().toISOString(), 60 * MINUTE)), sweptDueWork(60_000));
    const calls = await callsOf(idle.run);
    expect(sorted(calls.shards)).toEqual(ALL);
    expect(calls.others).toEqual([]);
  });

  it("sweeps at the local tests' 300 ms query 8 shards each and take a turn; 4 in a row query every shard once", async () => {
    const store = sweptDueWork(300);
    const idle = sweeper(new Set(), clockAt(later(new Date().toISOString(), 60 * MINUTE)), store);
    const runs = [];
    for (let i = 0; i < 4; i++) runs.push(await callsOf(idle.run));
    for (const run of runs) {
      expect(run.shards).toHaveLength(8);
      expect(run.others).toEqual(['UpdateItem']);
    }
    expect(sorted(runs.flatMap((run) => run.shards))).toEqual(ALL);
    // The turn counter is an item of its own, in no index.
    const [turn] = await table.scan((i) => i['pk'] === SWEEP_TURN_KEY.pk && i['sk'] === SWEEP_TURN_KEY.sk);
    expect(Object.keys(turn!).sort()).toEqual(['entity', 'pk', 'sk', 'turns']);
  });

  it('finds an item written under the 8-shard layout, in turns and at every run', async () => {
    // A payment whose shard under 32 shards is not its shard under 8 (3 ids in 4 are so).
    let pending = await pendingPayment();
    for (let tries = 0; dueShardOf(pending.payment.id) < 8 && tries < 20; tries++) pending = await pendingPayment();
    const { payment } = pending;
    const shard = dueShardOf(payment.id);
    expect(shard).toBeGreaterThanOrEqual(8);
    // As a release before issue 31 wrote it: DUE#<hash % 8>, kept for life.
    const oldShard = `DUE#${shard % 8}`;
    await table.documents.send(
      new UpdateCommand({
        TableName: table.tableName,
        Key: { pk: `PAYMENT#${payment.id}`, sk: 'PAYMENT' },
        UpdateExpression: 'SET duepk = :old',
        ExpressionAttributeValues: { ':old': oldShard },
      }),
    );
    const mine = new Set([`PAYMENT#${payment.id}`]);
    const hourLater = later(new Date().toISOString(), 60 * MINUTE);

    // Four sweeps 300 ms apart: one of them restarts it, once.
    const rotating = sweeper(mine, clockAt(hourLater), sweptDueWork(300));
    let restarted = 0;
    for (let i = 0; i < 4; i++) restarted += (await rotating.run()).restarted.payment;
    expect(restarted).toBe(1);
    expect(rotating.settled).toEqual([payment.id]);

    // Past its queue's time and a grace, still PENDING: a sweep of the deployed schedule restarts it
    // again, in its old shard.
    const deployed = sweeper(mine, clockAt(later(hourLater, HOLD_MS + GRACE_MS)), sweptDueWork(60_000));
    expect((await deployed.run()).restarted.payment).toBe(1);
    const [item] = await table.scan((i) => i['pk'] === `PAYMENT#${payment.id}` && i['sk'] === 'PAYMENT');
    expect(item!['duepk']).toBe(oldShard);
  });

  describe('a backlog', () => {
    /** The shard the backlog crowds: three pages and more of it, besides items in other shards. */
    const CROWDED = 5;
    /**
     * `inShard` PENDING deliveries in the shard CROWDED and `elsewhere` in others, all of one webhook,
     * due a second apart from an hour before `at` on (each delivery of an event of its own).
     */
    async function backlog(inShard: number, elsewhere: number, at: string) {
      const who = tenant();
      const webhook = await subscribedWebhook(who);
      const ids: string[] = [];
      let crowded = 0;
      let others = 0;
      while (crowded < inShard || others < elsewhere) {
        const event = { id: randomUUID(), tenant: who, type: 'payment.settled' as const, created_at: at, data: {} };
        const inCrowded = dueShardOf(deliveryIdOf(event.id, webhook.id)) === CROWDED;
        if (inCrowded ? crowded >= inShard : others >= elsewhere) continue;
        if (inCrowded) crowded += 1;
        else others += 1;
        const delivery = newDelivery(event, webhook, later(at, -60 * MINUTE + ids.length * 1000));
        await dynamoDeliveryStore.createIfAbsent(delivery);
        ids.push(delivery.id);
      }
      return { ids, mine: new Set(ids.map((id) => `DELIVERY#${id}`)) };
    }

    it('is drained in one run while it has time: page after page of a shard, each item once', async () => {
      const at = new Date().toISOString();
      const { ids, mine } = await backlog(3 * SHARD_PAGE + 5, 20, at);
      const run = sweeper(mine, clockAt(at));
      const { report, calls } = await (async () => {
        let report: SweepReport | undefined;
        const calls = await callsOf(async () => (report = await run.run()));
        return { report: report!, calls };
      })();
      expect(report.restarted.delivery).toBe(ids.length);
      expect(run.sent.sort()).toEqual([...ids].sort());
      expect(report).toMatchObject({ seen: ids.length, stoppedForTime: false, shardsLeft: 0, failures: [] });
      // The crowded shard was read a page at a time, four pages of items (and the empty one after).
      expect(calls.shards.filter((shard) => shard === CROWDED).length).toBeGreaterThanOrEqual(4);
      // How far behind: the oldest item fell due an hour before the run.
      expect(report.oldestDueAgeMs).toBeGreaterThanOrEqual(60 * MINUTE);
      expect(report.waitingOver).toEqual({ 5: ids.length, 15: ids.length, 60: 1 });
      // Every item taken: the next run finds none of them.
      expect((await sweeper(mine, clockAt(at)).run()).seen).toBe(0);
    });

    it('stops cleanly when its time runs out, and the next run takes what it left, each item once', async () => {
      const at = new Date().toISOString();
      const { ids, mine } = await backlog(3 * SHARD_PAGE + 5, 20, at);
      // Each restart takes 100 ms of the run's time: after 35, no more than the margin is left.
      const first = sweeper(mine, clockAt(at), dynamoDueWork, () => MARGIN_MS + 3_500 - 100 * first.sent.length);
      const report = await first.run();
      // Groups of ten: it started a fourth with 500 ms to spare over its margin, and no fifth.
      expect(report.restarted.delivery).toBe(40);
      expect(report.stoppedForTime).toBe(true);
      expect(report.shardsLeft).toBeGreaterThanOrEqual(1);
      expect(report.failures).toEqual([]);
      // What it did not reach is still due when it was, unclaimed.
      const left = ids.filter((id) => !first.sent.includes(id));
      expect(left).toHaveLength(ids.length - 40);
      for (const id of left.slice(0, 5)) {
        expect(await dueEntryOf(`DELIVERY#${id}`)).toBe((await dynamoDeliveryStore.get(id))!.next_attempt_at);
      }
      const next = sweeper(mine, clockAt(at));
      const after = await next.run();
      expect(after.stoppedForTime).toBe(false);
      expect(next.sent.sort()).toEqual(left.sort());
      expect([...first.sent, ...next.sent].sort()).toEqual([...ids].sort());
    });
  });
});
