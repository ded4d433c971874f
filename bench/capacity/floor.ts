/**
 * The floor of a write (issue 31): the write units the change itself must cost, from the items its
 * requests sent to DynamoDB (bench/capacity/measure.ts), at DynamoDB's rules: an item costs one unit
 * per started KB, twice in a transaction. What is in the floor:
 * - every item put, updated or deleted, but the list counters (`COUNT#`) and the idempotency records
 *   (`IDEMPOTENCY#`): what a change of the resource must write, its guards (uniqueness) included;
 * - the copies a new or moved item needs in the indexes the contract reads: its client's lists in
 *   creation and update order (gsi1, gsi2, ALL) and, for work that must recover by itself, `due`.
 * Left out: condition checks (they write nothing), the keys-only twins and the scope indexes (gsi3,
 * gsi4: ways to make lists cheaper to read, not what the change must write), counters and
 * idempotency records. An update's item is counted as 1 KB (its size is not on the wire).
 */
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
  return pk.startsWith('COUNT#') || pk.startsWith('IDEMPOTENCY#');
};

interface Written {
  readonly kind: 'Put' | 'Update' | 'Delete';
  readonly body: Record<string, unknown>;
}

function floorOfItem({ kind, body }: Written, transactional: boolean): number {
  const factor = transactional ? 2 : 1;
  if (kind !== 'Put') {
    // An update that moves the item in a list (a new updated_at) moves its copy there too.
    const moves = String(body['UpdateExpression'] ?? '').includes('gsi2sk') ? 2 : 0;
    return factor * (1 + moves);
  }
  const item = body['Item'] as Record<string, AttributeValue>;
  const size = units(itemSize(item));
  const copies = FLOOR_INDEXES.filter((attribute) => attribute in item).length;
  return factor * size * (1 + copies);
}

/** The floor of the write calls among `calls`, in write units. */
export function writeFloor(calls: readonly LoggedCall[]): number {
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
      if (!isOverhead(key)) floor += floorOfItem(item, transactional);
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
