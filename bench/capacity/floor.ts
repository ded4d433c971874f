/**
 * The floor of a write (issue 31): the write units the change itself must cost, from the items its
 * requests sent to DynamoDB (bench/capacity/measure.ts), at DynamoDB's rules: an item costs one unit
 * per started KB, twice in a transaction. What is in the floor:
 * - every item put, updated or deleted, but the list counters (`COUNT#`, and `DAYCOUNT#` by day) and the idempotency records
 *   (`IDEMPOTENCY#`): what a change of the resource must write, its guards (uniqueness) included;
 * - the copies a new or moved item needs in the indexes the contract reads: its client's lists in
 *   creation and update order (gsi1, gsi2, ALL) and, for work that must recover by itself, `due`.
 * - an updated item's copies too: its copy in each of those indexes holds every attribute, so the
 *   change rewrites it, and a move in update order (a new `gsi2sk`) is a delete and a put there. The
 *   item is measured as stored after the update (bench/capacity/measure.ts reads it);
 * - a deleted item's copies in those indexes, which the delete takes out: measured as the item was
 *   just before (the meter reads it: bench/functions/dynamodb-meter.ts).
 * Left out: condition checks (they write nothing), the keys-only twins and the scope indexes (gsi3,
 * gsi4: ways to make lists cheaper to read, not what the change must write), counters and
 * idempotency records.
 */
import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';
import type { LoggedCall } from '../functions/dynamodb-meter';

type AttributeValue = Record<string, unknown>;

/** DynamoDB's size of an attribute value (names and values in UTF-8 bytes, numbers about a byte per two digits). */
function valueSize(value: AttributeValue): number {
  const [type, inner] = Object.entries(value)[0] as [string, unknown];
  switch (type) {
    case 'S':
    case 'B':
      return Buffer.byteLength(String(inner));
    case 'N':
      return Math.ceil(String(inner).replace(/^-/, '').length / 2) + 1;
    case 'BOOL':
    case 'NULL':
      return 1;
    case 'M':
      return 3 + itemSize(inner as Record<string, AttributeValue>);
    case 'L':
      return 3 + (inner as AttributeValue[]).reduce((sum, v) => sum + 1 + valueSize(v), 0);
    default:
      return Buffer.byteLength(JSON.stringify(inner));
  }
}

export function itemSize(item: Record<string, AttributeValue>): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value), 0);
}

const units = (bytes: number): number => Math.max(1, Math.ceil(bytes / 1024));

/** The indexes whose copy of an item belongs to the floor, by the attribute that puts the item in them. */
const FLOOR_INDEXES = ['gsi1pk', 'gsi2pk', 'duepk'];

const isOverhead = (key: Record<string, AttributeValue> | undefined): boolean => {
  const pk = String((key?.['pk'] as { S?: string } | undefined)?.S ?? '');
  return pk.startsWith('COUNT#') || pk.startsWith('DAYCOUNT#') || pk.startsWith('IDEMPOTENCY#');
};

interface Written {
  readonly kind: 'Put' | 'Update' | 'Delete';
  readonly body: Record<string, unknown>;
}

/** Items as stored after the calls (bench/capacity/measure.ts reads them), by storedKey. */
export type StoredItems = ReadonlyMap<string, Record<string, unknown>>;

/** An item's entry in StoredItems: `<pk>|<sk>` of its (unmarshalled) key. */
export const storedKey = (key: Record<string, unknown>): string => `${String(key['pk'])}|${String(key['sk'])}`;

/** Whether an update sets or removes an attribute, named directly or through ExpressionAttributeNames. */
function touchesAttribute(body: Record<string, unknown>, attribute: string): boolean {
  const names = Object.entries((body['ExpressionAttributeNames'] ?? {}) as Record<string, string>);
  const expression = String(body['UpdateExpression'] ?? '');
  return (
    new RegExp(`\\b${attribute}\\b`).test(expression) ||
    names.some(([placeholder, name]) => name === attribute && expression.includes(placeholder))
  );
}

