/**
 * The ledger's statements against DynamoDB Local (docs/reconciliation.md). As a property (fast-check,
 * fixed seed): on an account opened on a past day, any run of credits and debits over the days after
 * it (some debits not covered, some of them refunds of the payments received, some refunds rejected
 * later, which releases their hold; some moves dated just before the day the ledger is already on, as
 * a commit just after midnight meets them) gives, for every day from the one before the opening to the
 * one after the last move, the statement a model of the accepted moves gives: the opening balance is
 * the sum of every earlier move, the credits and debits are the day's, closing = opening + credits -
 * debits, and each day closes where the next opens. The movements list adds up to the balance and
 * answers each refund's movements with the refund.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { colombiaDay, dayBounds } from '../../shared/calendar/colombia-days';
import { getStatement, listMovements, type LedgerDeps, type Statement } from '../../shared/domain/ledger';
import { parsePageRequest } from '../../shared/domain/lists';
import { parseCents } from '../../shared/domain/money';
import { dynamoAccountStore } from '../../shared/data/accounts-repository';
import { MOVED_TO_BALANCE_ITEM, moveLegacyBalance } from '../../shared/data/balances';
import { dynamo } from '../../shared/data/client';
import { dynamoCustomerStore } from '../../shared/data/customers-repository';
import { itemKeys } from '../../shared/data/item-keys';
import { dynamoLedgerStore, movementSource, readLedgerDay } from '../../shared/data/ledger-repository';
import { listPage } from '../../shared/data/pagination';
import { PAYMENT_EXISTS } from '../../shared/data/payments-repository';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import type { StoredAccount } from '../../shared/domain/accounts';
import type { StoredPayment } from '../../shared/domain/payments';
import type { StoredRefund } from '../../shared/domain/refunds';
import { moveAt, paymentAt, refundAt, rejectRefundAt, writeMove } from '../support/ledger';
import { ledgerOf } from '../support/payments';
import { insertAccount, insertOwner } from '../support/stored-entities';

let table: TestTable;
beforeAll(async () => {
  table = await createTestTable('ledger');
});
afterAll(() => table.drop());

const deps: LedgerDeps = { accounts: dynamoAccountStore, ledger: dynamoLedgerStore };
const HOUR = 60 * 60 * 1000;
const OPENED_AT = '2026-03-01T14:00:00.000Z';
const OPENING_CENTS = 500_00;

const nextDay = (day: string): string => colombiaDay(new Date(Date.parse(dayBounds(day).end) + 1).toISOString());

async function accountOpenedAt(at: string, cents: number) {
  const { customer } = await insertOwner({ customers: dynamoCustomerStore, accounts: dynamoAccountStore });
  return insertAccount(dynamoAccountStore, customer, cents, at);
}

/** `refund`: a debit is a refund of a payment received, a credit the rejection of a PENDING refund, when there is one. */
type Move = { readonly gapHours: number; readonly cents: number; readonly late: boolean; readonly refund: boolean };

const move: fc.Arbitrary<Move> = fc.record({
  // Several moves a day, and days without any.
  gapHours: fc.oneof(fc.integer({ min: 0, max: 6 }), fc.integer({ min: 20, max: 80 })),
  cents: fc.oneof(fc.integer({ min: 1, max: 300_00 }), fc.integer({ min: -400_00, max: -1 })),
  late: fc.boolean(),
  refund: fc.boolean(),
});

/** What a run can refund and release: the payments received with what is left of them, the PENDING refunds. */
interface Refundable {
  readonly received: { readonly payment: StoredPayment; left: number }[];
  readonly pending: StoredRefund[];
  readonly made: StoredRefund[];
  readonly released: StoredRefund[];
}

type MoveKind = 'payment' | 'refund' | 'release';

/** The runs' moves written, by kind, and the refunds' moves that were their day's first. */
const tally = { payment: 0, refund: 0, release: 0, refundFirstOfDay: 0 };

/**
 * Makes `amount` on the account at `at`, as the move says: a refund or a release when there is one to
 * make, else a payment. Answers what it moved, checked refused exactly when the balance cannot cover it.
 */
