/**
 * The balance invariant, as a property (fast-check, fixed seed): after every step of any mix of
 * payments between our merchants (two clients, one merchant inactive), to another participant (held
 * PENDING, then settled or, for amounts ending in .99, rejected by their settlement jobs, some of
 * them by several jobs at once, some never), of the merchants' QR codes by the sandbox shopper, and
 * refunds of what the shopper paid (held at once, then settled or, for .99, rejected and released by
 * their jobs; some past what is left of the payment, some not covered, some sent twice under one
 * key), some of them not covered, some sent twice, some at the same moment, every account's available
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
import { settleRefund } from '../../shared/domain/refund-settlement';
import { createRefund } from '../../shared/domain/refunds';
import { dynamoPaymentStore } from '../../shared/data/payments-repository';
import { refundDeps, refundSettlementDeps } from '../support/refunds';
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

/** A refund of `cents` (at most what the payment was) of one of the shopper's payments (`which`, modulo their number). */
type Refund = { readonly via: 'refund'; readonly which: number; readonly cents: number; readonly twice: boolean };

/** The settlement jobs of one refund, as Settlement's of one payment. */
type RefundSettlement = {
  readonly via: 'settle-refund';
  readonly which: number;
  readonly jobs: number;
  readonly again: boolean;
};

type Command = Payment | Settlement | Refund | RefundSettlement;

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

const refund: fc.Arbitrary<Refund> = fc.record({
  via: fc.constant('refund' as const),
  which: fc.nat(),
  // Up to half a QR payment's largest amount: some refunds are more than what is left. Half end in .99.
  cents: fc.oneof(
    fc.integer({ min: 1, max: 400_00 }),
    fc.integer({ min: 0, max: 399 }).map((units) => units * 100 + 99),
  ),
  twice: fc.boolean(),
});

const refundSettlement: fc.Arbitrary<RefundSettlement> = fc.record({
  via: fc.constant('settle-refund' as const),
  which: fc.nat(),
  jobs: fc.integer({ min: 1, max: 3 }),
  again: fc.boolean(),
});

// Refunds need a payment of the shopper's first: they come later in a run, and half as often.
const command: fc.Arbitrary<Command> = fc.oneof(
  payment,
  payment,
  payment,
  payment,
  settlement,
  settlement,
  refund,
  refund,
  refundSettlement,
);

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
const figures = {
  runs: 0,
  payments: 0,
  pendingAtEnd: 0,
  settlementJobs: 0,
  settled: 0,
  rejected: 0,
  events: 0,
  refunds: 0,
  refundsRefused: 0,
  refundsSettled: 0,
  refundsRejected: 0,
};

/** A payment the shopper made to a merchant, and what of it the model says is refunded. */
interface Received {
  readonly id: string;
  readonly payee: number;
  readonly cents: number;
  refundedCents: number;
}

/** A refund, as the model follows it. */
interface Refunded {
  readonly id: string;
  readonly payment: Received;
  readonly cents: number;
  status: 'PENDING' | 'SETTLED' | 'REJECTED';
}

