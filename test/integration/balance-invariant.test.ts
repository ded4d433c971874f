/**
 * The balance invariant, as a property (fast-check, fixed seed): after any mix of payments between
 * our merchants (two clients, one merchant inactive) and to another participant, some of them not
 * covered, some sent twice, some at the same moment, every account's available balance equals the
 * sum of its movements, is never below zero, and is what the answers say: each SETTLED payment moved
 * its amount once, nothing else moved money, and no money was made or lost.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { DirectoryEntry } from '../../shared/domain/directory';
import { AppError } from '../../shared/domain/errors';
import { payResolution } from '../../shared/domain/pay-resolution';
import type { PublicPayment } from '../../shared/domain/payments';
import { formatCents } from '../../shared/domain/money';
import { dynamoCustomerStore } from '../../shared/data/customers-repository';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import {
  ledgerOf,
  otherParticipantKey,
  ourKey,
  paymentDeps,
  paymentRequest,
  storedMerchant,
  storedResolution,
  type Merchant,
} from '../support/payments';

let table: TestTable;
beforeAll(async () => {
  table = await createTestTable('balance-invariant');
});
afterAll(() => table.drop());

const OPENING_CENTS = 1_000_00;
const MERCHANTS = 4;
/** The last merchant is deactivated after its key is registered: it neither pays nor receives. */
const INACTIVE = MERCHANTS - 1;
/** Payee index MERCHANTS: the key at another participant. */
const OTHER_PARTICIPANT = MERCHANTS;

interface Command {
  readonly payer: number;
  readonly payee: number;
  readonly cents: number;
  /** Send the same request twice at once. */
  readonly twice: boolean;
}

const command: fc.Arbitrary<Command> = fc.record({
  payer: fc.integer({ min: 0, max: MERCHANTS - 1 }),
  payee: fc.integer({ min: 0, max: MERCHANTS }),
  // Up to 80% of an opening balance: some payments are not covered once money has moved.
  cents: fc.integer({ min: 1, max: 800_00 }),
  twice: fc.boolean(),
});

/** Commands run in small groups at the same moment: debits of one account race each other. */
const GROUP = 3;

async function world(): Promise<{ merchants: Merchant[]; payees: DirectoryEntry[] }> {
  const tenants = [`tenant-${randomUUID()}`, `tenant-${randomUUID()}`];
  const merchants = await Promise.all(
    Array.from({ length: MERCHANTS }, (_, i) => storedMerchant(tenants[i % 2]!, OPENING_CENTS)),
  );
  const payees = [...(await Promise.all(merchants.map(ourKey))), await otherParticipantKey()];
  const inactive = merchants[INACTIVE]!;
  await dynamoCustomerStore.updateStatus(inactive.customer, 'INACTIVE', new Date().toISOString());
  return { merchants, payees };
}

type Outcome = PublicPayment | AppError;

async function pay(merchants: Merchant[], payees: DirectoryEntry[], c: Command): Promise<Outcome[]> {
  const payer = merchants[c.payer]!;
  const resolution = await storedResolution(payer, payees[c.payee]!);
  const request = paymentRequest(payer, resolution, formatCents(c.cents));
  const once = () =>
    payResolution(paymentDeps(), payer.customer.tenant, request).catch((error: unknown) => {
      if (error instanceof AppError) return error;
      throw error;
    });
  return Promise.all(c.twice ? [once(), once()] : [once()]);
}

test('balances equal the sum of their movements and of the answers, after a random mix of payments', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 4, maxLength: 8 }), async (commands) => {
      const { merchants, payees } = await world();
      const expected = merchants.map(() => OPENING_CENTS);
      let leftToOtherParticipant = 0;

      for (let i = 0; i < commands.length; i += GROUP) {
        const group = commands.slice(i, i + GROUP);
        const outcomes = await Promise.all(group.map((c) => pay(merchants, payees, c)));
        group.forEach((c, j) => {
          const [first, ...replays] = outcomes[j] as [Outcome, ...Outcome[]];
          // A request sent twice gets one answer twice.
          for (const replay of replays) expect(replay).toEqual(first);
          if (first instanceof AppError) {
            const why =
              c.payer === INACTIVE
                ? 'CUSTOMER_INACTIVE'
                : c.payer === c.payee
                  ? 'VALIDATION_FAILED'
                  : 'INSUFFICIENT_FUNDS';
            expect(first.code).toBe(why);
            return;
          }
          expect(first.status).toBe(c.payee === INACTIVE ? 'REJECTED' : 'SETTLED');
          if (first.status !== 'SETTLED') return;
          expected[c.payer]! -= c.cents;
          if (c.payee === OTHER_PARTICIPANT) leftToOtherParticipant += c.cents;
          else expected[c.payee]! += c.cents;
        });
      }

      const ledgers = await Promise.all(merchants.map((m) => ledgerOf(m.account.id)));
      ledgers.forEach((ledger, i) => {
        expect(ledger.balanceCents).toBe(ledger.movementsCents);
        expect(ledger.balanceCents).toBeGreaterThanOrEqual(0);
        expect(ledger.balanceCents).toBe(expected[i]);
      });
      const total = ledgers.reduce((sum, ledger) => sum + ledger.balanceCents, 0);
      expect(total + leftToOtherParticipant).toBe(MERCHANTS * OPENING_CENTS);
    }),
    { seed: 20_261_122, numRuns: 4 },
  );
}, 120_000);