async function makeMove(
  account: StoredAccount,
  refundable: Refundable,
  at: string,
  amount: number,
  asRefund: boolean,
  balance: number,
): Promise<{ readonly kind: MoveKind; readonly cents: number | undefined }> {
  const pending = refundable.pending[0];
  if (asRefund && amount > 0 && pending && pending.created_at <= at) {
    refundable.pending.shift();
    expect(await rejectRefundAt(pending, at)).toBe(true);
    refundable.released.push(pending);
    refundable.received.find((r) => r.payment.id === pending.payment_id)!.left += pending.amount_cents;
    return { kind: 'release', cents: pending.amount_cents };
  }
  const received = refundable.received.find((r) => r.left > 0);
  if (asRefund && amount < 0 && received) {
    // At most what is left of the payment: its remainder is the refunds', not the ledger's, rule.
    const refunded = Math.min(-amount, received.left);
    const made = await refundAt(received.payment, at, refunded);
    if (balance < refunded) {
      expect(made).toBe('insufficient_funds');
      return { kind: 'refund', cents: undefined };
    }
    if (typeof made === 'string') throw new Error(`Refund refused: ${made}`);
    received.left -= refunded;
    refundable.pending.push(made);
    refundable.made.push(made);
    return { kind: 'refund', cents: -refunded };
  }
  const payment = await paymentAt(account, at, amount);
  expect(payment !== undefined).toBe(balance + amount >= 0);
  if (payment && amount > 0) refundable.received.push({ payment, left: amount });
  return { kind: 'payment', cents: payment && amount };
}

const cents = (money: { value: string }): number =>
  money.value.startsWith('-') ? -parseCents(money.value.slice(1)) : parseCents(money.value);

interface ModelMove {
  readonly bookedAt: string;
  readonly cents: number;
}

function expectedStatement(accountId: string, day: string, moves: readonly ModelMove[]): Statement {
  const { start, end } = dayBounds(day);
  const before = moves.filter((m) => m.bookedAt < start).reduce((sum, m) => sum + m.cents, 0);
  const during = moves.filter((m) => m.bookedAt >= start && m.bookedAt <= end);
  const credits = during.filter((m) => m.cents > 0);
  const debits = during.filter((m) => m.cents < 0);
  const sum = (ms: readonly ModelMove[]) => ms.reduce((total, m) => total + Math.abs(m.cents), 0);
  const money = (value: number) => ({ currency: 'COP' as const, value: (value / 100).toFixed(2) });
  return {
    account_id: accountId,
    date: day,
    opening_balance: money(before),
    closing_balance: money(before + sum(credits) - sum(debits)),
    credits: { count: credits.length, amount: money(sum(credits)) },
    debits: { count: debits.length, amount: money(sum(debits)) },
  };
}

it('every day of any run of moves: the statement of the accepted moves, each closing where the next day opens', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(move, { minLength: 1, maxLength: 18 }), async (moves) => {
      const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
      const model: ModelMove[] = [{ bookedAt: OPENED_AT, cents: OPENING_CENTS }];
      let balance = OPENING_CENTS;
      let time = Date.parse(OPENED_AT);
      const refundable: Refundable = { received: [], pending: [], made: [], released: [] };
      for (const { gapHours, cents: amount, late, refund } of moves) {
        time += gapHours * HOUR + 1;
        const onDay = colombiaDay(model.at(-1)!.bookedAt);
        // Dated a millisecond before the day the ledger is on: booked at that day's start.
        const at = late ? new Date(Date.parse(dayBounds(onDay).start) - 1).toISOString() : new Date(time).toISOString();
        const bookedAt = late ? dayBounds(onDay).start : at;
        if (!late && bookedAt < model.at(-1)!.bookedAt) continue;
        const { kind, cents: moved } = await makeMove(account, refundable, at, amount, refund, balance);
        if (moved === undefined) continue;
        tally[kind] += 1;
        const previousDay = colombiaDay(model.at(-1)!.bookedAt);
        if (kind !== 'payment' && colombiaDay(bookedAt) !== previousDay) tally.refundFirstOfDay += 1;
        balance += moved;
        model.push({ bookedAt, cents: moved });
      }
      const now = new Date().toISOString();
      let day = colombiaDay(new Date(Date.parse(OPENED_AT) - 24 * HOUR).toISOString());
      const last = nextDay(colombiaDay(model.at(-1)!.bookedAt));
      let previous: Statement | undefined;
      for (; day <= last; day = nextDay(day)) {
        const statement = await getStatement(deps, account.tenant, account.id, day, now);
        expect(statement).toEqual(expectedStatement(account.id, day, model));
        expect(
          cents(statement.opening_balance) + cents(statement.credits.amount) - cents(statement.debits.amount),
        ).toBe(cents(statement.closing_balance));
        if (previous) expect(statement.opening_balance).toEqual(previous.closing_balance);
        previous = statement;
      }
      const ledger = await ledgerOf(account.id);
      expect([ledger.balanceCents, ledger.movementsCents]).toEqual([balance, balance]);
      // The movements list answers each refund's hold and release with the refund and its payment.
      const listed = await listMovements(deps, account.tenant, account.id, { page_size: 100 }, now);
      const ofRefunds = listed.movements
        .filter((m) => m.refund_id !== undefined)
        .map((m) => [m.kind, m.refund_id, m.payment_id, cents(m.amount)]);
      const expected = [
        ...refundable.made.map((r) => ['REFUND', r.id, r.payment_id, -r.amount_cents]),
        ...refundable.released.map((r) => ['HOLD_RELEASE', r.id, r.payment_id, r.amount_cents]),
      ];
      const byRefund = (a: unknown[], b: unknown[]) => `${a[1]}${a[0]}`.localeCompare(`${b[1]}${b[0]}`);
      expect(ofRefunds.sort(byRefund)).toEqual(expected.sort(byRefund));
    }),
    { numRuns: 12, seed: 3204 },
  );
  // The runs made every kind of move, refund holds and releases among a day's first moves.
  expect(tally).toEqual({
    payment: expect.any(Number),
    refund: expect.any(Number),
    release: expect.any(Number),
    refundFirstOfDay: expect.any(Number),
  });
  expect(Math.min(...Object.values(tally))).toBeGreaterThan(0);
}, 240_000);

