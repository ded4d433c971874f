/**
 * The balance invariant, as a property (fast-check, fixed seed): after every step of any mix of
 * payments between our merchants (two clients, one merchant inactive), to another participant (held
 * PENDING, then settled or, for amounts ending in .99, rejected by their settlement jobs, some of
 * them by several jobs at once, some never), and of the merchants' QR codes by the sandbox shopper,
 * some of them not covered, some sent twice, some at the same moment, every account's available
 * balance equals the sum of its movements, is never below zero, and is what the answers say: each
 * accepted payment moved its amount once, a rejected one's amount came back once, nothing else moved
 * money, and no money was made or lost. Every committed change wrote exactly its events, and a
 * refused one none.
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import type { DirectoryEntry } from '../../shared/domain/directory';
import { AppError } from '../../shared/domain/errors';
import { payQrCode } from '../../shared/domain/pay-qr-code';
import { payResolution } from '../../shared/domain/pay-resolution';
import { settlePayment } from '../../shared/domain/settlement';
import type { StoredQrCode } from '../../shared/domain/qrcodes';
import { publicPayment, type PublicPayment } from '../../shared/domain/payments';
import { formatCents } from '../../shared/domain/money';
import { dynamoCustomerStore } from '../../shared/data/customers-repository';
import { createTestTable, type TestTable } from '../support/dynamo-table';
import {
  HeldSettlements,
  ledgerOf,
  otherParticipantKey,
  ourKey,
  paymentDeps,
  paymentRequest,
  qrPaymentDeps,
  settlementDeps,
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

type Payment = {
  /** A payment of a resolved key by `payer`, or the sandbox shopper paying a static QR code of `payee`. */
  readonly via: 'resolution' | 'qr';
  readonly payer: number;
  readonly payee: number;
  readonly cents: number;
  /** Send the same request twice at once. */
  readonly twice: boolean;
};

/**
 * The settlement jobs of one payment to the other participant, `jobs` at once: of the PENDING ones
 * (`which`, modulo their number), or `again` of those already answered (a job repeated later).
 */
type Settlement = { readonly via: 'settle'; readonly which: number; readonly jobs: number; readonly again: boolean };

type Command = Payment | Settlement;

const payment: fc.Arbitrary<Payment> = fc.record({
  via: fc.constantFrom('resolution', 'resolution', 'qr'),
  payer: fc.integer({ min: 0, max: MERCHANTS - 1 }),
  // Half the payments go to the other participant: they are the ones left PENDING, settled or rejected.
  payee: fc.oneof(fc.integer({ min: 0, max: MERCHANTS }), fc.constant(OTHER_PARTICIPANT)),
  // Up to 80% of an opening balance: some payments are not covered once money has moved. Half end in
  // .99, the amounts the sandbox network rejects.
  cents: fc.oneof(
    fc.integer({ min: 1, max: 800_00 }),
    fc.integer({ min: 0, max: 799 }).map((units) => units * 100 + 99),
  ),
  twice: fc.boolean(),
});

const settlement: fc.Arbitrary<Settlement> = fc.record({
  via: fc.constant('settle' as const),
  which: fc.nat(),
  jobs: fc.integer({ min: 1, max: 3 }),
  again: fc.boolean(),
});

const command: fc.Arbitrary<Command> = fc.oneof(payment, payment, settlement);

/** Commands run in small groups at the same moment: debits, releases and settlements of one account race. */
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

const orError = (outcome: Promise<PublicPayment>): Promise<Outcome> =>
  outcome.catch((error: unknown) => {
    if (error instanceof AppError) return error;
    throw error;
  });

const qrPayee = (c: Payment): number => (c.payee === OTHER_PARTICIPANT ? 0 : c.payee);

