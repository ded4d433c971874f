/**
 * Reconciliation with the sponsor bank in DynamoDB (docs/data-model.md; docs/reconciliation.md,
 * "Against the bank"). A Bogotá day is one item collection, `RECONCILIATION#<date>`: its file's record
 * (`FILE`: the version its latest PUT made, in the index of due work until a run completes it) and
 * each client's result (`TENANT#<tenant>`). A client's breaks are listed records of its own
 * (`SETTLEMENT_BREAK`, scope `DAY#<date>`), never changed: a new file's run writes its own and takes
 * the old file's away. Every write of a run holds only while its version is still the day's.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type {
  AccountDirectory,
  BreakFilters,
  ReconciliationStore,
  StoredBreak,
  StoredReconciliation,
  TransferSource,
} from '../domain/reconciliations';
import type { StoredSettlementFile } from '../domain/settlement-files';
import type { StoredPayment } from '../domain/payments';
import type { StoredRefund } from '../domain/refunds';
import { dynamo, tableName } from './client';
import { counterIncrements, counterIncrementsOf } from './counters';
import { DUE_ATTRIBUTES, dueKeys } from './due-work';
import { eventsPut } from './events';
import { listPartitions, listedRecordPut } from './inserts';
import { itemKeys, scopePartition, SETTLEMENT_FILE_ENTITY, withoutStorageAttributes, type ItemKey } from './item-keys';
import { Meter, keyText } from './list-plans';
import { listedStore, recordGetter, listingOf, type ListedKind } from './listed-records';
import { getRecord } from './records';
import { writeUnless, type Condition, type TransactItem } from './transactions';

const BREAK_ENTITY = 'SETTLEMENT_BREAK';
const RECONCILIATION_ENTITY = 'RECONCILIATION';

const dayScope = (date: string): string => `DAY#${date}`;

const BREAKS: ListedKind<StoredBreak, BreakFilters> = {
  name: BREAK_ENTITY,
  key: itemKeys.settlementBreak,
  scopeOf: (record) => dayScope(record.date),
  // The list is always a day's: its scope's partition alone is read.
  where: (filters) => ({ scope: dayScope(filters.date) }),
  // Never changed (a new file's breaks are new records): listed by creation only.
  immutable: true,
};

/** Breaks written in one transaction: with the file's check and their counters, well within 100 items. */
const BREAKS_PER_WRITE = 20;

/** Holds only while `version` is the day's file (a PUT of the day replaces it). */
const whileVersion = (date: string, version: string): Condition<'replaced'> => ({
  item: {
    ConditionCheck: {
      TableName: tableName(),
      Key: itemKeys.settlementFile(date),
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': version },
    },
  },
  refused: () => 'replaced',
});

const breakPut = (record: StoredBreak): TransactItem =>
  listedRecordPut(record, BREAKS.key(record.id), BREAKS.name, listingOf(BREAKS, record));

const breakCounters = (records: readonly StoredBreak[]) =>
  counterIncrementsOf(
    records.map((record) => ({ partitions: listPartitions(record, listingOf(BREAKS, record)), itemId: record.id })),
  );

/**
 * Writes `records` while `version` is the day's: all at once, or, when some were written before (a
 * run again), one at a time, each only where it is not. 'replaced' once the day has another version.
 */
async function writeBreaks(date: string, version: string, records: readonly StoredBreak[]): Promise<boolean> {
  const all = await writeUnless<'replaced' | 'exists'>(
    [
      whileVersion(date, version),
      ...records.map((record) => ({ item: breakPut(record), refused: () => 'exists' as const })),
    ],
    breakCounters(records),
  );
  if (all === undefined) return true;
  if (all === 'replaced' || records.length === 1) return all !== 'replaced';
  for (const record of records) {
    const one = await writeUnless<'replaced' | 'exists'>(
      [whileVersion(date, version), { item: breakPut(record), refused: () => 'exists' }],
      breakCounters([record]),
    );
    if (one === 'replaced') return false;
  }
  return true;
}

