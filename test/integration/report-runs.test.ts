/**
 * Report runs against DynamoDB Local (docs/reconciliation.md, "Reports"): a report of 10,000 payments
 * is written a page at a time (every write of the file holds one page at most, and each follows the
 * read of its page, before the next page is read), into a file csv-parse reads back whole and in
 * order; a run that throws leaves no file and the report PENDING for the next; a report that fails
 * its MAX_REPORT_RUNS runs is FAILED; a finished report is left as it is. Each run holds the report
 * under a lease: a second run at once does nothing and spends no run; a run that lost its lease marks
 * nothing over the run that took it; a run that throws gives its lease back; and the sweeper leaves a
 * report alone while a lease on it is live.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { AppError } from '../../shared/domain/errors';
import { later, type StoredPayment } from '../../shared/domain/payments';
import {
  MAX_PENDING_REPORTS,
  reportFile,
  reportFolder,
  type ReportFiles,
  type StoredReport,
} from '../../shared/domain/reports';
import {
  MAX_REPORT_RUNS,
  REPORT_LEASE_MARGIN_MS,
  runReport,
  type ReportRun,
  type RunReportDeps,
} from '../../shared/domain/report-runs';
import type { ReportSources } from '../../shared/domain/report-types';
import { sweep, type SweepReport } from '../../shared/domain/sweep';
import { uuidIds, type Clock } from '../../shared/domain/clock';
import { dynamoDeliveryStore } from '../../shared/data/deliveries-repository';
import { dynamoDueWork } from '../../shared/data/due-work';
import { dynamoDispatchedEvents } from '../../shared/data/events';
import { dynamoWebhookStore } from '../../shared/data/webhooks-repository';
import { dynamoAccountStore } from '../../shared/data/accounts-repository';
import { dynamoCustomerStore } from '../../shared/data/customers-repository';
import { collectionKeys, itemKeys } from '../../shared/data/item-keys';
import { dynamoLedgerStore } from '../../shared/data/ledger-repository';
import { localReportFiles } from '../../shared/data/local-report-files';
import { dynamoPaymentReads } from '../../shared/data/payment-reads';
import { dynamoRefundStore } from '../../shared/data/refunds-repository';
import { dynamoReportStore } from '../../shared/data/reports-repository';
import { MAX_PAGE_SIZE } from '../../shared/schemas/bounds';
import { ENV } from '../../shared/runtime/config';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import { parseCsv } from '../support/reports';

let table: TestTable;
let folder: string;
beforeAll(async () => {
  table = await createTestTable('report-runs');
  folder = mkdtempSync(join(tmpdir(), 'report-runs-'));
  process.env[ENV.reportFilesDir] = folder;
});
afterAll(async () => {
  await table.drop();
  rmSync(folder, { recursive: true, force: true });
});

const ROWS = 10_000;
const BASE = Date.parse('2026-02-01T12:00:00.000Z');

/** `count` SETTLED payments of one customer, a second apart, written straight into the table (25 a call). */
async function storedPayments(tenant: string, count: number): Promise<StoredPayment[]> {
  const customerId = randomUUID();
  const payments = Array.from({ length: count }, (_, i): StoredPayment => {
    const at = new Date(BASE + i * 1000).toISOString();
    return {
      id: randomUUID(),
      tenant,
      customer_id: customerId,
      account_id: randomUUID(),
      direction: i % 2 === 0 ? 'INBOUND' : 'OUTBOUND',
      status: 'SETTLED',
      amount_cents: 1_00 + i,
      description: `Factura ${i}, "pagada"`,
      counterparty: {
        owner: { identification_type: 'CC', identification_number: String(1000 + i), type: 'PERSON' },
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
        account: { account_number: String(i), account_type: 'SAVINGS' },
      },
      created_at: at,
      updated_at: at,
      settled_at: at,
    };
  });
  const batches: StoredPayment[][] = [];
  for (let i = 0; i < payments.length; i += 25) batches.push(payments.slice(i, i + 25));
  // A few calls at once: DynamoDB Local serialises them anyway.
  for (let i = 0; i < batches.length; i += 8) {
    await Promise.all(
      batches.slice(i, i + 8).map((batch) =>
        table.documents.send(
          new BatchWriteCommand({
            RequestItems: {
              [table.tableName]: batch.map((payment) => ({
                PutRequest: {
                  Item: {
                    ...itemKeys.payment(payment.id),
                    ...collectionKeys(
                      tenant,
                      'PAYMENT',
                      payment.id,
                      payment.created_at,
                      payment.updated_at,
                      `CUSTOMER#${payment.customer_id}`,
                    ),
                    entity: 'PAYMENT',
                    ...payment,
                  },
                },
              })),
            },
          }),
        ),
      ),
    );
  }
  return payments;
}

