/**
 * Matching the sponsor bank's settlement file with our transfers (shared/domain/settlement-matching.ts)
 * and a day's run over in-memory stores (shared/domain/reconciliations.ts): lines added up by movement,
 * our own end-to-end ids read back in any case, each break kind, what never reaches the bank, the
 * clients of the day's earlier file told of the new one, and a run of a replaced file stopped.
 */
import { creditPaymentId } from '../../shared/domain/network-credits';
import type { StoredPayment } from '../../shared/domain/payments';
import {
  runReconciliation,
  type RunReconciliationDeps,
  type StoredBreak,
  type StoredReconciliation,
} from '../../shared/domain/reconciliations';
import type { StoredSettlementFile } from '../../shared/domain/settlement-files';
import {
  candidatesOf,
  matchMovement,
  matchReversals,
  missingAtBank,
  movementsOf,
  transferIdOf,
  type OurTransfer,
  type SettledTransfer,
} from '../../shared/domain/settlement-matching';
import { endToEndIdOf } from '../../shared/domain/transfer-orders';
import type { DomainEvent } from '../../shared/domain/events';

const OURS = '860000001';
const PAYMENT_ID = '0b5e6f70-1a2b-4c3d-8e9f-001122334455';
const ACCOUNT = 'a1a1a1a1-0000-4000-8000-000000000001';
const NUMBER = '500000000001';

const line = (e2e: string, direction: 'CREDIT' | 'DEBIT', value: string, account = NUMBER) => ({
  end_to_end_id: e2e,
  direction,
  amount: { value, currency: 'COP' as const },
  account_number: account,
  settled_at: '2026-03-14T15:00:00.000Z',
});

const transfer = (overrides: Partial<OurTransfer> = {}): OurTransfer => ({
  kind: 'payment',
  id: PAYMENT_ID,
  tenant: 'client-a',
  account_id: ACCOUNT,
  direction: 'DEBIT',
  amount_cents: 12_050,
  settled: true,
  ...overrides,
});

const numbers = (id: string) => (id === ACCOUNT ? NUMBER : '599999999999');

describe('the movements of a file', () => {
  it("adds up a transfer's lines on one account in one direction, and keeps the others apart", () => {
    expect(
      movementsOf([
        line('E1', 'DEBIT', '10.00'),
        line('E1', 'DEBIT', '2.50'),
        line('E1', 'CREDIT', '20.00'),
        line('E1', 'DEBIT', '1.00', '500000000002'),
      ]),
    ).toEqual([
      { end_to_end_id: 'E1', direction: 'DEBIT', account_number: NUMBER, amount_cents: 1_250 },
      { end_to_end_id: 'E1', direction: 'CREDIT', account_number: NUMBER, amount_cents: 2_000 },
      { end_to_end_id: 'E1', direction: 'DEBIT', account_number: '500000000002', amount_cents: 100 },
    ]);
  });

  it('reads our own end-to-end ids back to the transfer, whatever their case; anything else names none', () => {
    expect(transferIdOf(endToEndIdOf(PAYMENT_ID))).toBe(PAYMENT_ID);
    expect(transferIdOf(endToEndIdOf(PAYMENT_ID).toUpperCase())).toBe(PAYMENT_ID);
    expect(transferIdOf('E2E123')).toBeUndefined();
  });

  it("names a credit's payment for a CREDIT; our payment or refund, and a credit taken back, for a DEBIT", () => {
    expect(candidatesOf({ end_to_end_id: 'BANK123', direction: 'CREDIT' })).toEqual({
      paymentIds: [creditPaymentId('BANK123')],
      refundIds: [],
    });
    const ours = endToEndIdOf(PAYMENT_ID);
    expect(candidatesOf({ end_to_end_id: ours, direction: 'DEBIT' })).toEqual({
      paymentIds: [PAYMENT_ID, creditPaymentId(ours)],
      refundIds: [PAYMENT_ID],
    });
    expect(candidatesOf({ end_to_end_id: 'BANK123', direction: 'DEBIT' })).toEqual({
      paymentIds: [creditPaymentId('BANK123')],
      refundIds: [],
    });
  });
});