async function pay({ merchants, payees, codes }: World, c: Payment, queue: HeldSettlements): Promise<Outcome[]> {
  if (c.via === 'qr') {
    const payee = merchants[qrPayee(c)]!;
    const request = { amount: { value: formatCents(c.cents), currency: 'COP' as const } };
    const once = () => orError(payQrCode(qrPaymentDeps(), payee.customer.tenant, codes[qrPayee(c)]!.id, request));
    return Promise.all(c.twice ? [once(), once()] : [once()]);
  }
  const payer = merchants[c.payer]!;
  const resolution = await storedResolution(payer, payees[c.payee]!);
  const request = paymentRequest(payer, resolution, formatCents(c.cents));
  const once = () => orError(payResolution(paymentDeps(queue), payer.customer.tenant, request));
  return Promise.all(c.twice ? [once(), once()] : [once()]);
}

/** A payment to the other participant, as the model follows it. */
interface Sent {
  readonly id: string;
  readonly payer: number;
  readonly cents: number;
  status: 'PENDING' | 'SETTLED' | 'REJECTED';
}

/** What the property checked, over all its runs. */
const figures = { runs: 0, payments: 0, pendingAtEnd: 0, settlementJobs: 0, settled: 0, rejected: 0, events: 0 };

test('balances equal the sum of their movements at every step, and each change wrote exactly its events', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 8, maxLength: 16 }), async (commands) => {
      figures.runs += 1;
      const w = await world();
      const { merchants } = w;
      const tenants = new Set(merchants.map((m) => m.customer.tenant));
      const expected = merchants.map(() => OPENING_CENTS);
      let leftToOtherParticipant = 0;
      let fromShoppers = 0;
      const sent: Sent[] = [];
      /** The event types each payment's committed changes must have written, by payment id. */
      const events = new Map<string, { tenant: string; types: string[] }>();
      const expectEvents = (p: PublicPayment, tenant: string, ...types: string[]) => {
        const known = events.get(p.id) ?? { tenant, types: [] };
        events.set(p.id, { tenant, types: [...known.types, ...types] });
      };
      /** Payments to our active merchants: each wrote an INBOUND record with its two events. */
      let inboundRecords = 0;

      const settle = async ({ which, jobs, again }: Settlement): Promise<void> => {
        const pending = sent.filter((p) => p.status === 'PENDING');
        const answered = sent.filter((p) => p.status !== 'PENDING');
        const among = again && answered.length > 0 ? answered : pending;
        const target = among[which % among.length];
        if (!target) return;
        figures.settlementJobs += jobs;
        const answers = await Promise.all(
          Array.from({ length: jobs }, () => settlePayment(settlementDeps(), target.id)),
        );
        // However many jobs ran, at once or again later, one answer.
        for (const answer of answers) expect(answer).toEqual(answers[0]);
        const answer = answers[0]!;
        const rejects = target.cents % 100 === 99;
        expect(answer).toMatchObject(
          rejects ? { status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED' } : { status: 'SETTLED' },
        );
        if (target.status !== 'PENDING') return;
        target.status = answer.status as Sent['status'];
        const tenant = merchants[target.payer]!.customer.tenant;
        if (rejects) {
          figures.rejected += 1;
          expected[target.payer]! += target.cents;
          expectEvents(publicPayment(answer), tenant, 'payment.rejected');
        } else {
          figures.settled += 1;
          leftToOtherParticipant += target.cents;
          expectEvents(publicPayment(answer), tenant, 'payment.settled');
        }
      };

      const account = (c: Payment, answers: Outcome[], queue: HeldSettlements) => {
        if (c.via === 'qr') {
          // A static code is paid as often as the shopper pays it: each payment credits it once.
          for (const answer of answers) {
            if (qrPayee(c) === INACTIVE) {
              expect(answer).toEqual(expect.objectContaining({ code: 'CUSTOMER_INACTIVE' }));
              continue;
            }
            expect(answer).toMatchObject({ status: 'SETTLED', direction: 'INBOUND' });
            const received = answer as PublicPayment;
            figures.payments += 1;
            expected[qrPayee(c)]! += c.cents;
            fromShoppers += c.cents;
            expectEvents(
              received,
              merchants[qrPayee(c)]!.customer.tenant,
              'payment.inbound.received',
              'payment.inbound.confirmed',
            );
          }
          return;
        }
        const [first, ...replays] = answers as [Outcome, ...Outcome[]];
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
        figures.payments += 1;
        const tenant = merchants[c.payer]!.customer.tenant;
        if (c.payee === INACTIVE) {
          // Held, then released when the payee's credit is refused: no money moves in the end.
          expect(first).toMatchObject({ status: 'REJECTED', rejection_reason: 'PAYEE_INACTIVE' });
          expectEvents(first, tenant, 'payment.outbound.confirmed', 'payment.rejected');
          return;
        }
        // The amount leaves (is held) at once, whoever the payee.
        expected[c.payer]! -= c.cents;
        if (c.payee === OTHER_PARTICIPANT) {
          expect(first.status).toBe('PENDING');
          // Each request that answered it scheduled its settlement.
          expect(queue.scheduled).toEqual(answers.map(() => first.id));
          sent.push({ id: first.id, payer: c.payer, cents: c.cents, status: 'PENDING' });
          expectEvents(first, tenant, 'payment.outbound.confirmed');
          return;
        }
        expect(first.status).toBe('SETTLED');
        expected[c.payee]! += c.cents;
        inboundRecords += 1;
        expectEvents(first, tenant, 'payment.outbound.confirmed', 'payment.settled');
      };

      const checkLedgers = async () => {
        const ledgers = await Promise.all(merchants.map((m) => ledgerOf(m.account.id)));
        ledgers.forEach((ledger, i) => {
          expect(ledger.balanceCents).toBe(ledger.movementsCents);
          expect(ledger.balanceCents).toBeGreaterThanOrEqual(0);
          expect(ledger.balanceCents).toBe(expected[i]);
        });
        const total = ledgers.reduce((sum, ledger) => sum + ledger.balanceCents, 0);
        const held = sent.filter((p) => p.status === 'PENDING').reduce((sum, p) => sum + p.cents, 0);
        expect(total + held + leftToOtherParticipant).toBe(MERCHANTS * OPENING_CENTS + fromShoppers);
      };

      for (let i = 0; i < commands.length; i += GROUP) {
        const group = commands.slice(i, i + GROUP);
        const queues = group.map(() => new HeldSettlements());
        const outcomes = await Promise.all(
          group.map((c, j) => (c.via === 'settle' ? settle(c).then(() => []) : pay(w, c, queues[j]!))),
        );
        group.forEach((c, j) => {
          if (c.via !== 'settle') account(c, outcomes[j]!, queues[j]!);
        });
        await checkLedgers();
      }
      figures.pendingAtEnd += sent.filter((p) => p.status === 'PENDING').length;

      // The outbox: each payment's events, to its own client; INBOUND records of payments to our
      // merchants are the rest, two each; nothing else (no refused change wrote one).
      const written = await table.scan((item) => item['entity'] === 'EVENT' && tenants.has(item['tenant']));
      figures.events += written.length;
      const byPayment = new Map<string, { tenant: string; types: string[] }>();
      for (const event of written) {
        const id = String(event['data']['id']);
        const known = byPayment.get(id) ?? { tenant: String(event['tenant']), types: [] };
        expect(event['tenant']).toBe(known.tenant);
        byPayment.set(id, { tenant: known.tenant, types: [...known.types, String(event['type'])] });
      }
      const sorted = (types: string[]) => [...types].sort();
      for (const [id, { tenant, types }] of events) {
        expect([id, byPayment.get(id)?.tenant, sorted(byPayment.get(id)?.types ?? [])]).toEqual([
          id,
          tenant,
          sorted(types),
        ]);
        byPayment.delete(id);
      }
      expect([...byPayment.values()].map((p) => sorted(p.types))).toEqual(
        Array.from({ length: inboundRecords }, () => ['payment.inbound.confirmed', 'payment.inbound.received']),
      );
    }),
    { seed: 20_261_122, numRuns: 12 },
  );
  // The property exercised what it claims to check.
  console.log('balance invariant property:', JSON.stringify(figures));
  expect(figures.rejected).toBeGreaterThan(0);
  expect(figures.settled).toBeGreaterThan(0);
  expect(figures.pendingAtEnd).toBeGreaterThan(0);
  expect(figures.settlementJobs).toBeGreaterThan(figures.settled + figures.rejected);
}, 240_000);
