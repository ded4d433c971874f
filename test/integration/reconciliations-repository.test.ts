/**
 * The reconciliation's store against DynamoDB Local (shared/data/reconciliations-repository.ts): a
 * run's writes hold only while its file is the day's (a day sent again stops the old run at its next
 * write); a run again finds what it wrote (its breaks counted once, its result and event written once);
 * the old file's breaks taken out of the day's list and its count; and the transfers settled on a
 * Bogotá day found by the day their settlement wrote them under.
 */
import { randomUUID } from 'node:crypto';
import { colombiaDay } from '../../shared/calendar/colombia-days';
import type { DomainEvent } from '../../shared/domain/events';
import { parsePageRequest } from '../../shared/domain/lists';
import type { StoredBreak, StoredReconciliation } from '../../shared/domain/reconciliations';
import { settlementFileName, type StoredSettlementFile } from '../../shared/domain/settlement-files';
import { getEvent } from '../../shared/data/events';
import {
  dynamoReconciliationStore as store,
  receiveSettlementFileRecord,
} from '../../shared/data/reconciliations-repository';
import { dynamoSettledDay, settledPaymentPut } from '../../shared/data/settled-transfers';
import { transactWrite } from '../../shared/data/transactions';
import type { StoredPayment } from '../../shared/domain/payments';
import { createTestTable, type TestTable } from '../support/dynamo-table';

let table: TestTable;
beforeAll(async () => {
  table = await createTestTable('reconciliations');
});
afterAll(async () => {
  await table.drop();
});

let days = 0;
/** A day no other test of the file uses. */
const aDay = () => `2026-01-${String(++days).padStart(2, '0')}`;
const AT = '2026-02-01T12:00:00.000Z';

async function received(date: string): Promise<StoredSettlementFile> {
  const version = randomUUID();
  const file: StoredSettlementFile = {
    date,
    version,
    file: settlementFileName(date, version),
    line_count: 1,
    status: 'PENDING',
    received_at: AT,
    runs: 0,
  };
  await receiveSettlementFileRecord(file);
  return file;
}

const breakOf = (tenant: string, file: StoredSettlementFile, n: number): StoredBreak => ({
  id: randomUUID(),
  tenant,
  date: file.date,
  version: file.version,
  kind: 'MISSING_HERE',
  end_to_end_id: `E${n}`,
  direction: 'CREDIT',
  account_id: randomUUID(),
  amount_at_bank_cents: 100 * n,
  created_at: AT,
  updated_at: AT,
});

const summaryOf = (tenant: string, file: StoredSettlementFile, breaks: number): StoredReconciliation => ({
  tenant,
  date: file.date,
  version: file.version,
  status: breaks ? 'BREAKS' : 'MATCHED',
  matched_count: 0,
  matched_amount_cents: 0,
  break_count: breaks,
  completed_at: AT,
});

const eventOf = (tenant: string): DomainEvent => ({
  id: randomUUID(),
  tenant,
  type: 'reconciliation.completed',
  created_at: AT,
  data: {},
});

/** The client's breaks of the day as its list answers them: their ids and the list's total. */
async function listed(tenant: string, date: string) {
  const page = await store.list(tenant, { date }, parsePageRequest({ page_size: 100 }, new Date().toISOString()));
  return { ids: page.items.map((b) => b.id).sort(), total: page.total };
}

it('a run again finds what it wrote: its breaks counted once, its result and event written once', async () => {
  const tenant = `client-${randomUUID()}`;
  const file = await received(aDay());
  // 25 breaks: more than one transaction's worth, so a run again meets some written, some not.
  const breaks = Array.from({ length: 25 }, (_, n) => breakOf(tenant, file, n + 1));
  expect(await store.addBreaks(file.date, file.version, breaks.slice(0, 22))).toBe(true);
  expect(await store.addBreaks(file.date, file.version, breaks)).toBe(true);
  expect(await listed(tenant, file.date)).toEqual({ ids: breaks.map((b) => b.id).sort(), total: 25 });

  const event = eventOf(tenant);
  expect(await store.finishTenant(summaryOf(tenant, file, 25), event)).toBe('written');
  expect(await store.finishTenant(summaryOf(tenant, file, 25), eventOf(tenant))).toBe('done');
  expect(await store.summary(tenant, file.date)).toMatchObject({ version: file.version, break_count: 25 });
  expect(await getEvent(event.id)).toMatchObject({ tenant, type: 'reconciliation.completed' });
});