describe('a movement against our transfers', () => {
  const movement = { end_to_end_id: 'E1', direction: 'DEBIT' as const, account_number: NUMBER, amount_cents: 12_050 };

  it('MATCHED: the transfer on its account, in its direction, SETTLED, at its amount', () => {
    expect(matchMovement(movement, [transfer()], numbers, undefined)).toEqual({
      matched: true,
      transfer: transfer(),
      amount_cents: 12_050,
    });
  });

  it('AMOUNT_MISMATCH and STATUS_MISMATCH name both sides', () => {
    const other = matchMovement({ ...movement, amount_cents: 12_000 }, [transfer()], numbers, undefined);
    expect(other).toMatchObject({
      matched: false,
      found: {
        kind: 'AMOUNT_MISMATCH',
        payment_id: PAYMENT_ID,
        amount_here_cents: 12_050,
        amount_at_bank_cents: 12_000,
      },
    });
    const pending = matchMovement(movement, [transfer({ settled: false })], numbers, undefined);
    expect(pending).toMatchObject({ matched: false, found: { kind: 'STATUS_MISMATCH', tenant: 'client-a' } });
  });

  it("MISSING_HERE: no transfer on the line's account; whose it is comes from the account's number", () => {
    const elsewhere = transfer({ account_id: 'b2b2b2b2-0000-4000-8000-000000000002' });
    const owner = { tenant: 'client-b', account_id: ACCOUNT };
    expect(matchMovement(movement, [elsewhere], numbers, owner)).toEqual({
      matched: false,
      found: {
        kind: 'MISSING_HERE',
        end_to_end_id: 'E1',
        direction: 'DEBIT',
        account_number: NUMBER,
        tenant: 'client-b',
        account_id: ACCOUNT,
        amount_at_bank_cents: 12_050,
      },
    });
    // A number of no client of ours: nobody's to see.
    const nobodys = matchMovement(movement, [], numbers, undefined);
    expect(nobodys).toMatchObject({ found: { kind: 'MISSING_HERE' } });
    expect(nobodys.matched || nobodys.found.tenant).toBeUndefined();
  });

  it('a credit the bank took back (a DEBIT of its id) names the credit, to be matched with its reversals', () => {
    const credit = transfer({ direction: 'CREDIT' });
    expect(matchMovement(movement, [credit], numbers, undefined)).toMatchObject({
      matched: false,
      takesBack: credit,
      found: { kind: 'MISSING_HERE', payment_id: PAYMENT_ID, tenant: 'client-a', account_id: ACCOUNT },
    });
  });

  it("the bank's taking back against the day's reversals of the credit, added up", () => {
    const credit = transfer({ direction: 'CREDIT' });
    const taken = matchMovement(movement, [credit], numbers, undefined);
    if (taken.matched || !taken.takesBack) throw new Error('not a credit taken back');
    const atBank = { movement, credit, found: taken.found };
    const reversal = (id: string, amount_cents: number): SettledTransfer => ({
      kind: 'reversal',
      id,
      tenant: 'client-a',
      account_id: ACCOUNT,
      direction: 'DEBIT',
      amount_cents,
      end_to_end_id: 'E1',
      payment_id: PAYMENT_ID,
    });
    // 120.50 taken back in two reversals here, one movement of the bank's.
    expect(matchReversals(atBank, [reversal('R1', 10_000), reversal('R2', 2_050)])).toEqual({
      matched: true,
      transfer: credit,
      amount_cents: 12_050,
    });
    expect(matchReversals(atBank, [reversal('R1', 10_000)])).toMatchObject({
      found: {
        kind: 'AMOUNT_MISMATCH',
        payment_id: PAYMENT_ID,
        amount_here_cents: 10_000,
        amount_at_bank_cents: 12_050,
      },
    });
    expect(matchReversals(atBank, [])).toMatchObject({ found: { kind: 'MISSING_HERE', payment_id: PAYMENT_ID } });
    expect(matchReversals(undefined, [reversal('R1', 300), reversal('R2', 200)])).toEqual({
      matched: false,
      found: {
        kind: 'MISSING_AT_BANK',
        end_to_end_id: 'E1',
        direction: 'DEBIT',
        tenant: 'client-a',
        account_id: ACCOUNT,
        payment_id: PAYMENT_ID,
        amount_here_cents: 500,
      },
    });
  });
});

describe('what we settled and the bank did not list', () => {
  const settled: SettledTransfer = {
    kind: 'payment',
    id: PAYMENT_ID,
    tenant: 'client-a',
    account_id: ACCOUNT,
    direction: 'DEBIT',
    amount_cents: 500,
    counterparty_nit: '860000002',
  };

  it('MISSING_AT_BANK, under the end-to-end id our order carried', () => {
    expect(missingAtBank(settled, OURS)).toEqual({
      kind: 'MISSING_AT_BANK',
      end_to_end_id: endToEndIdOf(PAYMENT_ID),
      direction: 'DEBIT',
      tenant: 'client-a',
      account_id: ACCOUNT,
      payment_id: PAYMENT_ID,
      amount_here_cents: 500,
    });
    expect(missingAtBank({ ...settled, direction: 'CREDIT', end_to_end_id: 'BANK9' }, OURS)).toMatchObject({
      end_to_end_id: 'BANK9',
    });
  });

  it('never for a transfer between two of our own merchants: it stays in our books', () => {
    expect(missingAtBank({ ...settled, counterparty_nit: OURS }, OURS)).toBeUndefined();
    expect(missingAtBank({ ...settled, direction: 'CREDIT', own_payer: true }, OURS)).toBeUndefined();
  });
});