/** A new PENDING report of February's payments, not stored yet. */
const newReport = (tenant: string, created_at = new Date().toISOString()): StoredReport => ({
  id: randomUUID(),
  tenant,
  type: 'payments',
  created_from: '2026-02-01',
  created_to: '2026-02-28',
  status: 'PENDING',
  runs: 0,
  created_at,
  updated_at: created_at,
});

async function pendingReport(tenant: string, created_at = new Date().toISOString()): Promise<StoredReport> {
  const report = newReport(tenant, created_at);
  // Far above the client's limit: these tests run many reports of one client, not the limit.
  await dynamoReportStore.insert(report, 1_000);
  return report;
}

/** What happened, in order: each page read from the payments list, each write of the file (its rows). */
type Step = { readonly read: number } | { readonly wrote: number };

/** Before each page read of a run, when given: a test holds a run there, or fails it. */
type BeforeRead = () => Promise<void>;

function recordedDeps(
  steps: Step[],
  files: ReportFiles = localReportFiles,
  { clock = { now: () => new Date().toISOString() }, beforeRead }: { clock?: Clock; beforeRead?: BeforeRead } = {},
): RunReportDeps {
  const payments: ReportSources['payments'] = {
    walk: async (tenant, filters, request, after) => {
      await beforeRead?.();
      const page = await dynamoPaymentReads.walk(tenant, filters, request, after);
      steps.push({ read: page.items.length });
      return page;
    },
  };
  return {
    reports: dynamoReportStore,
    sources: {
      payments,
      accounts: dynamoAccountStore,
      ledger: dynamoLedgerStore,
      refunds: dynamoRefundStore,
      customers: dynamoCustomerStore,
    },
    files: {
      create: async (name) => {
        const writer = await files.create(name);
        return {
          ...writer,
          write: (text) => {
            // Rows end in CRLF; the descriptions hold none.
            steps.push({ wrote: text.split('\r\n').length - 1 });
            return writer.write(text);
          },
        };
      },
    },
    clock,
    ids: uuidIds,
    runMs: RUN_MS,
  };
}

/** The worker's timeout in these tests: a lease lasts that and REPORT_LEASE_MARGIN_MS. */
const RUN_MS = 60_000;

/** One run, by an owner of its own (a message of its own), as the worker makes it. */
const runOnce = (deps: RunReportDeps, id: string, owner: string = `request-${randomUUID()}/message-${randomUUID()}`) =>
  runReport(deps, id, owner);

/** The report's item as stored: its lease and due time included. */
async function storedItem(id: string): Promise<Record<string, unknown>> {
  // A read of its key: a scan would read the 10,000 payments of the first test each time.
  const { Item } = await table.documents.send(
    new GetCommand({ TableName: table.tableName, Key: itemKeys.report(id), ConsistentRead: true }),
  );
  return Item!;
}

