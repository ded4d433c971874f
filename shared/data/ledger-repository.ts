/**
 * Reads of an account's ledger (docs/reconciliation.md): its movements through the list conventions,
 * and a day's statement from the account's ledger day, the sealed day after it and the day's own
 * movements (shared/data/movements.ts writes them), so that a statement's cost grows with that day's
 * movements only, never with the account's age.
 */
import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { StoredAccount } from '../domain/accounts';
import { dayBounds } from '../calendar/colombia-days';
import type { LedgerDay, LedgerDayRead, LedgerStore, StoredMovement } from '../domain/ledger';
import type { ListCursor, PageRequest, PageUnder, WalkPage } from '../domain/lists';
import { ledgerItemOf, ledgerKeys, readAccountItems, type AccountItems } from './balances';
import { dynamo, tableName } from './client';
import { itemKeys, withoutStorageAttributes } from './item-keys';
import { listPage, ownerOf, walkPage, type Item, type ListSource } from './pagination';

/** An account's movements as a list's source: its own item collection, counted on the account. */
export const movementSource = (account: Pick<StoredAccount, 'id' | 'tenant'>): ListSource => ({
  tenant: account.tenant,
  collection: 'MOVEMENT',
  itemCollection: {
    pk: itemKeys.account(account.id).pk,
    prefix: itemKeys.movementPrefix,
    // Counted on the balance item (a legacy account's own item), in each move's transaction; from the
    // first only on accounts linked with ledger days.
    counter: { ...ledgerKeys(account.id), attribute: 'moves', trustedIf: 'lsince' },
  },
});

/** A movement as the domain reads it; `ledger_ref` (its sort key's time and reference) names it. */
const storedMovement = (item: Item): StoredMovement => ({
  ...withoutStorageAttributes<Omit<StoredMovement, 'ledger_ref'>>(item),
  ledger_ref: String(item['sk']).slice(itemKeys.movementPrefix.length),
});

/** What reading a day cost: DynamoDB's consumed read capacity and the calls made (the benchmark's). */
export interface ReadCost {
  calls: number;
  readCapacity: number;
}

async function query(cost: ReadCost, input: Omit<QueryCommandInput, 'TableName'>) {
  const output = await dynamo().send(
    new QueryCommand({ TableName: tableName(), ConsistentRead: true, ReturnConsumedCapacity: 'TOTAL', ...input }),
  );
  cost.calls += 1;
  cost.readCapacity += output.ConsumedCapacity?.CapacityUnits ?? 0;
  return output;
}

/** Adds up the amounts of the movements between two sort keys (inclusive), page after page, keeping none. */
async function sumMovements(cost: ReadCost, pk: string, from: string, to: string) {
  const totals = { credits: { count: 0, cents: 0 }, debits: { count: 0, cents: 0 } };
  let ExclusiveStartKey: Record<string, unknown> | undefined;
  do {
    const page = await query(cost, {
      KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
      ExpressionAttributeValues: { ':pk': pk, ':from': from, ':to': to },
      ProjectionExpression: 'amount_cents',
      ...(ExclusiveStartKey ? { ExclusiveStartKey } : {}),
    });
    for (const item of page.Items ?? []) {
      const cents = Number(item['amount_cents']);
      if (cents > 0) totals.credits = { count: totals.credits.count + 1, cents: totals.credits.cents + cents };
      if (cents < 0) totals.debits = { count: totals.debits.count + 1, cents: totals.debits.cents - cents };
    }
    ExclusiveStartKey = page.LastEvaluatedKey;
  } while (ExclusiveStartKey);
  return totals;
}

/**
 * The opening balance of `day`: the opening of the first day at or after it that has movements (the
 * days between have none, so their balance does not change), which is the first sealed day at or
 * after it, or the day the account is on, whichever comes first; past both, the balance. The ledger
 * (the balance item) is read first: a day sealed after that read is the day it was on, with the same
 * opening.
 */