/** The reconciliation's reads and writes, without the breaks' list reads (listed-records.ts: listedStore). */
export const dynamoReconciliationWrites: Omit<ReconciliationStore, 'list' | 'walk'> = {
  ...recordGetter(BREAKS),

  file: (date) => getRecord<StoredSettlementFile>(itemKeys.settlementFile(date), { consistent: true }),

  async startRun(date, version, until) {
    try {
      const { Attributes } = await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.settlementFile(date),
          UpdateExpression: 'SET runs = if_not_exists(runs, :zero) + :one, duesk = :until',
          ConditionExpression: 'version = :version AND #status = :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':zero': 0,
            ':one': 1,
            ':until': until,
            ':version': version,
            ':pending': 'PENDING',
          },
          ReturnValues: 'ALL_NEW',
        }),
      );
      return Attributes && withoutStorageAttributes<StoredSettlementFile>(Attributes);
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return undefined;
      throw error;
    }
  },

  summary: (tenant, date) =>
    getRecord<StoredReconciliation>(itemKeys.reconciliation(tenant, date), { consistent: true }),

  async summaries(date) {
    const found: StoredReconciliation[] = [];
    let start: Record<string, unknown> | undefined;
    do {
      const page = await dynamo().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :tenant)',
          ExpressionAttributeValues: {
            ':pk': itemKeys.settlementFile(date).pk,
            ':tenant': itemKeys.reconciliationTenantPrefix,
          },
          ConsistentRead: true,
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      found.push(...(page.Items ?? []).map((item) => withoutStorageAttributes<StoredReconciliation>(item)));
      start = page.LastEvaluatedKey;
    } while (start);
    return found;
  },

  async addBreaks(date, version, breaks) {
    for (let i = 0; i < breaks.length; i += BREAKS_PER_WRITE) {
      if (!(await writeBreaks(date, version, breaks.slice(i, i + BREAKS_PER_WRITE)))) return false;
    }
    // No break: the version is still checked, so a replaced run stops here too.
    if (breaks.length === 0) return (await dynamoReconciliationWrites.file(date))?.version === version;
    return true;
  },

  async finishTenant(summary, event) {
    const refused = await writeUnless<'replaced' | 'done'>(
      [
        whileVersion(summary.date, summary.version),
        {
          item: {
            Put: {
              TableName: tableName(),
              Item: {
                ...itemKeys.reconciliation(summary.tenant, summary.date),
                entity: RECONCILIATION_ENTITY,
                ...summary,
              },
              ConditionExpression: 'attribute_not_exists(pk) OR version <> :version',
              ExpressionAttributeValues: { ':version': summary.version },
            },
          },
          refused: () => 'done',
        },
      ],
      eventsPut([event]),
    );
    return refused ?? 'written';
  },

  async removeStaleBreaks(tenant, date, version) {
    let removed = 0;
    let start: Record<string, unknown> | undefined;
    do {
      const page = await dynamo().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: 'gsi3',
          KeyConditionExpression: 'gsi3pk = :scope',
          FilterExpression: 'version <> :version',
          ExpressionAttributeValues: {
            ':scope': scopePartition(tenant, BREAK_ENTITY, dayScope(date)),
            ':version': version,
          },
          ...(start ? { ExclusiveStartKey: start } : {}),
        }),
      );
      for (const item of page.Items ?? []) {
        const stale = withoutStorageAttributes<StoredBreak>(item);
        // Only while the run's version is the day's: a run of a replaced file never deletes the new one's.
        const refused = await writeUnless<'replaced' | 'gone'>(
          [
            whileVersion(date, version),
            {
              item: {
                Delete: {
                  TableName: tableName(),
                  Key: BREAKS.key(stale.id),
                  ConditionExpression: 'attribute_exists(pk)',
                },
              },
              refused: () => 'gone',
            },
          ],
          counterIncrements(listPartitions(stale, listingOf(BREAKS, stale)), stale.id, -1),
        );
        if (refused === 'replaced') return undefined;
        if (refused === undefined) removed += 1;
      }
      start = page.LastEvaluatedKey;
    } while (start);
    return removed;
  },

  async complete(file) {
    const done = Object.fromEntries(
      Object.entries({
        status: file.status,
        completed_at: file.completed_at,
        break_count: file.break_count,
        unassigned_count: file.unassigned_count,
      }).filter(([, value]) => value !== undefined),
    );
    const names = Object.keys(done);
    try {
      await dynamo().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: itemKeys.settlementFile(file.date),
          UpdateExpression: `SET ${names.map((name) => `#${name} = :${name}`).join(', ')} REMOVE ${DUE_ATTRIBUTES.join(', ')}`,
          ConditionExpression: 'version = :version',
          ExpressionAttributeNames: Object.fromEntries(names.map((name) => [`#${name}`, name])),
          ExpressionAttributeValues: {
            ...Object.fromEntries(Object.entries(done).map(([name, value]) => [`:${name}`, value])),
            ':version': file.version,
          },
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  },
};