it("concurrent first moves of a day: one rolls the account's day, the others follow it; every move counted once", async () => {
  const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
  const at = (minutes: number) => new Date(Date.parse('2026-03-05T15:00:00.000Z') + minutes * 60_000).toISOString();
  const written = await Promise.all(
    Array.from({ length: 12 }, (_, i) => moveAt(account, at(i), i % 2 ? -30_00 : 10_00)),
  );
  expect(written).toEqual(Array(12).fill(true));
  const now = new Date().toISOString();
  const [opened, day] = await Promise.all(
    ['2026-03-01', '2026-03-05'].map((d) => getStatement(deps, account.tenant, account.id, d, now)),
  );
  expect([opened!.closing_balance.value, day!.opening_balance.value, day!.closing_balance.value]).toEqual([
    '500.00',
    '500.00',
    '380.00',
  ]);
  expect([day!.credits.count, day!.debits.count]).toEqual([6, 6]);
  const list = await listMovements(deps, account.tenant, account.id, {}, now);
  expect(list.pagination_info.total_elements).toBe(13);
});

it("copies of a network credit on its account's first move of a day: one credits and rolls the day, each other meets its payment", async () => {
  const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
  // One payment id, as every copy of a credit derives it from the same end-to-end id.
  const paymentId = randomUUID();
  const outcomes = await Promise.all(
    Array.from({ length: 6 }, () => writeMove(account, '2026-03-05T15:00:00.000Z', 25_00, paymentId)),
  );
  // A copy refused for the day it assumed is written again on the day shown; one refused because
  // the payment is there is answered so, never retried nor thrown.
  expect(outcomes.filter((outcome) => outcome.written)).toHaveLength(1);
  for (const outcome of outcomes.filter((o) => !o.written)) {
    expect(outcome.written === false && [...outcome.failed.keys()]).toContain(PAYMENT_EXISTS);
  }
  const now = new Date().toISOString();
  const day = await getStatement(deps, account.tenant, account.id, '2026-03-05', now);
  expect([day!.opening_balance.value, day!.closing_balance.value, day!.credits.count]).toEqual(['500.00', '525.00', 1]);
  const ledger = await ledgerOf(account.id);
  expect([ledger.balanceCents, ledger.movementsCents]).toEqual([525_00, 525_00]);
});