async function openingOf(cost: ReadCost, accountId: string, day: string, ledger: Item): Promise<number> {
  const { pk } = itemKeys.account(accountId);
  if (ledger['lsince'] === undefined) {
    // Linked before ledger days: the sum of every movement before the day (grows with its age).
    const before = await sumMovements(
      cost,
      pk,
      itemKeys.movementPrefix,
      `${itemKeys.movementPrefix}${dayBounds(day).start}`,
    );
    return before.credits.cents - before.debits.cents;
  }
  const { Items = [] } = await query(cost, {
    KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
    ExpressionAttributeValues: {
      ':pk': pk,
      ':from': itemKeys.ledgerDay(accountId, day).sk,
      ':to': `${itemKeys.ledgerDayPrefix}~`,
    },
    Limit: 1,
  });
  const sealed = Items[0];
  const sealedDay = sealed && String(sealed['sk']).slice(itemKeys.ledgerDayPrefix.length);
  const onDay = String(ledger['lday']);
  if (sealedDay !== undefined && (onDay < day || sealedDay < onDay)) return Number(sealed!['opening_balance_cents']);
  if (onDay >= day) return Number(ledger['lday_open']);
  return Number(ledger['available_balance_cents']);
}

/** A Colombian day of an account's ledger, and what reading it cost. */
export async function readLedgerDay(accountId: string, day: string): Promise<{ day: LedgerDay; cost: ReadCost }> {
  const cost: ReadCost = { calls: 0, readCapacity: 0 };
  const items = await readAccount(cost, accountId);
  if (!items.account) throw new Error(`Account ${accountId} does not exist`);
  return { day: await dayOf(cost, accountId, day, items), cost };
}

/** The account and its balance item, strongly consistent: what a day's reading starts with. */
async function readAccount(cost: ReadCost, accountId: string): Promise<AccountItems> {
  const items = await readAccountItems(accountId, true);
  cost.calls += 2;
  cost.readCapacity += items.readCapacity;
  return items;
}

async function dayOf(cost: ReadCost, accountId: string, day: string, items: AccountItems): Promise<LedgerDay> {
  const ledger = ledgerItemOf(items)!;
  const { start, end } = dayBounds(day);
  const { pk } = itemKeys.account(accountId);
  const [openingCents, totals] = await Promise.all([
    openingOf(cost, accountId, day, ledger),
    sumMovements(cost, pk, `${itemKeys.movementPrefix}${start}`, `${itemKeys.movementPrefix}${end}~`),
  ]);
  return { openingCents, ...totals };
}

export const dynamoLedgerStore: LedgerStore = {
  async movements(tenant: string, accountId: string, request: PageRequest): Promise<PageUnder<StoredMovement>> {
    // The account is the list's parent: read once, as the counter of its movements.
    const page = await listPage({
      source: movementSource({ id: accountId, tenant }),
      filters: [],
      request,
      parent: { key: itemKeys.account(accountId), tenant },
    });
    return { items: page.items.map(storedMovement), total: page.total, ownerTenant: ownerOf(page.parent) };
  },

  async walkMovements(
    account: StoredAccount,
    request: PageRequest,
    after: ListCursor | undefined,
  ): Promise<WalkPage<StoredMovement>> {
    const page = await walkPage({ source: movementSource(account), filters: [], request }, after);
    return { items: page.items.map(storedMovement), ...(page.next ? { next: page.next } : {}) };
  },

  async day(tenant: string, accountId: string, day: string): Promise<LedgerDayRead> {
    const cost: ReadCost = { calls: 0, readCapacity: 0 };
    const items = await readAccount(cost, accountId);
    const ownerTenant = ownerOf(items.account);
    // Another client's account: nothing more of it is read.
    if (ownerTenant !== tenant) return { ownerTenant };
    return { ownerTenant, day: await dayOf(cost, accountId, day, items) };
  },
};