it("a day sent again stops the old file's run at its next write, and its breaks leave the day's list", async () => {
  const tenant = `client-${randomUUID()}`;
  const date = aDay();
  const first = await received(date);
  const old = [breakOf(tenant, first, 1), breakOf(tenant, first, 2)];
  expect(await store.addBreaks(date, first.version, old)).toBe(true);
  expect(await store.finishTenant(summaryOf(tenant, first, 2), eventOf(tenant))).toBe('written');

  const second = await received(date);
  // The old run goes on: each of its writes is refused, nothing of it is written.
  expect(await store.startRun(date, first.version, AT)).toBeUndefined();
  expect(await store.addBreaks(date, first.version, [breakOf(tenant, first, 3)])).toBe(false);
  expect(await store.addBreaks(date, first.version, [])).toBe(false);
  expect(await store.finishTenant(summaryOf(tenant, first, 3), eventOf(tenant))).toBe('replaced');
  expect(await store.complete({ ...first, status: 'COMPLETED', completed_at: AT })).toBe(false);
  expect(await listed(tenant, date)).toEqual({ ids: old.map((b) => b.id).sort(), total: 2 });

  // The new file's run: its own break, its result over the old one, and the old breaks taken away.
  expect(await store.startRun(date, second.version, AT)).toMatchObject({ version: second.version, runs: 1 });
  const fresh = breakOf(tenant, second, 9);
  expect(await store.addBreaks(date, second.version, [fresh])).toBe(true);
  // The old run, still going, would take the new file's break for a stale one: refused, nothing deleted.
  expect(await store.removeStaleBreaks(tenant, date, first.version)).toBeUndefined();
  expect((await listed(tenant, date)).total).toBe(3);
  expect(await store.removeStaleBreaks(tenant, date, second.version)).toBe(2);
  expect(await listed(tenant, date)).toEqual({ ids: [fresh.id], total: 1 });
  expect(await store.finishTenant(summaryOf(tenant, second, 1), eventOf(tenant))).toBe('written');
  expect(await store.complete({ ...second, status: 'COMPLETED', completed_at: AT })).toBe(true);
  expect(await store.file(date)).toMatchObject({ version: second.version, status: 'COMPLETED' });
  expect((await store.summaries(date)).map((s) => [s.tenant, s.version])).toEqual([[tenant, second.version]]);
});

it("another client's breaks of the same day are in neither list", async () => {
  const [a, b] = [`client-${randomUUID()}`, `client-${randomUUID()}`];
  const file = await received(aDay());
  const ofA = breakOf(a, file, 1);
  const ofB = breakOf(b, file, 2);
  expect(await store.addBreaks(file.date, file.version, [ofA, ofB])).toBe(true);
  expect(await listed(a, file.date)).toEqual({ ids: [ofA.id], total: 1 });
  expect(await listed(b, file.date)).toEqual({ ids: [ofB.id], total: 1 });
});

it('a settled transfer is found under the Bogotá day of its settlement, not its UTC day', async () => {
  // 03:00 UTC on the 10th is 22:00 on the 9th in Bogotá.
  const settledAt = '2026-03-10T03:00:00.000Z';
  const payment = {
    id: randomUUID(),
    tenant: 'client-x',
    customer_id: randomUUID(),
    account_id: randomUUID(),
    direction: 'INBOUND',
    status: 'SETTLED',
    amount_cents: 4_200,
    end_to_end_id: 'BANKE2E1',
    counterparty: { owner: {}, participant: { name: 'Banco Ejemplo', identification_number: '860000002' } },
    created_at: settledAt,
    updated_at: settledAt,
    settled_at: settledAt,
  } as StoredPayment;
  await transactWrite({ TransactItems: settledPaymentPut(payment) });
  expect(settledPaymentPut({ ...payment, status: 'REJECTED' })).toEqual([]);
  const found = async (date: string) => {
    const all = [];
    for await (const page of dynamoSettledDay.day(date)) all.push(...page);
    return all.filter((entry) => entry.id === payment.id);
  };
  expect(colombiaDay(settledAt)).toBe('2026-03-09');
  expect(await found('2026-03-09')).toEqual([
    {
      kind: 'payment',
      id: payment.id,
      tenant: 'client-x',
      account_id: payment.account_id,
      direction: 'CREDIT',
      amount_cents: 4_200,
      end_to_end_id: 'BANKE2E1',
      counterparty_nit: '860000002',
    },
  ]);
  expect(await found('2026-03-10')).toEqual([]);
});