it("a refund as a day's first move: refused for the funds without rolling the day, else rolling it, as its release does", async () => {
  const account = await accountOpenedAt(OPENED_AT, 0);
  const payment = (await paymentAt(account, '2026-03-02T15:00:00.000Z', 100_00))!;
  await expect(moveAt(account, '2026-03-02T16:00:00.000Z', -80_00)).resolves.toBe(true);
  const ledgerDay = async () =>
    (await dynamo().send(new GetCommand({ TableName: table.tableName, Key: itemKeys.accountBalance(account.id) })))
      .Item?.['lday'];
  await expect(refundAt(payment, '2026-03-03T15:00:00.000Z', 50_00)).resolves.toBe('insufficient_funds');
  await expect(ledgerDay()).resolves.toBe('2026-03-02');
  const refund = await refundAt(payment, '2026-03-03T16:00:00.000Z', 20_00);
  if (typeof refund === 'string') throw new Error(`Refund refused: ${refund}`);
  await expect(ledgerDay()).resolves.toBe('2026-03-03');
  await expect(rejectRefundAt(refund, '2026-03-04T15:00:00.000Z')).resolves.toBe(true);
  await expect(ledgerDay()).resolves.toBe('2026-03-04');
  const now = new Date().toISOString();
  const statements = await Promise.all(
    ['2026-03-02', '2026-03-03', '2026-03-04'].map((day) => getStatement(deps, account.tenant, account.id, day, now)),
  );
  expect(
    statements.map((s) => [
      s.opening_balance.value,
      s.credits.amount.value,
      s.debits.amount.value,
      s.closing_balance.value,
    ]),
  ).toEqual([
    ['0.00', '100.00', '80.00', '20.00'],
    ['20.00', '0.00', '20.00', '0.00'],
    ['0.00', '20.00', '0.00', '20.00'],
  ]);
});

it('a statement reads the account, one sealed day and that day: not the days before it', async () => {
  const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
  for (let d = 0; d < 30; d += 1) {
    const at = new Date(Date.parse(OPENED_AT) + d * 24 * HOUR).toISOString();
    await moveAt(account, at, 1_00);
    await moveAt(account, new Date(Date.parse(at) + HOUR).toISOString(), -50);
  }
  const early = await readLedgerDay(account.id, '2026-03-02');
  const late = await readLedgerDay(account.id, '2026-03-29');
  expect(early.day).toEqual({
    openingCents: 500_50,
    credits: { count: 1, cents: 1_00 },
    debits: { count: 1, cents: 50 },
  });
  expect(late.day.openingCents).toBe(500_00 + 28 * 50);
  // The account with its balance item (two GetItems), the sealed day's Query (Limit 1) and the day's
  // movements: four calls either way.
  expect([early.cost.calls, late.cost.calls]).toEqual([4, 4]);
  expect(late.cost.readCapacity).toBe(early.cost.readCapacity);
});

/**
 * Makes a new account one linked before balance items (shared/data/balances.ts): its balance item's
 * attributes back on the account item, with its ledger days (`ledgerDays`) or, linked before those
 * too, its balance alone.
 */
async function asLegacyAccount(account: StoredAccount, { ledgerDays }: { ledgerDays: boolean }) {
  const key = itemKeys.accountBalance(account.id);
  const { Item: balance } = await dynamo().send(new GetCommand({ TableName: table.tableName, Key: key }));
  await dynamo().send(new DeleteCommand({ TableName: table.tableName, Key: key }));
  const kept = ledgerDays
    ? ['available_balance_cents', 'moves', 'lday', 'lday_open', 'lsince']
    : ['available_balance_cents'];
  await dynamo().send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: itemKeys.account(account.id),
      UpdateExpression: `SET ${kept.map((_, i) => `#a${i} = :a${i}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(kept.map((name, i) => [`#a${i}`, name])),
      ExpressionAttributeValues: Object.fromEntries(kept.map((name, i) => [`:a${i}`, balance![name]])),
    }),
  );
}

const itemOf = async (key: { pk: string; sk: string }) =>
  (await dynamo().send(new GetCommand({ TableName: table.tableName, Key: key, ConsistentRead: true }))).Item;

