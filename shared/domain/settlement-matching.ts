/**
 * Matching the sponsor bank's settlement file with our transfers (docs/reconciliation.md, "Against the
 * bank"): pure rules, no store. The bank's lines of one movement (an end-to-end id, a direction, an
 * account) are added up; the movement is matched with the transfer of ours its end-to-end id names on
 * that account and in that direction, or it is a break. What we settled that day and no line names is
 * a break too (MISSING_AT_BANK), unless it never reaches the bank (a transfer between two of our own
 * merchants stays in our books: matched when the bank lists it, no break when it does not). A
 * DEBIT of a credit's own end-to-end id is the bank taking the credit back: it is matched with our
 * reversals of that credit on the day (shared/domain/reversals.ts), added up.
 */
import type { SettlementLine } from '../schemas/network';
import type { BreakKind } from '../schemas/reconciliations';
import { optional } from './lists';
import { parseCents } from './money';
import { creditPaymentId } from './network-credits';
import type { StoredPayment } from './payments';
import type { StoredRefund } from './refunds';
import { endToEndIdOf } from './transfer-orders';

export type Direction = 'CREDIT' | 'DEBIT';

/** A movement of the bank's file: its lines of one end-to-end id, direction and account, added up. */
export interface BankMovement {
  readonly end_to_end_id: string;
  readonly direction: Direction;
  readonly account_number: string;
  readonly amount_cents: number;
}

/** One of our transfers as the matcher sees it: a payment or a refund, from its account's side. */
export interface OurTransfer {
  readonly kind: 'payment' | 'refund';
  readonly id: string;
  readonly tenant: string;
  readonly account_id: string;
  readonly direction: Direction;
  readonly amount_cents: number;
  /** SETTLED here: what the bank's line says of it. */
  readonly settled: boolean;
}

/** A transfer settled here on the day (the settled-transfers index): what the bank should list. */
export interface SettledTransfer {
  /** A reversal's id is its `reversal_id`, and `payment_id` the credit it takes back. */
  readonly kind: 'payment' | 'refund' | 'reversal';
  readonly id: string;
  readonly tenant: string;
  readonly account_id: string;
  readonly direction: Direction;
  readonly amount_cents: number;
  /** An INBOUND payment's: the credit's own end-to-end id. */
  readonly end_to_end_id?: string;
  /** The identification number of the counterparty's participant (an OUTBOUND payment's, a refund's). */
  readonly counterparty_nit?: string;
  /** Paid by, or refunded to, one of our own merchants. */
  readonly own_payer?: boolean;
  /** A reversal's: the credit's payment. */
  readonly payment_id?: string;
}

/** A break as the run finds it: whose it is (its tenant and account), and each side's amount. */
export interface FoundBreak {
  readonly kind: BreakKind;
  readonly end_to_end_id: string;
  readonly direction: Direction;
  /** Undefined for a line on an account that is none of our clients': nobody's to see. */
  readonly tenant?: string;
  readonly account_id?: string;
  readonly account_number?: string;
  readonly payment_id?: string;
  readonly refund_id?: string;
  readonly amount_here_cents?: number;
  readonly amount_at_bank_cents?: number;
}

/** What a movement of the bank's file came to. */
export type MovementOutcome =
  | { readonly matched: true; readonly transfer: OurTransfer; readonly amount_cents: number }
  | {
      readonly matched: false;
      readonly transfer?: OurTransfer;
      readonly found: FoundBreak;
      /** A DEBIT of a credit's own id: the credit the bank took back, to match with our reversals of it. */
      readonly takesBack?: OurTransfer;
    };

/** The key of a movement: its lines are added up under it. */
const movementKey = (line: Pick<BankMovement, 'end_to_end_id' | 'direction' | 'account_number'>): string =>
  `${line.direction} ${line.end_to_end_id} ${line.account_number}`;

/**
 * The file's movements: its lines of one transfer on one account added up, so that a transfer the
 * bank settled in parts (a credit taken back in two reversals) is one movement, and a line the bank
 * repeated shows as twice the amount.
 */
