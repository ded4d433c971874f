/**
 * An account's ledger as finance teams read it (docs/reconciliation.md): its movements, a page at a
 * time, and the statement of a Colombian day. Another client's account is 404 here, as an unknown
 * one: its ledger is a part of it that the client cannot name.
 */
import type { MovementListQuery } from '../schemas/ledger';
import type { StoredAccount } from './accounts';
import { colombiaDay, isCalendarDay } from '../calendar/colombia-days';
import { uuidOf } from './clock';
import { AppError, invalidField } from './errors';
import {
  paginationInfo,
  parsePageRequest,
  walkPages,
  type ListAnswer,
  type ListCursor,
  type PageRequest,
  type PageUnder,
  type WalkPage,
} from './lists';
import { cop, type Money } from './money';

/**
 * REFUND: a refund's hold, the merchant's debit (docs/refunds.md); HOLD_RELEASE: a rejected payment's
 * or refund's amount given back to the account (docs/payments.md); REVERSAL: the sponsor bank taking
 * back a credit (docs/network.md).
 */
export type MovementKind = 'OPENING_BALANCE' | 'PAYMENT' | 'REFUND' | 'HOLD_RELEASE' | 'REVERSAL';

export interface StoredMovement {
  readonly account_id: string;
  /** Unique in its account's ledger (its time and what caused it): the movement's id follows from it. */
  readonly ledger_ref: string;
  readonly kind: MovementKind;
  /** Signed: a credit is positive, a debit negative. */
  readonly amount_cents: number;
  readonly payment_id?: string;
  readonly refund_id?: string;
  readonly created_at: string;
}

export interface PublicMovement {
  readonly id: string;
  readonly kind: MovementKind;
  readonly amount: Money;
  readonly payment_id?: string;
  readonly refund_id?: string;
  readonly created_at: string;
}

export const publicMovement = (movement: StoredMovement): PublicMovement => ({
  // The same id on every read, for movements written before ids were asked for too.
  id: uuidOf(`movement:${movement.account_id}:${movement.ledger_ref}`),
  kind: movement.kind,
  amount: cop(movement.amount_cents),
  ...(movement.payment_id === undefined ? {} : { payment_id: movement.payment_id }),
  ...(movement.refund_id === undefined ? {} : { refund_id: movement.refund_id }),
  created_at: movement.created_at,
});

/** What a day of an account's ledger adds up to. */
export interface LedgerDay {
  /** The available balance before the day's first movement. */
  readonly openingCents: number;
  readonly credits: { readonly count: number; readonly cents: number };
  /** Their amounts as positive numbers. */
  readonly debits: { readonly count: number; readonly cents: number };
}

export interface LedgerStore {
  /** A page of an account's movements, read with the account's owner (PageUnder). */
  movements(tenant: string, accountId: string, request: PageRequest): Promise<PageUnder<StoredMovement>>;
  /** The movements' walk read in order: the page after `after` (RecordReader's `walk`). */
  walkMovements(
    account: StoredAccount,
    request: PageRequest,
    after: ListCursor | undefined,
  ): Promise<WalkPage<StoredMovement>>;
  /** A day of an account's ledger, read with the account's owner: only the asking client's is read whole. */
  day(tenant: string, accountId: string, day: string): Promise<LedgerDayRead>;
}

/** A ledger day as LedgerStore.day reads it: the account's owner (undefined: no such account) and, for the asking client, the day. */
export interface LedgerDayRead {
  readonly ownerTenant: string | undefined;
  readonly day?: LedgerDay;
}

export interface LedgerDeps {
  readonly accounts: { get(id: string): Promise<StoredAccount | undefined> };
  readonly ledger: LedgerStore;
}

async function ownAccount(accounts: LedgerDeps['accounts'], tenant: string, id: string): Promise<StoredAccount> {
  const account = await accounts.get(id.toLowerCase());
  if (!account || account.tenant !== tenant) throw new AppError('NOT_FOUND', `Account ${id} does not exist`);
  return account;
}

/** GET /v1/accounts/{id}/movements: the list conventions, in created_at order. */
export async function listMovements(
  deps: Pick<LedgerDeps, 'ledger'>,
  tenant: string,
  accountId: string,
  query: MovementListQuery,
  now: string,
): Promise<ListAnswer<'movements', PublicMovement>> {
  const request = parsePageRequest(query, now);
  const page = await deps.ledger.movements(tenant, accountId.toLowerCase(), request);
  if (page.ownerTenant !== tenant) throw new AppError('NOT_FOUND', `Account ${accountId} does not exist`);
  return { movements: page.items.map(publicMovement), pagination_info: paginationInfo(request, page.total) };
}

/** An account's movements, all of them, a page at a time in order (a report's rows). */
export async function* walkMovements(
  deps: LedgerDeps,
  tenant: string,
  accountId: string,
  query: MovementListQuery,
  now: string,
): AsyncGenerator<PublicMovement[]> {
  const request = parsePageRequest(query, now);
  const account = await ownAccount(deps.accounts, tenant, accountId);
  yield* walkPages((after) => deps.ledger.walkMovements(account, request, after), publicMovement);
}

export interface Statement {
  readonly account_id: string;
  readonly date: string;
  readonly opening_balance: Money;
  readonly closing_balance: Money;
  readonly credits: { readonly count: number; readonly amount: Money };
  readonly debits: { readonly count: number; readonly amount: Money };
}

/** The statement of a ledger day: closing = opening + credits - debits, by construction. */
export const statementOf = (accountId: string, date: string, day: LedgerDay): Statement => ({
  account_id: accountId,
  date,
  opening_balance: cop(day.openingCents),
  closing_balance: cop(day.openingCents + day.credits.cents - day.debits.cents),
  credits: { count: day.credits.count, amount: cop(day.credits.cents) },
  debits: { count: day.debits.count, amount: cop(day.debits.cents) },
});

/**
 * GET /v1/accounts/{id}/statements/{date}: a Colombian calendar day up to today (today's so far; a
 * day to come has no statement yet: 400, as a date that is not one).
 */
export async function getStatement(
  deps: Pick<LedgerDeps, 'ledger'>,
  tenant: string,
  accountId: string,
  date: string,
  now: string,
): Promise<Statement> {
  if (!isCalendarDay(date)) throw invalidField('date', 'must be a calendar day YYYY-MM-DD');
  if (date > colombiaDay(now)) throw invalidField('date', 'must not be after today in Colombia (America/Bogota)');
  const id = accountId.toLowerCase();
  const read = await deps.ledger.day(tenant, id, date);
  if (read.ownerTenant !== tenant || !read.day) throw new AppError('NOT_FOUND', `Account ${accountId} does not exist`);
  return statementOf(id, date, read.day);
}