it("an account linked before balance items: read from its own item until its first move moves the balance out; an older code's move of the stale copy then fails", async () => {
  const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
  await moveAt(account, '2026-03-02T15:00:00.000Z', 10_00);
  await asLegacyAccount(account, { ledgerDays: true });
  // Read as it is: the account item's balance, its statement and its movements' count.
  expect((await dynamoAccountStore.get(account.id))!.available_balance_cents).toBe(510_00);
  const now = new Date().toISOString();
  expect((await getStatement(deps, account.tenant, account.id, '2026-03-02', now)).closing_balance.value).toBe(
    '510.00',
  );
  expect((await listMovements(deps, account.tenant, account.id, {}, now)).pagination_info.total_elements).toBe(2);

  // A debit the balance cannot cover is refused as such, after the move out; one it covers is written.
  await expect(moveAt(account, '2026-03-03T15:00:00.000Z', -600_00)).resolves.toBe(false);
  expect(await itemOf(itemKeys.accountBalance(account.id))).toMatchObject({
    available_balance_cents: 510_00,
    moves: 2,
    lday: '2026-03-02',
    lsince: '2026-03-01',
  });
  expect((await itemOf(itemKeys.account(account.id)))!['available_balance_cents']).toBe(MOVED_TO_BALANCE_ITEM);
  await expect(moveAt(account, '2026-03-03T16:00:00.000Z', -110_00)).resolves.toBe(true);
  expect((await dynamoAccountStore.get(account.id))!.available_balance_cents).toBe(400_00);
  const ledger = await ledgerOf(account.id);
  expect([ledger.balanceCents, ledger.movementsCents]).toEqual([400_00, 400_00]);
  const days = await Promise.all(
    ['2026-03-02', '2026-03-03'].map((day) => getStatement(deps, account.tenant, account.id, day, now)),
  );
  expect(days.map((d) => [d.opening_balance.value, d.closing_balance.value])).toEqual([
    ['500.00', '510.00'],
    ['510.00', '400.00'],
  ]);
  expect((await listMovements(deps, account.tenant, account.id, {}, now)).pagination_info.total_elements).toBe(3);

  // The code before balance items, still running during a deploy, moved the account item: it can do neither now.
  const staleCredit = new UpdateCommand({
    TableName: table.tableName,
    Key: itemKeys.account(account.id),
    UpdateExpression: 'ADD available_balance_cents :amount, moves :one',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeValues: { ':amount': 5_00, ':one': 1 },
  });
  await expect(dynamo().send(staleCredit)).rejects.toThrow();
  const staleDebit = new UpdateCommand({
    TableName: table.tableName,
    Key: itemKeys.account(account.id),
    UpdateExpression: 'ADD available_balance_cents :amount',
    ConditionExpression: 'available_balance_cents >= :needed',
    ExpressionAttributeValues: { ':amount': -5_00, ':needed': 5_00 },
  });
  await expect(dynamo().send(staleDebit)).rejects.toThrow(/conditional/i);
  expect((await dynamoAccountStore.get(account.id))!.available_balance_cents).toBe(400_00);
});

it('copies of a first move on a legacy account: the balance moves out once, and every move is written once', async () => {
  const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
  await asLegacyAccount(account, { ledgerDays: true });
  const outcomes = await Promise.all(
    Array.from({ length: 5 }, (_, i) => moveAt(account, `2026-03-02T15:00:0${i}.000Z`, -100_00)),
  );
  // 500.00 covers five debits of 100.00, each written once, whoever moved the balance out.
  expect(outcomes).toEqual([true, true, true, true, true]);
  const ledger = await ledgerOf(account.id);
  expect([ledger.balanceCents, ledger.movementsCents, ledger.movements.length]).toEqual([0, 0, 6]);
});

it('a copy that reads between another copy moving the balance out and its mark: it finds the balance moved', async () => {
  // The account and balance items are read side by side, not at one instant: a move out that commits
  // between the two reads shows the account item marked, and no balance item yet. Before the mark
  // counted as moved, such a copy answered "no account" and its write was refused (about 3 copies in
  // 100 of five racing, measured).
  const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
  await asLegacyAccount(account, { ledgerDays: true });
  await dynamo().send(
    new UpdateCommand({
      TableName: table.tableName,
      Key: itemKeys.account(account.id),
      UpdateExpression: 'SET available_balance_cents = :moved',
      ExpressionAttributeValues: { ':moved': MOVED_TO_BALANCE_ITEM },
    }),
  );
  await expect(moveLegacyBalance(account.id)).resolves.toBe(true);
});