function floorOfItem({ kind, body }: Written, transactional: boolean, stored: StoredItems): number {
  const factor = transactional ? 2 : 1;
  if (kind === 'Delete') {
    // Taken out of the table and out of its lists' copies, at its size as it was.
    const item = stored.get(storedKey(unmarshall(body['Key'] as Parameters<typeof unmarshall>[0])));
    if (!item) return factor;
    const copies = FLOOR_INDEXES.filter((attribute) => attribute in item).length;
    return factor * units(itemSize(marshall(item) as unknown as Record<string, AttributeValue>)) * (1 + copies);
  }
  if (kind === 'Update') {
    const item = stored.get(storedKey(unmarshall(body['Key'] as Parameters<typeof unmarshall>[0])));
    if (!item) return factor;
    const size = units(itemSize(marshall(item) as unknown as Record<string, AttributeValue>));
    // Its copy in the lists by creation and in due work is rewritten; in the lists by update, moved
    // (a delete and a put) when its updated_at moves it, else rewritten.
    const copies =
      ('gsi1pk' in item ? 1 : 0) +
      ('gsi2pk' in item ? (touchesAttribute(body, 'gsi2sk') ? 2 : 1) : 0) +
      ('duepk' in item || touchesAttribute(body, 'duepk') ? 1 : 0);
    return factor * size * (1 + copies);
  }
  const item = body['Item'] as Record<string, AttributeValue>;
  const size = units(itemSize(item));
  const copies = FLOOR_INDEXES.filter((attribute) => attribute in item).length;
  return factor * size * (1 + copies);
}

/** The floor of the write calls among `calls`, in write units. */
export function writeFloor(calls: readonly LoggedCall[], stored: StoredItems = new Map()): number {
  let floor = 0;
  for (const call of calls) {
    const transactional = call.operation === 'TransactWriteItems';
    const written: Written[] = [];
    if (transactional) {
      for (const entry of call.input['TransactItems'] as Record<string, Record<string, unknown>>[]) {
        const [kind, body] = Object.entries(entry)[0]!;
        if (kind === 'Put' || kind === 'Update' || kind === 'Delete') written.push({ kind, body });
      }
    } else if (call.operation === 'PutItem') written.push({ kind: 'Put', body: call.input });
    else if (call.operation === 'UpdateItem') written.push({ kind: 'Update', body: call.input });
    else if (call.operation === 'DeleteItem') written.push({ kind: 'Delete', body: call.input });
    else if (call.operation === 'BatchWriteItem') {
      for (const requests of Object.values(call.input['RequestItems'] as Record<string, Record<string, unknown>[]>)) {
        for (const request of requests) {
          if (request['PutRequest'])
            written.push({ kind: 'Put', body: request['PutRequest'] as Record<string, unknown> });
          if (request['DeleteRequest']) {
            written.push({ kind: 'Delete', body: request['DeleteRequest'] as Record<string, unknown> });
          }
        }
      }
    }
    for (const item of written) {
      const key = (item.body['Item'] ?? item.body['Key']) as Record<string, AttributeValue> | undefined;
      if (!isOverhead(key)) floor += floorOfItem(item, transactional, stored);
    }
  }
  return floor;
}

/** Read and write units DynamoDB reported for `calls`. */
export function capacityOf(calls: readonly LoggedCall[]): { read: number; write: number } {
  let read = 0;
  let write = 0;
  for (const call of calls) {
    for (const consumed of [call.output?.['ConsumedCapacity'] ?? []].flat() as Record<string, number>[]) {
      if (consumed['ReadCapacityUnits'] !== undefined || consumed['WriteCapacityUnits'] !== undefined) {
        read += consumed['ReadCapacityUnits'] ?? 0;
        write += consumed['WriteCapacityUnits'] ?? 0;
      } else if (/^(Get|Query|Scan|BatchGet|TransactGet)/.test(call.operation)) read += consumed['CapacityUnits'] ?? 0;
      else write += consumed['CapacityUnits'] ?? 0;
    }
  }
  return { read, write };
}

/** Write units by table and index, as DynamoDB reported them (ReturnConsumedCapacity INDEXES). */
export function writesByIndex(calls: readonly LoggedCall[]): Record<string, number> {
  const by: Record<string, number> = {};
  for (const call of calls) {
    if (/^(Get|Query|Scan|BatchGet|TransactGet)/.test(call.operation)) continue;
    for (const consumed of [call.output?.['ConsumedCapacity'] ?? []].flat() as Record<string, unknown>[]) {
      const table = consumed['Table'] as { CapacityUnits?: number } | undefined;
      by['table'] = (by['table'] ?? 0) + (table?.CapacityUnits ?? 0);
      for (const [index, used] of Object.entries(
        (consumed['GlobalSecondaryIndexes'] ?? {}) as Record<string, { CapacityUnits?: number }>,
      )) {
        by[index] = (by[index] ?? 0) + (used.CapacityUnits ?? 0);
      }
    }
  }
  return by;
}