describe("a day's run", () => {
  const file: StoredSettlementFile = {
    date: '2026-03-14',
    version: 'v2',
    file: 'settlement-files/2026-03-14/v2.ndjson',
    line_count: 2,
    status: 'PENDING',
    received_at: '2026-03-15T06:00:00.000Z',
  };
  const payment = {
    id: PAYMENT_ID,
    tenant: 'client-a',
    account_id: ACCOUNT,
    direction: 'OUTBOUND',
    status: 'SETTLED',
    amount_cents: 12_050,
  } as StoredPayment;

  function deps(options: { replacedAfter?: number; earlier?: StoredReconciliation[] } = {}) {
    const breaks: StoredBreak[] = [];
    const results: StoredReconciliation[] = [];
    const events: DomainEvent[] = [];
    let writes = 0;
    const current = () => (options.replacedAfter !== undefined && writes >= options.replacedAfter ? 'v3' : 'v2');
    const d: RunReconciliationDeps = {
      store: {
        file: async () => file,
        startRun: async () => file,
        summary: async () => undefined,
        summaries: async () => options.earlier ?? [],
        addBreaks: async (_date, version, found) => {
          if (current() !== version) return false;
          writes += 1;
          breaks.push(...found);
          return true;
        },
        finishTenant: async (summary, event) => {
          if (current() !== summary.version) return 'replaced';
          writes += 1;
          results.push(summary);
          events.push(event);
          return 'written';
        },
        removeStaleBreaks: async () => 0,
        complete: async (done) => current() === done.version,
        get: async () => undefined,
      },
      files: {
        async *lines() {
          yield JSON.stringify(line(endToEndIdOf(PAYMENT_ID), 'DEBIT', '120.50'));
          yield JSON.stringify(line('STRANGER1', 'CREDIT', '3.00', '500000000777'));
        },
      },
      transfers: { read: async (ids) => ({ payments: ids.includes(PAYMENT_ID) ? [payment] : [], refunds: [] }) },
      accounts: {
        numbers: async () => new Map([[ACCOUNT, NUMBER]]),
        owners: async () => new Map(),
      },
      settled: {
        async *day() {
          yield [
            {
              kind: 'payment',
              id: PAYMENT_ID,
              tenant: 'client-a',
              account_id: ACCOUNT,
              direction: 'DEBIT',
              amount_cents: 12_050,
            },
          ];
        },
      },
      ownNit: OURS,
      clock: { now: () => '2026-03-15T06:00:01.000Z' },
      runMs: 60_000,
    };
    return { d, breaks, results, events };
  }

  it("writes each client's result with its event; a line on no client's account is counted, shown to none", async () => {
    const { d, breaks, results, events } = deps({
      earlier: [
        {
          tenant: 'client-b',
          date: '2026-03-14',
          version: 'v1',
          status: 'BREAKS',
          matched_count: 0,
          matched_amount_cents: 0,
          break_count: 1,
          completed_at: 'x',
        },
      ],
    });
    await expect(runReconciliation(d, '2026-03-14')).resolves.toMatchObject({
      outcome: 'completed',
      matched: 1,
      breaks: 1,
      unassigned: 1,
      tenants: 2,
    });
    expect(breaks).toEqual([]);
    // client-b had a break in the day's earlier file: it hears that its day is now clear.
    expect(results.map((r) => [r.tenant, r.status, r.matched_count, r.matched_amount_cents])).toEqual([
      ['client-a', 'MATCHED', 1, 12_050],
      ['client-b', 'MATCHED', 0, 0],
    ]);
    expect(events.map((e) => [e.tenant, e.type])).toEqual([
      ['client-a', 'reconciliation.completed'],
      ['client-b', 'reconciliation.completed'],
    ]);
  });

  it('stops when the day is sent again mid-run: the new file does the day', async () => {
    const { d, results } = deps({
      replacedAfter: 1,
      earlier: [
        {
          tenant: 'client-b',
          date: '2026-03-14',
          version: 'v1',
          status: 'BREAKS',
          matched_count: 0,
          matched_amount_cents: 0,
          break_count: 1,
          completed_at: 'x',
        },
      ],
    });
    await expect(runReconciliation(d, '2026-03-14')).resolves.toMatchObject({ outcome: 'replaced' });
    expect(results).toHaveLength(0);
  });
});