it('an account linked before ledger days: its statements add up its movements, and its first move starts its days', async () => {
  const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
  await asLegacyAccount(account, { ledgerDays: false });
  await expect(moveAt(account, '2026-03-03T15:00:00.000Z', 20_00)).resolves.toBe(true);
  await expect(moveAt(account, '2026-03-04T15:00:00.000Z', -700_00)).resolves.toBe(false);
  await expect(moveAt(account, '2026-03-04T16:00:00.000Z', -70_00)).resolves.toBe(true);
  const now = new Date().toISOString();
  const statements = await Promise.all(
    ['2026-03-01', '2026-03-03', '2026-03-04'].map((day) => getStatement(deps, account.tenant, account.id, day, now)),
  );
  expect(statements.map((s) => [s.opening_balance.value, s.closing_balance.value])).toEqual([
    ['0.00', '500.00'],
    ['500.00', '520.00'],
    ['520.00', '450.00'],
  ]);
  // Its list counts without a count it cannot trust.
  const list = await listMovements(deps, account.tenant, account.id, {}, now);
  expect(list.pagination_info.total_elements).toBe(3);
  // The count is read and found untrusted, then the range counted (a round more), which keeps the
  // page as it reads it: every page of the walk in 2 rounds (page 1 is read beside the count).
  const pages = await Promise.all(
    [1, 2, 3].map((pageNumber) =>
      listPage({
        source: movementSource(account),
        filters: [],
        request: parsePageRequest({ page_size: 1, page_number: pageNumber, first_request_timestamp: now }, now),
      }),
    ),
  );
  expect(pages.map((page) => [page.total, page.totalFrom])).toEqual(Array(3).fill([3, 'keys-count']));
  expect(pages.map((page) => page.cost.rounds)).toEqual([2, 2, 2]);
  expect(pages.map((page) => page.cost.readCalls)).toEqual([4, 3, 3]);
});

it('the movements list: page 1 of a new walk in 2 calls at once, every later page in at most 3 rounds, from the nearer end', async () => {
  const account = await accountOpenedAt(OPENED_AT, OPENING_CENTS);
  for (let i = 0; i < 8; i += 1)
    await moveAt(account, new Date(Date.parse(OPENED_AT) + (i + 1) * HOUR).toISOString(), 1_00);
  const now = new Date().toISOString();
  // As the movements route reads it: under the account, read in the counter's call.
  const page = (query: Parameters<typeof parsePageRequest>[0]) =>
    listPage({
      source: movementSource(account),
      filters: [],
      request: parsePageRequest(query, now),
      parent: { key: itemKeys.account(account.id), tenant: account.tenant },
    });
  const first = await page({ page_size: 2 });
  expect([first.total, first.totalFrom, first.cost.readCalls, first.cost.rounds]).toEqual([9, 'counter', 2, 1]);
  const all = await page({ page_size: 9 });
  const ids = all.items.map((item) => item['sk']);
  expect(new Set(ids).size).toBe(9);
  for (const pageNumber of [2, 3, 4, 5]) {
    const later = await page({ page_size: 2, page_number: pageNumber, first_request_timestamp: now });
    expect(later.totalFrom).toBe('counter-at-snapshot');
    // The account (the counter) beside the movements after the snapshot, the keys stepped over, the page.
    expect(later.cost.readCalls).toBeLessThanOrEqual(4);
    expect(later.cost.rounds).toBeLessThanOrEqual(3);
    expect(later.items.map((item) => item['sk'])).toEqual(ids.slice((pageNumber - 1) * 2, pageNumber * 2));
  }
  expect((await page({ page_size: 2, page_number: 5, first_request_timestamp: now })).route?.anchor.kind).toBe('end');
});

it("another client's account, like an unknown one, is 404; a day to come or no day is 400", async () => {
  const account = await accountOpenedAt(OPENED_AT, 0);
  const now = new Date().toISOString();
  const codeOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'answered',
      (error: { code: string }) => error.code,
    );
  await expect(codeOf(getStatement(deps, 'another-client', account.id, '2026-03-01', now))).resolves.toBe('NOT_FOUND');
  await expect(codeOf(listMovements(deps, 'another-client', account.id, {}, now))).resolves.toBe('NOT_FOUND');
  await expect(codeOf(getStatement(deps, account.tenant, randomUUID(), '2026-03-01', now))).resolves.toBe('NOT_FOUND');
  const tomorrow = nextDay(colombiaDay(now));
  await expect(codeOf(getStatement(deps, account.tenant, account.id, tomorrow, now))).resolves.toBe(
    'VALIDATION_FAILED',
  );
  await expect(codeOf(getStatement(deps, account.tenant, account.id, '2026-02-30', now))).resolves.toBe(
    'VALIDATION_FAILED',
  );
});
