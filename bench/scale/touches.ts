/**
 * The partitions one request touches and the units it spends in each, from the calls the recording
 * proxy kept (bench/capacity/measure.ts): base-table partitions from the items' keys, index
 * partitions from the index keys of the items written (a put's own attributes; an updated item's as
 * stored, read after the requests), at DynamoDB's rules: a write unit per started KB, twice in a
 * transaction, in the table and in every index the item is in; reads as DynamoDB reported them.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { LoggedCall } from '../functions/dynamodb-meter';
import { tableDefinition } from '../../shared/data/table';
import { itemSize, storedKey, type StoredItems } from '../capacity/floor';

export interface Touch {
  /** `table` or the index name. */
  readonly index: string;
  /** The partition key value. */
  readonly partition: string;
  readonly wcu: number;
  readonly rcu: number;
}

type Marshalled = Record<string, AttributeValue>;
const units = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1024));

/** The table's indexes as the code defines them (shared/data/table.ts): an ALL one holds the whole item. */
const INDEXES = tableDefinition.globalSecondaryIndexes.map((index) => ({
  name: index.indexName,
  pk: index.partitionKey,
  all: index.projection === 'ALL',
}));

function indexWrites(item: Record<string, unknown>, factor: number, bytes: number): Touch[] {
  return INDEXES.flatMap((index) => {
    const partition = item[index.pk];
    if (typeof partition !== 'string') return [];
    return [{ index: index.name, partition, wcu: factor * (index.all ? units(bytes) : 1), rcu: 0 }];
  });
}

export function touchesOf(calls: readonly LoggedCall[], stored: StoredItems): Touch[] {
  const touches: Touch[] = [];
  for (const call of calls) {
    const consumed = [call.output?.['ConsumedCapacity'] ?? []].flat() as Record<string, number>[];
    const reported = consumed.reduce((sum, c) => sum + (c['CapacityUnits'] ?? 0), 0);
    if (call.operation === 'GetItem') {
      const key = unmarshall(call.input['Key'] as Marshalled);
      touches.push({ index: 'table', partition: String(key['pk']), wcu: 0, rcu: reported });
      continue;
    }
    if (call.operation === 'Query') {
      const values = unmarshall(call.input['ExpressionAttributeValues'] as Marshalled);
      const partition = String(values[':pk'] ?? values[':shard'] ?? Object.values(values)[0]);
      touches.push({ index: String(call.input['IndexName'] ?? 'table'), partition, wcu: 0, rcu: reported });
      continue;
    }
    if (!['PutItem', 'UpdateItem', 'DeleteItem', 'TransactWriteItems'].includes(call.operation)) continue;
    const factor = call.operation === 'TransactWriteItems' ? 2 : 1;
    const entries: [string, Record<string, unknown>][] =
      call.operation === 'TransactWriteItems'
        ? (call.input['TransactItems'] as Record<string, Record<string, unknown>>[]).map((e) => Object.entries(e)[0]!)
        : [[call.operation.replace('Item', ''), call.input]];
    for (const [kind, body] of entries) {
      const marshalled = body['Item'] as Marshalled | undefined;
      const key = unmarshall((marshalled ?? body['Key']) as Marshalled);
      if (kind === 'ConditionCheck') {
        touches.push({ index: 'table', partition: String(key['pk']), wcu: 0, rcu: factor * 0.5 });
        continue;
      }
      const item = marshalled ? unmarshall(marshalled) : stored.get(storedKey(key));
      const bytes = marshalled ? itemSize(marshalled as unknown as Record<string, Record<string, unknown>>) : 1024;
      touches.push({ index: 'table', partition: String(key['pk']), wcu: factor * units(bytes), rcu: 0 });
      // An update rewrites the item's copy in every ALL index it is in (its keys-only entries only
      // when their keys change, which the list moves do not any more: shared/data/movements.ts).
      if (item) {
        const written = indexWrites(item, factor, bytes);
        touches.push(...(marshalled ? written : written.filter((t) => !t.index.endsWith('keys'))));
      }
    }
  }
  return touches;
}