export const dynamoReconciliationStore: ReconciliationStore = /* @__PURE__ */ listedStore(
  BREAKS,
  dynamoReconciliationWrites,
);

/**
 * The day's file record, replacing the one before (a day sent again): PENDING and due from its
 * receipt, so that a run lost after this write is queued again by the sweeper.
 */
export async function receiveSettlementFileRecord(file: StoredSettlementFile): Promise<void> {
  await dynamo().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        ...itemKeys.settlementFile(file.date),
        entity: SETTLEMENT_FILE_ENTITY,
        ...file,
        ...dueKeys(`settlement-file:${file.date}`, file.received_at),
      },
    }),
  );
}

/** Our payments and refunds by id: one BatchGetItem per 100 keys, eventually consistent (settled long since). */
export const dynamoTransferSource: TransferSource = {
  async read(paymentIds, refundIds) {
    const keys: ItemKey[] = [...paymentIds.map(itemKeys.payment), ...refundIds.map(itemKeys.refund)];
    if (keys.length === 0) return { payments: [], refunds: [] };
    const found = await new Meter().getAll(keys, false);
    const of = <T>(key: ItemKey): T[] => {
      const item = found.get(keyText(key));
      return item ? [withoutStorageAttributes<T>(item)] : [];
    };
    return {
      payments: paymentIds.flatMap((id) => of<StoredPayment>(itemKeys.payment(id))),
      refunds: refundIds.flatMap((id) => of<StoredRefund>(itemKeys.refund(id))),
    };
  },
};

/** Our clients' accounts: their numbers by id, and by number (its claim across all clients) the account and its client. */
export const dynamoAccountDirectory: AccountDirectory = {
  async numbers(accountIds) {
    if (accountIds.length === 0) return new Map();
    const found = await new Meter().getAll(accountIds.map(itemKeys.account), false);
    return new Map([...found.values()].map((item) => [String(item['id']), String(item['number'])]));
  },
  async owners(numbers) {
    if (numbers.length === 0) return new Map();
    const meter = new Meter();
    const claims = await meter.getAll(numbers.map(itemKeys.accountNumberClaim), false);
    const accountIds = new Map(
      numbers.flatMap((number) => {
        const claim = claims.get(keyText(itemKeys.accountNumberClaim(number)));
        return claim ? [[number, String(claim['account_id'])] as const] : [];
      }),
    );
    const accounts = accountIds.size
      ? await meter.getAll([...accountIds.values()].map(itemKeys.account), false)
      : new Map();
    const owners = new Map<string, { tenant: string; account_id: string }>();
    for (const [number, accountId] of accountIds) {
      const account = accounts.get(keyText(itemKeys.account(accountId)));
      if (account) owners.set(number, { tenant: String(account['tenant']), account_id: accountId });
    }
    return owners;
  },
};