/** A promise and the function that settles it: a test's gate. */
function gate(): { readonly opened: Promise<void>; readonly open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

it(`writes a report of ${ROWS.toLocaleString('en')} payments a page at a time, never holding more`, async () => {
  const tenant = `tenant-${randomUUID()}`;
  const payments = await storedPayments(tenant, ROWS);
  const report = await pendingReport(tenant);
  const steps: Step[] = [];
  const heapBefore = process.memoryUsage().heapUsed;

  const done = await runOnce(recordedDeps(steps), report.id);

  expect(done).toMatchObject({ run: 'finished', report: { status: 'SUCCEEDED', row_count: ROWS } });
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'SUCCEEDED', row_count: ROWS, runs: 1 });
  // Finished, it is out of the due work and holds no lease.
  const item = await storedItem(report.id);
  expect(Object.keys(item).filter((name) => name.startsWith('due') || name.startsWith('lease_'))).toEqual([]);
  // The header, then one write per page read, each right after its read: never two reads in a row,
  // never more rows in a write than a page holds.
  const pages = Math.ceil(ROWS / MAX_PAGE_SIZE);
  expect(steps[0]).toEqual({ wrote: 1 });
  // Each page is read from where the last ended; the last page is full, so only an empty read ends the walk.
  expect(steps.slice(1)).toEqual([
    ...Array.from({ length: pages }, () => [{ read: MAX_PAGE_SIZE }, { wrote: MAX_PAGE_SIZE }]).flat(),
    { read: 0 },
  ]);
  console.info(
    `${ROWS} rows in ${pages} pages; heap ${Math.round((process.memoryUsage().heapUsed - heapBefore) / 1e6)} MB apart from before the run`,
  );

  const { header, rows } = parseCsv(readFileSync(join(folder, reportFile(report)), 'utf8'));
  expect(header.slice(0, 3)).toEqual(['id', 'status', 'direction']);
  expect(rows.map((row) => row['id'])).toEqual(payments.map((payment) => payment.id));
  expect(rows[ROWS - 1]).toMatchObject({ amount_value: '100.99', description: `Factura ${ROWS - 1}, "pagada"` });
  // Written whole or not at all, in its client's folder: no part file is left beside it.
  const clientFolder = join(folder, 'reports', reportFolder(report.tenant));
  expect(readdirSync(clientFolder)).toContain(`${report.id}.csv`);
  expect(readdirSync(clientFolder).filter((name) => name.endsWith('.part'))).toEqual([]);
}, 300_000);

it('a run that throws leaves no file and the report PENDING; past its runs it is FAILED; finished, it stays so', async () => {
  const tenant = `tenant-${randomUUID()}`;
  await storedPayments(tenant, 150);
  const report = await pendingReport(tenant);
  let writes = 0;
  const failing: ReportFiles = {
    ...localReportFiles,
    create: async (name) => {
      const writer = await localReportFiles.create(name);
      return {
        ...writer,
        write: async (text) => {
          // The second page's write fails, as an S3 outage would.
          if (++writes === 3) throw new Error('S3 is down');
          return writer.write(text);
        },
      };
    },
  };
  await expect(runOnce(recordedDeps([], failing), report.id)).rejects.toThrow('S3 is down');
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'PENDING', runs: 1 });
  // Its client's folder holds nothing of it: neither the file nor a part file.
  expect(readdirSync(join(folder, 'reports', reportFolder(tenant))).filter((n) => n.startsWith(report.id))).toEqual([]);

  for (let run = 2; run <= MAX_REPORT_RUNS; run += 1) {
    writes = 0;
    await expect(runOnce(recordedDeps([], failing), report.id)).rejects.toThrow('S3 is down');
  }
  const failed = await runOnce(recordedDeps([], failing), report.id);
  expect(failed).toMatchObject({
    run: 'finished',
    report: { status: 'FAILED', failure_reason: expect.stringContaining(`${MAX_REPORT_RUNS} runs`) },
  });
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'FAILED', runs: MAX_REPORT_RUNS + 1 });

  // A finished report is left as it is: a late message runs nothing.
  const steps: Step[] = [];
  expect(await runOnce(recordedDeps(steps), report.id)).toMatchObject({ run: 'none', report: { status: 'FAILED' } });
  expect(steps).toEqual([]);
});

/** The events of the report (a scan of the table: slow once the first test's payments are in it). */
const readyEvents = async (id: string) =>
  (await table.scan((item) => item['entity'] === 'EVENT' && item['data']?.id === id)).map((event) => event['type']);

it('two runs at once: one runs and finishes the report, the other answers without running, and spends no run', async () => {
  const tenant = `tenant-${randomUUID()}`;
  await storedPayments(tenant, 120);
  const report = await pendingReport(tenant);
  const steps: [Step[], Step[]] = [[], []];
  const runs = await Promise.all([
    runOnce(recordedDeps(steps[0]), report.id),
    runOnce(recordedDeps(steps[1]), report.id),
  ]);
  const winner = runs.findIndex((run) => run.run === 'finished');
  const loser = 1 - winner;
  expect(runs[winner]).toMatchObject({ run: 'finished', report: { status: 'SUCCEEDED', row_count: 120 } });
  expect(runs[loser]).toMatchObject({ run: 'leased', report: { status: 'PENDING' } });
  // The refused run read nothing and wrote nothing: no page, no file.
  expect(steps[loser]).toEqual([]);
  expect(steps[winner]!.length).toBeGreaterThan(0);
  // The report SUCCEEDED once, with one event, and one run counted.
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'SUCCEEDED', row_count: 120, runs: 1 });
  expect(await readyEvents(report.id)).toEqual(['report.ready']);
}, 120_000);