export function movementsOf(lines: readonly SettlementLine[]): BankMovement[] {
  const movements = new Map<string, BankMovement>();
  for (const line of lines) {
    const key = movementKey(line);
    const cents = parseCents(line.amount.value);
    const seen = movements.get(key);
    movements.set(key, {
      end_to_end_id: line.end_to_end_id,
      direction: line.direction,
      account_number: line.account_number,
      amount_cents: (seen?.amount_cents ?? 0) + cents,
    });
  }
  return [...movements.values()];
}

/** Our own end-to-end ids: `E` and the payment's or refund's UUID without its dashes (endToEndIdOf). */
const OWN_END_TO_END_ID = /^E([0-9a-f]{8})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{4})([0-9a-f]{12})$/i;

/** The payment or refund id of one of our own end-to-end ids (compared case-insensitively), if it is one. */
export function transferIdOf(endToEndId: string): string | undefined {
  const parts = OWN_END_TO_END_ID.exec(endToEndId);
  return parts ? parts.slice(1).join('-').toLowerCase() : undefined;
}

/**
 * The ids of the transfers of ours a movement's end-to-end id may name. A CREDIT: the INBOUND payment
 * of the network's credit (creditPaymentId; a payment from one of our own merchants is received so
 * too). A DEBIT: our OUTBOUND payment or refund whose order carried it; and the INBOUND payment of a
 * credit the bank took back (a reversal names the credit's id), for the break to name that payment.
 */
export function candidatesOf(movement: Pick<BankMovement, 'end_to_end_id' | 'direction'>): {
  readonly paymentIds: readonly string[];
  readonly refundIds: readonly string[];
} {
  const credit = creditPaymentId(movement.end_to_end_id);
  if (movement.direction === 'CREDIT') return { paymentIds: [credit], refundIds: [] };
  const own = transferIdOf(movement.end_to_end_id);
  return own ? { paymentIds: [own, credit], refundIds: [own] } : { paymentIds: [credit], refundIds: [] };
}

/** A payment from its account's side: an INBOUND one credits it, an OUTBOUND one debits it. */
export const paymentTransfer = (payment: StoredPayment): OurTransfer => ({
  kind: 'payment',
  id: payment.id,
  tenant: payment.tenant,
  account_id: payment.account_id,
  direction: payment.direction === 'INBOUND' ? 'CREDIT' : 'DEBIT',
  amount_cents: payment.amount_cents,
  settled: payment.status === 'SETTLED',
});

/** A refund debits the merchant's account it refunds from. */
export const refundTransfer = (refund: StoredRefund): OurTransfer => ({
  kind: 'refund',
  id: refund.id,
  tenant: refund.tenant,
  account_id: refund.account_id,
  direction: 'DEBIT',
  amount_cents: refund.amount_cents,
  settled: refund.status === 'SETTLED',
});

const idsOf = (transfer: OurTransfer | SettledTransfer) =>
  transfer.kind === 'payment'
    ? { payment_id: transfer.id }
    : transfer.kind === 'refund'
      ? { refund_id: transfer.id }
      : optional('payment_id', (transfer as SettledTransfer).payment_id);

/** A transfer's key among those a run has seen: a payment and a refund never share one. */
export const transferKey = (transfer: Pick<OurTransfer | SettledTransfer, 'kind' | 'id'>): string =>
  `${transfer.kind}:${transfer.id}`;

/**
 * One movement of the bank's against `named`, our transfers its end-to-end id names, each with its
 * account's number (`numberOf`). The transfer on the movement's account and in its direction is the
 * movement's: MATCHED at the same amount when it is SETTLED here, else a break. None: MISSING_HERE,
 * the client's whose account the number is (`owner`), with the transfer its id names on that account
 * if there is one (a credit the bank took back names the credit's payment; reversals are matched here
 * once they are recorded).
 */
