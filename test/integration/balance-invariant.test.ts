/**
 * The balance invariant, as a property (fast-check, fixed seed): after any mix of payments between
 * our merchants (two clients, one merchant inactive), to another participant, and of the merchants'
 * QR codes by the sandbox shopper, some of them not covered, some sent twice, some at the same
 * moment, every account's available balance equals the sum of its movements, is never below zero,
 * and is what the answers say: each SETTLED payment moved its amount once, nothing else moved money,
 * and no money was made or lost.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { DirectoryEntry } from '../../shared/domain/directory';
import { AppError } from '../../shared/domain/errors';
import { payQrCode } from '../../shared/domain/pay-qr-code';
import { payResolution } from '../../shared/domain/pay-resolution';
import type { StoredQrCode } from '../../shared/domain/qrcodes';
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
  qrPaymentDeps,
  storedMerchant,
  storedQrCode,
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
  /** A payment of a resolved key by `payer`, or the sandbox shopper paying a static QR code of `payee`. */
  readonly via: 'resolution' | 'qr';
  readonly payer: number;
  readonly payee: number;
  readonly cents: number;
  /** Send the same request twice at once. */
  readonly twice: boolean;
}

const command: fc.Arbitrary<Command> = fc.record({
  via: fc.constantFrom('resolution', 'resolution', 'qr'),
  payer: fc.integer({ min: 0, max: MERCHANTS - 1 }),
  payee: fc.integer({ min: 0, max: MERCHANTS }),
  // Up to 80% of an opening balance: some payments are not covered once money has moved.
  cents: fc.integer({ min: 1, max: 800_00 }),
  twice: fc.boolean(),
});

/** Commands run in small groups at the same moment: debits of one account race each other. */
const GROUP = 3;

interface World {
  readonly merchants: Merchant[];
  /** Each merchant's key, then the key at another participant. */
  readonly payees: DirectoryEntry[];
  /** Each merchant's static QR code without an amount. */
  readonly codes: StoredQrCode[];
}

async function world(): Promise<World> {
  const tenants = [`tenant-${randomUUID()}`, `tenant-${randomUUID()}`];
  const merchants = await Promise.all(
    Array.from({ length: MERCHANTS }, (_, i) => storedMerchant(tenants[i % 2]!, OPENING_CENTS)),
  );
  const payees = [...(await Promise.all(merchants.map(ourKey))), await otherParticipantKey()];
  const codes = await Promise.all(merchants.map((m) => storedQrCode(m)));
  const inactive = merchants[INACTIVE]!;
  await dynamoCustomerStore.updateStatus(inactive.customer, 'INACTIVE', new Date().toISOString());
  return { merchants, payees, codes };
}

type Outcome = PublicPayment | AppError;

const qrPayee = (c: Command): number => (c.payee === OTHER_PARTICIPANT ? 0 : c.payee);

async function pay({ merchants, payees, codes }: World, c: Command): Promise<Outcome[]> {
  const orError = (payment: Promise<PublicPayment>) =>
    payment.catch((error: unknown) => {
      if (error instanceof AppError) return error;
      throw error;
    });
  if (c.via === 'qr') {
    const payee = merchants[qrPayee(c)]!;
    const request = { amount: { value: formatCents(c.cents), currency: 'COP' as const } };
    const once = () => orError(payQrCode(qrPaymentDeps(), payee.customer.tenant, codes[qrPayee(c)]!.id, request));
    return Promise.all(c.twice ? [once(), once()] : [once()]);
  }
  const payer = merchants[c.payer]!;
  const resolution = await storedResolution(payer, payees[c.payee]!);
  const request = paymentRequest(payer, resolution, formatCents(c.cents));
  const once = () => orError(payResolution(paymentDeps(), payer.customer.tenant, request));
  return Promise.all(c.twice ? [once(), once()] : [once()]);
}

test('balances equal the sum of their movements and of the answers, after a random mix of payments', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 4, maxLength: 8 }), async (commands) => {
      const w = await world();
      const { merchants } = w;
      const expected = merchants.map(() => OPENING_CENTS);
      let leftToOtherParticipant = 0;
      let fromShoppers = 0;

      for (let i = 0; i < commands.length; i += GROUP) {
        const group = commands.slice(i, i + GROUP);
        const outcomes = await Promise.all(group.map((c) => pay(w, c)));
        group.forEach((c, j) => {
          const answers = outcomes[j] as [Outcome, ...Outcome[]];
          if (c.via === 'qr') {
            // A static code is paid as often as the shopper pays it: each payment credits it once.
            for (const answer of answers) {
              if (qrPayee(c) === INACTIVE) {
                expect(answer).toEqual(expect.objectContaining({ code: 'CUSTOMER_INACTIVE' }));
                continue;
              }
              expect(answer).toMatchObject({ status: 'SETTLED', direction: 'INBOUND' });
              expected[qrPayee(c)]! += c.cents;
              fromShoppers += c.cents;
            }
            return;
          }
          const [first, ...replays] = answers;
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
      expect(total + leftToOtherParticipant).toBe(MERCHANTS * OPENING_CENTS + fromShoppers);
    }),
    { seed: 20_261_122, numRuns: 3 },
  );
}, 120_000);