it('a run whose lease ended and was taken marks nothing: the run that took it finishes the report', async () => {
  const tenant = `tenant-${randomUUID()}`;
  await storedPayments(tenant, 30);
  const report = await pendingReport(tenant);
  // The first run took the report an hour ago (its clock's first reading), so its lease ended long
  // ago: a run that outlived its time. It is held at its first read, then its list refuses it (a 4xx:
  // it would mark the report FAILED).
  const firstReads = gate();
  const firstGoesOn = gate();
  let readings = 0;
  const first = runOnce(
    recordedDeps([], localReportFiles, {
      clock: { now: () => later(new Date().toISOString(), ++readings === 1 ? -60 * 60_000 : 0) },
      beforeRead: async () => {
        firstReads.open();
        await firstGoesOn.opened;
        throw new AppError('NOT_FOUND', 'Account gone');
      },
    }),
    report.id,
    'first-owner',
  );
  await firstReads.opened;
  // The second run takes the report (the first's lease has ended), and is held at its first read.
  const secondReads = gate();
  const secondGoesOn = gate();
  const second = runOnce(
    recordedDeps([], localReportFiles, {
      beforeRead: async () => {
        secondReads.open();
        await secondGoesOn.opened;
      },
    }),
    report.id,
    'second-owner',
  );
  await secondReads.opened;
  expect(await storedItem(report.id)).toMatchObject({ lease_owner: 'second-owner', runs: 2 });

  // The first run would mark FAILED: it no longer holds the lease, so the report stays PENDING, the second's.
  firstGoesOn.open();
  const lost: ReportRun = await first;
  expect(lost).toMatchObject({ run: 'lost', report: { status: 'PENDING', lease_owner: 'second-owner' } });
  expect(await storedItem(report.id)).toMatchObject({ status: 'PENDING', lease_owner: 'second-owner' });

  secondGoesOn.open();
  expect(await second).toMatchObject({ run: 'finished', report: { status: 'SUCCEEDED', row_count: 30 } });
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'SUCCEEDED', row_count: 30 });
  expect(await readyEvents(report.id)).toEqual(['report.ready']);
  // Nor does a late finish of the first land over the second's outcome.
  const late = { ...report, status: 'FAILED' as const, failure_reason: 'late', lease_owner: 'first-owner' };
  expect(await dynamoReportStore.fail({ ...late, updated_at: new Date().toISOString() })).toBe(false);
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'SUCCEEDED' });
}, 120_000);

it("a run that throws gives its lease back: the queue's retry runs at once", async () => {
  const tenant = `tenant-${randomUUID()}`;
  await storedPayments(tenant, 10);
  const report = await pendingReport(tenant);
  let reads = 0;
  const outage = recordedDeps([], localReportFiles, {
    beforeRead: async () => {
      if (++reads === 1) throw new Error('DynamoDB is down');
    },
  });
  await expect(runOnce(outage, report.id, 'thrown-owner')).rejects.toThrow('DynamoDB is down');
  // No lease left; the due time stays at the lease's end, for the sweeper should the retry be lost too.
  const item = await storedItem(report.id);
  expect(item).toMatchObject({ status: 'PENDING', runs: 1 });
  expect(item['lease_owner']).toBeUndefined();
  expect(Date.parse(String(item['duesk']))).toBeGreaterThan(Date.now() + RUN_MS);

  const steps: Step[] = [];
  expect(await runOnce(recordedDeps(steps), report.id)).toMatchObject({
    run: 'finished',
    report: { status: 'SUCCEEDED', row_count: 10 },
  });
  expect(steps.length).toBeGreaterThan(0);
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ runs: 2 });
});

