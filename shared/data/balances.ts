/**
 * An account's balance item (docs/data-model.md, BALANCE): its available balance, its movement count
 * and its ledger day (shared/data/movements.ts), in an item of its own beside the account item
 * (`ACCOUNT#<id>` / `BALANCE`). Every payment and refund moves it. The account item is listed in four
 * indexes (the client's accounts and the customer's, by creation and by update): were the balance on
 * it, each move would rewrite those four copies too, 8 of a payment's write units, all landing on the
 * client's one account-list partition of each index (docs/scale.md).
 *
 * Accounts linked before kept the balance on the account item. It is read from there until the
 * account's first move since, which moves it out first (moveLegacyBalance), in one transaction that
 * also leaves `available_balance_cents` on the account item a string: an older copy of the code still
 * running during a deploy can neither debit (a string is never >= an amount) nor credit (ADD refuses a
 * string) the stale copy, so no move is ever lost.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { colombiaDay } from '../calendar/colombia-days';
import { dynamo, tableName } from './client';
import { itemKeys, type ItemKey } from './item-keys';
import type { ListJoin } from './list-plans';
import { transactWrite, type TransactItem } from './transactions';

type Item = Record<string, unknown>;

/** The entity of a balance item. */
export const BALANCE_ENTITY = 'BALANCE';

/** What a balance item holds: the balance, and the ledger's day and count (shared/data/movements.ts). */
export const LEDGER_ATTRIBUTES = ['available_balance_cents', 'moves', 'lday', 'lday_open', 'lsince'] as const;

/** Reads and writes of a legacy account's move before its stale copy stops moving (a deploy's minutes). */
const MOVE_ATTEMPTS = 5;

/** What a moved-out legacy account item's `available_balance_cents` holds instead of a number. */
export const MOVED_TO_BALANCE_ITEM = 'IN_BALANCE_ITEM';

/**
 * The balance item of a newly linked account: its opening balance, one movement (the opening's), and
 * its first ledger day, which opens at zero before the opening balance.
 */
export function newBalancePut(accountId: string, openingCents: number, createdAt: string): TransactItem {
  const day = colombiaDay(createdAt);
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...itemKeys.accountBalance(accountId),
        entity: BALANCE_ENTITY,
        account_id: accountId,
        available_balance_cents: openingCents,
        moves: 1,
        lday: day,
        lday_open: 0,
        lsince: day,
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** An account's two items, as read. */
export interface AccountItems {
  readonly account?: Item;
  readonly balance?: Item;
}

/**
 * The account item and its balance item, read at once: two GetItems, the one action every function
 * reading an account is granted (a Query of the two would need Query, which lists partitions too).
 * The balance item is read strongly consistent whatever `consistent` says: a legacy account's, moved
 * out a moment ago, is never missed (its account item no longer holds a number).
 */
export async function readAccountItems(
  accountId: string,
  consistent: boolean,
): Promise<AccountItems & { readonly readCapacity: number }> {
  const [account, balance] = await Promise.all(
    [
      { Key: itemKeys.account(accountId), ConsistentRead: consistent },
      { Key: itemKeys.accountBalance(accountId), ConsistentRead: true },
    ].map((read) =>
      dynamo().send(new GetCommand({ TableName: tableName(), ...read, ReturnConsumedCapacity: 'TOTAL' })),
    ),
  );
  return {
    ...(account!.Item ? { account: account!.Item } : {}),
    ...(balance!.Item ? { balance: balance!.Item } : {}),
    readCapacity: (account!.ConsumedCapacity?.CapacityUnits ?? 0) + (balance!.ConsumedCapacity?.CapacityUnits ?? 0),
  };
}

/** The item that holds an account's ledger: its balance item, or a legacy account's own item. */
export const ledgerItemOf = ({ account, balance }: AccountItems): Item | undefined => balance ?? account;

/** The account item with its balance as the ledger holds it. */
export const withBalance = (account: Item, balance: Item | undefined): Item =>
  balance ? { ...account, available_balance_cents: balance['available_balance_cents'] } : account;

/** The keys that read an account's ledger whatever its age: its balance item and (a legacy one) its own. */
export const ledgerKeys = (accountId: string): { readonly key: ItemKey; readonly legacyKey: ItemKey } => ({
  key: itemKeys.accountBalance(accountId),
  legacyKey: itemKeys.account(accountId),
});

/**
 * A list of accounts reads each account's balance item with its page (ListJoin). An account whose item
 * holds no balance (a new one, or a legacy one moved out) cannot be answered without it.
 */
export const balanceJoin: ListJoin = {
  sk: itemKeys.accountBalance('').sk,
  merge: withBalance,
  needs: (account) => typeof account['available_balance_cents'] !== 'number',
};

/**
 * Moves a legacy account's ledger from its account item to its balance item (see above). Answers true
 * when the balance item exists now (moved by this call or another), false when there is no account
 * to move. A move of the stale copy between the read and this write fails the write's condition: it
 * is read and tried again.
 */
export async function moveLegacyBalance(accountId: string): Promise<boolean> {
  for (let attempt = 1; ; attempt += 1) {
    const { account, balance } = await readAccountItems(accountId, true);
    // The two items are read side by side, not at one instant: a move that commits between the two
    // reads shows no balance item but an account item marked as moved. The mark is written in the
    // same transaction as the balance item, so the item exists.
    if (balance || account?.['available_balance_cents'] === MOVED_TO_BALANCE_ITEM) return true;
    if (!account || typeof account['available_balance_cents'] !== 'number') return false;
    const present = LEDGER_ATTRIBUTES.filter((name) => account[name] !== undefined);
    const values = Object.fromEntries(present.map((name) => [name, account[name]]));
    try {
      await transactWrite({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: { ...itemKeys.accountBalance(accountId), entity: BALANCE_ENTITY, account_id: accountId, ...values },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: itemKeys.account(accountId),
              UpdateExpression: 'SET #balance = :moved',
              // Unchanged since it was read: the ledger attributes are what the balance item gets.
              ConditionExpression: LEDGER_ATTRIBUTES.map((name, i) =>
                name in values ? `#l${i} = :l${i}` : `attribute_not_exists(#l${i})`,
              ).join(' AND '),
              ExpressionAttributeNames: {
                '#balance': 'available_balance_cents',
                ...Object.fromEntries(LEDGER_ATTRIBUTES.map((name, i) => [`#l${i}`, name])),
              },
              ExpressionAttributeValues: {
                ':moved': MOVED_TO_BALANCE_ITEM,
                ...Object.fromEntries(
                  LEDGER_ATTRIBUTES.flatMap((name, i) => (name in values ? [[`:l${i}`, values[name]]] : [])),
                ),
              },
            },
          },
        ],
      });
      return true;
    } catch (error) {
      // Another request moved it first, or moved the stale copy's balance: read again.
      if (!(error instanceof TransactionCanceledException) || attempt >= MOVE_ATTEMPTS) throw error;
    }
  }
}