export function matchMovement(
  movement: BankMovement,
  named: readonly OurTransfer[],
  numberOf: (accountId: string) => string | undefined,
  owner: { readonly tenant: string; readonly account_id: string } | undefined,
): MovementOutcome {
  const onAccount = named.filter((transfer) => numberOf(transfer.account_id) === movement.account_number);
  const transfer = onAccount.find((candidate) => candidate.direction === movement.direction);
  const atBank = { end_to_end_id: movement.end_to_end_id, direction: movement.direction };
  if (!transfer) {
    const related = onAccount[0];
    const whose = related ?? owner;
    const takesBack =
      movement.direction === 'DEBIT' && related?.kind === 'payment' && related.direction === 'CREDIT'
        ? related
        : undefined;
    return {
      matched: false,
      ...(takesBack ? { takesBack } : {}),
      found: {
        kind: 'MISSING_HERE',
        ...atBank,
        account_number: movement.account_number,
        ...(whose ? { tenant: whose.tenant, account_id: whose.account_id } : {}),
        ...(related ? idsOf(related) : {}),
        amount_at_bank_cents: movement.amount_cents,
      },
    };
  }
  const both = {
    ...atBank,
    tenant: transfer.tenant,
    account_id: transfer.account_id,
    ...idsOf(transfer),
    amount_here_cents: transfer.amount_cents,
    amount_at_bank_cents: movement.amount_cents,
  };
  if (!transfer.settled) return { matched: false, transfer, found: { kind: 'STATUS_MISMATCH', ...both } };
  if (transfer.amount_cents !== movement.amount_cents) {
    return { matched: false, transfer, found: { kind: 'AMOUNT_MISMATCH', ...both } };
  }
  return { matched: true, transfer, amount_cents: movement.amount_cents };
}

/**
 * The bank's taking back of a credit (a DEBIT of its id, its lines added up) against our reversals of
 * it on the day (added up): MATCHED at the same amount, AMOUNT_MISMATCH at another; none here is the
 * movement's MISSING_HERE (`atBank.found`), and ours without the bank's a MISSING_AT_BANK.
 */
export function matchReversals(
  atBank: { readonly movement: BankMovement; readonly credit: OurTransfer; readonly found: FoundBreak } | undefined,
  ours: readonly SettledTransfer[],
): MovementOutcome | { readonly matched: false; readonly found: FoundBreak } {
  const hereCents = ours.reduce((sum, reversal) => sum + reversal.amount_cents, 0);
  if (!atBank) {
    const first = ours[0]!;
    return {
      matched: false,
      found: {
        kind: 'MISSING_AT_BANK',
        end_to_end_id: endToEndIdOfSettled(first),
        direction: 'DEBIT',
        tenant: first.tenant,
        account_id: first.account_id,
        ...idsOf(first),
        amount_here_cents: hereCents,
      },
    };
  }
  if (ours.length === 0) return { matched: false, found: atBank.found };
  if (hereCents === atBank.movement.amount_cents) {
    return { matched: true, transfer: atBank.credit, amount_cents: hereCents };
  }
  return {
    matched: false,
    found: { ...atBank.found, kind: 'AMOUNT_MISMATCH', amount_here_cents: hereCents },
  };
}

/** The end-to-end id of a transfer settled here: a credit's own (and its reversals'); ours for what we sent. */
export const endToEndIdOfSettled = (settled: SettledTransfer): string =>
  settled.end_to_end_id ?? endToEndIdOf(settled.id);

/**
 * A transfer settled here that no movement of the bank's named: MISSING_AT_BANK, unless it never
 * reaches the bank (between two of our own merchants: paid by one, or sent to our own participant).
 */
export function missingAtBank(settled: SettledTransfer, ownNit: string): FoundBreak | undefined {
  if (settled.own_payer || settled.counterparty_nit === ownNit) return undefined;
  return {
    kind: 'MISSING_AT_BANK',
    end_to_end_id: endToEndIdOfSettled(settled),
    direction: settled.direction,
    tenant: settled.tenant,
    account_id: settled.account_id,
    ...idsOf(settled),
    amount_here_cents: settled.amount_cents,
  };
}