it("the sweeper leaves a report alone while a run's lease is live, whatever its due time, and restarts it after", async () => {
  const tenant = `tenant-${randomUUID()}`;
  const report = await pendingReport(tenant);
  const now = new Date().toISOString();
  const leaseEnds = later(now, RUN_MS + REPORT_LEASE_MARGIN_MS);
  expect(await dynamoReportStore.startRun(report.id, { owner: 'live-owner', expiresAt: leaseEnds }, now)).toMatchObject(
    { lease_owner: 'live-owner', lease_expires_at: leaseEnds, runs: 1 },
  );
  expect(await storedItem(report.id)).toMatchObject({ duesk: leaseEnds });
  // A due time long past (as a run whose clock was behind the sweeper's would leave): the index offers
  // the report to every sweep.
  const past = later(now, -60 * 60_000);
  await table.documents.send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: itemKeys.report(report.id),
      UpdateExpression: 'SET duesk = :past',
      ExpressionAttributeValues: { ':past': past },
    }),
  );

  const queued: string[] = [];
  const sweepAt = (at: string): Promise<SweepReport> => {
    const clock: Clock = { now: () => at };
    const deliveries = { send: async () => undefined };
    return sweep({
      // Other tests of the file leave reports due too: this sweep sees this report alone.
      due: {
        ...dynamoDueWork,
        page: async (shard, upTo, limit, after) => {
          const page = await dynamoDueWork.page(shard, upTo, limit, after);
          return { ...page, entries: page.entries.filter((entry) => entry.ref === `REPORT#${report.id}`) };
        },
      },
      settlement: { schedule: async () => undefined },
      refunds: { schedule: async () => undefined },
      deliveries,
      reports: { run: async (id) => void queued.push(id) },
      reconciliations: { run: async () => undefined },
      dispatch: {
        webhooks: dynamoWebhookStore,
        deliveries: dynamoDeliveryStore,
        events: dynamoDispatchedEvents,
        queue: deliveries,
        clock,
      },
      clock,
      graceMs: 2 * 60_000,
      holdMs: { payment: 0, refund: 0, delivery: 0, event: 0, report: 90 * 60_000, reconciliation: 0 },
      remainingMs: () => 60_000,
      marginMs: 10_000,
    });
  };

  // Under the live lease: found, not taken, not queued, its due time as it was.
  const during = await sweepAt(new Date().toISOString());
  expect(during.seen).toBe(1);
  expect(during.restarted.report).toBe(0);
  expect(queued).toEqual([]);
  expect(await storedItem(report.id)).toMatchObject({ duesk: past, lease_owner: 'live-owner' });

  // Once the lease has ended (its run was lost), the sweeper queues the report again.
  const after = await sweepAt(later(leaseEnds, 1));
  expect(after.restarted.report).toBe(1);
  expect(queued).toEqual([report.id]);
});

it(`a client's PENDING reports are ${MAX_PENDING_REPORTS} at most, exactly under a race; a finished one frees a place`, async () => {
  const tenant = `tenant-${randomUUID()}`;
  const report = (): StoredReport => newReport(tenant);
  const candidates = Array.from({ length: MAX_PENDING_REPORTS + 3 }, report);
  const outcomes = await Promise.all(candidates.map((r) => dynamoReportStore.insert(r, MAX_PENDING_REPORTS)));
  expect(outcomes.filter((outcome) => outcome === 'inserted')).toHaveLength(MAX_PENDING_REPORTS);
  expect(outcomes.filter((outcome) => outcome === 'busy')).toHaveLength(3);
  // A refused create wrote nothing.
  const refused = candidates.filter((_, i) => outcomes[i] === 'busy');
  for (const r of refused) await expect(dynamoReportStore.get(r.id)).resolves.toBeUndefined();
  // Another client's count is its own.
  await expect(
    dynamoReportStore.insert({ ...report(), tenant: `tenant-${randomUUID()}` }, MAX_PENDING_REPORTS),
  ).resolves.toBe('inserted');

  // A report that fails, or succeeds, frees its place; a second finish of it frees nothing more.
  const [first, second] = candidates.filter((_, i) => outcomes[i] === 'inserted') as [StoredReport, StoredReport];
  const now = new Date().toISOString();
  expect(await dynamoReportStore.fail({ ...first, status: 'FAILED', failure_reason: 'test', updated_at: now })).toBe(
    true,
  );
  expect(await dynamoReportStore.fail({ ...first, status: 'FAILED', failure_reason: 'test', updated_at: now })).toBe(
    false,
  );
  await expect(dynamoReportStore.insert(report(), MAX_PENDING_REPORTS)).resolves.toBe('inserted');
  await expect(dynamoReportStore.insert(report(), MAX_PENDING_REPORTS)).resolves.toBe('busy');
  expect(second.status).toBe('PENDING');
});
