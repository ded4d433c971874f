/**
 * Report runs against DynamoDB Local (docs/reconciliation.md, "Reports"): a report of 10,000 payments
 * is written a page at a time (every write of the file holds one page at most, and each follows the
 * read of its page, before the next page is read), into a file csv-parse reads back whole and in
 * order; a run that throws leaves no file and the report PENDING for the next; a report that fails
 * its MAX_REPORT_RUNS runs is FAILED; a finished report is left as it is.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { StoredPayment } from '../../shared/domain/payments';
import {
  MAX_PENDING_REPORTS,
  MAX_REPORT_RUNS,
  reportFile,
  reportFolder,
  runReport,
  type ReportFiles,
  type RunReportDeps,
  type StoredReport,
} from '../../shared/domain/reports';
import type { ReportSources } from '../../shared/domain/report-types';
import { uuidIds } from '../../shared/domain/clock';
import { dynamoAccountStore } from '../../shared/data/accounts-repository';
import { dynamoCustomerStore } from '../../shared/data/customers-repository';
import { collectionKeys, itemKeys } from '../../shared/data/item-keys';
import { dynamoLedgerStore } from '../../shared/data/ledger-repository';
import { localReportFiles } from '../../shared/data/local-report-files';
import { dynamoPaymentStore } from '../../shared/data/payments-repository';
import { dynamoRefundStore } from '../../shared/data/refunds-repository';
import { dynamoReportStore } from '../../shared/data/reports-repository';
import { MAX_PAGE_SIZE } from '../../shared/schemas/lists';
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

function recordedDeps(steps: Step[], files: ReportFiles = localReportFiles): RunReportDeps {
  const payments: ReportSources['payments'] = {
    walk: async (tenant, filters, request, after) => {
      const page = await dynamoPaymentStore.walk(tenant, filters, request, after);
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
    clock: { now: () => new Date().toISOString() },
    ids: uuidIds,
    runMs: 60_000,
  };
}

it(`writes a report of ${ROWS.toLocaleString('en')} payments a page at a time, never holding more`, async () => {
  const tenant = `tenant-${randomUUID()}`;
  const payments = await storedPayments(tenant, ROWS);
  const report = await pendingReport(tenant);
  const steps: Step[] = [];
  const heapBefore = process.memoryUsage().heapUsed;

  const done = await runReport(recordedDeps(steps), report.id);

  expect(done).toMatchObject({ status: 'SUCCEEDED', row_count: ROWS });
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'SUCCEEDED', row_count: ROWS, runs: 1 });
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
  await expect(runReport(recordedDeps([], failing), report.id)).rejects.toThrow('S3 is down');
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'PENDING', runs: 1 });
  // Its client's folder holds nothing of it: neither the file nor a part file.
  expect(readdirSync(join(folder, 'reports', reportFolder(tenant))).filter((n) => n.startsWith(report.id))).toEqual([]);

  for (let run = 2; run <= MAX_REPORT_RUNS; run += 1) {
    writes = 0;
    await expect(runReport(recordedDeps([], failing), report.id)).rejects.toThrow('S3 is down');
  }
  const failed = await runReport(recordedDeps([], failing), report.id);
  expect(failed).toMatchObject({
    status: 'FAILED',
    failure_reason: expect.stringContaining(`${MAX_REPORT_RUNS} runs`),
  });
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'FAILED', runs: MAX_REPORT_RUNS + 1 });

  // A finished report is left as it is: a late message runs nothing.
  const steps: Step[] = [];
  expect(await runReport(recordedDeps(steps), report.id)).toMatchObject({ status: 'FAILED' });
  expect(steps).toEqual([]);
});

it('two runs at once finish the report once, with one event', async () => {
  const tenant = `tenant-${randomUUID()}`;
  await storedPayments(tenant, 120);
  const report = await pendingReport(tenant);
  const [a, b] = await Promise.all([runReport(recordedDeps([]), report.id), runReport(recordedDeps([]), report.id)]);
  expect([a?.status, b?.status]).toEqual(['SUCCEEDED', 'SUCCEEDED']);
  expect(await dynamoReportStore.get(report.id)).toMatchObject({ status: 'SUCCEEDED', row_count: 120 });
  const events = await table.scan((item) => item['entity'] === 'EVENT' && item['data']?.id === report.id);
  expect(events.map((event) => event['type'])).toEqual(['report.ready']);
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