test('balances equal the sum of their movements at every step, and each change wrote exactly its events', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(command, { minLength: 12, maxLength: 24 }), async (commands) => {
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
      const expectEvents = (p: { readonly id: string }, tenant: string, ...types: string[]) => {
        const known = events.get(p.id) ?? { tenant, types: [] };
        events.set(p.id, { tenant, types: [...known.types, ...types] });
      };
      /** Payments to our active merchants: each wrote an INBOUND record with its two events. */
      let inboundRecords = 0;
      const received: Received[] = [];
      const refunds: Refunded[] = [];

      const giveBack = async ({ which, cents, twice }: Refund): Promise<void> => {
        const target = received[which % Math.max(received.length, 1)];
        if (!target) return;
        const tenant = merchants[target.payee]!.customer.tenant;
        const amount = { value: formatCents(cents), currency: 'COP' as const };
        const key = randomUUID();
        const once = () =>
          createRefund(refundDeps(), tenant, target.id, { amount }, key).catch((error: unknown) => {
            if (error instanceof AppError) return error;
            throw error;
          });
        const [first, ...replays] = await Promise.all(twice ? [once(), once()] : [once()]);
        // One key, one refund: the same request at once gets the one answer.
        for (const replay of replays) expect(replay).toEqual(first);
        if (first instanceof AppError) {
          figures.refundsRefused += 1;
          expect(['REFUND_EXCEEDS_REMAINING', 'INSUFFICIENT_FUNDS']).toContain(first.code);
          return;
        }
        figures.refunds += 1;
        expect(first).toMatchObject({ status: 'PENDING', payment_id: target.id });
        // Whether it fit is checked below: the stored refunded_amount stays what the model counts, within the payment.
        target.refundedCents += cents;
        expected[target.payee]! -= cents;
        refunds.push({ id: first.id, payment: target, cents, status: 'PENDING' });
        expectEvents(first, tenant, 'refund.created');
      };

      const settleRefunds = async ({ which, jobs, again }: RefundSettlement): Promise<void> => {
        const among = again
          ? refunds.filter((r) => r.status !== 'PENDING')
          : refunds.filter((r) => r.status === 'PENDING');
        const target = among[which % Math.max(among.length, 1)];
        if (!target) return;
        const answers = await Promise.all(
          Array.from({ length: jobs }, () => settleRefund(refundSettlementDeps(), target.id)),
        );
        for (const answer of answers) expect(answer).toEqual(answers[0]);
        const rejects = target.cents % 100 === 99;
        expect(answers[0]).toMatchObject({ status: rejects ? 'REJECTED' : 'SETTLED' });
        if (target.status !== 'PENDING') return;
        target.status = rejects ? 'REJECTED' : 'SETTLED';
        const tenant = merchants[target.payment.payee]!.customer.tenant;
        if (rejects) {
          figures.refundsRejected += 1;
          expected[target.payment.payee]! += target.cents;
          target.payment.refundedCents -= target.cents;
          expectEvents(target, tenant, 'refund.rejected');
        } else {
          figures.refundsSettled += 1;
          leftToOtherParticipant += target.cents;
          expectEvents(target, tenant, 'refund.settled');
        }
      };

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
            const paid = answer as PublicPayment;
            received.push({ id: paid.id, payee: qrPayee(c), cents: c.cents, refundedCents: 0 });
            figures.payments += 1;
            expected[qrPayee(c)]! += c.cents;
            fromShoppers += c.cents;
            expectEvents(
              paid,
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
        const held = [...sent, ...refunds].filter((p) => p.status === 'PENDING').reduce((sum, p) => sum + p.cents, 0);
        // A payment's refunds not REJECTED stay within it, as the model counted them.
        const refunded = await Promise.all(received.map((p) => dynamoPaymentStore.get(p.id)));
        refunded.forEach((stored, i) => {
          expect(stored?.refunded_amount_cents ?? 0).toBe(received[i]!.refundedCents);
          expect(received[i]!.refundedCents).toBeLessThanOrEqual(received[i]!.cents);
        });
        expect(total + held + leftToOtherParticipant).toBe(MERCHANTS * OPENING_CENTS + fromShoppers);
      };

      for (let i = 0; i < commands.length; i += GROUP) {
        const group = commands.slice(i, i + GROUP);
        const queues = group.map(() => new HeldSettlements());
        const outcomes = await Promise.all(
          group.map((c, j) => {
            if (c.via === 'settle') return settle(c).then(() => []);
            if (c.via === 'refund') return giveBack(c).then(() => []);
            if (c.via === 'settle-refund') return settleRefunds(c).then(() => []);
            return pay(w, c, queues[j]!);
          }),
        );
        group.forEach((c, j) => {
          if (c.via === 'resolution' || c.via === 'qr') account(c, outcomes[j]!, queues[j]!);
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
  expect(figures.refundsSettled).toBeGreaterThan(0);
  expect(figures.refundsRejected).toBeGreaterThan(0);
  expect(figures.refundsRefused).toBeGreaterThan(0);
}, 240_000);
