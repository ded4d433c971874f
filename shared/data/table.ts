/**
 * The one definition of the single DynamoDB table. The CDK stack deploys it and the local runtime
 * creates it from the same object, so the two cannot drift apart. docs/data-model.md explains it.
 */
export const TTL_ATTRIBUTE = 'expires_at';

/** The sparse index of due work (shared/data/due-work.ts). */
export const DUE_INDEX = 'due';

export interface KeySchema {
  readonly partitionKey: string;
  readonly sortKey: string;
}

/** ALL copies whole items into the index; KEYS_ONLY keeps only the table's and the index's keys. */
export type IndexProjection = 'ALL' | 'KEYS_ONLY';

export interface IndexDefinition extends KeySchema {
  readonly indexName: string;
  readonly projection: IndexProjection;
}

export interface TableDefinition extends KeySchema {
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  readonly ttlAttribute: string;
  /** What the table's stream carries: the dispatcher reads each new event of the outbox from it. */
  readonly streamView: 'NEW_IMAGE';
}

const index = (indexName: string, n: number, projection: IndexProjection): IndexDefinition => ({
  indexName,
  partitionKey: `gsi${n}pk`,
  sortKey: `gsi${n}sk`,
  projection,
});

/**
 * Every key attribute is a string. Lists read gsi1..gsi4 (whole items); KEYS_ONLY twins on the same
 * attributes let pagination count and skip through a list at a fraction of the read cost. gsi4 has
 * none since issue 31: its lists (a scope by update time: a customer's payments as they change) are
 * the least read, and its twin cost every write of a scoped, changing record 2 more write units (a
 * payment's 28th). Without it, gsi4's far pages and date counts read whole items (docs/pagination.md).
 * DynamoDB adds or drops one index per table update: a deploy retires one twin at most.
 */
export const tableDefinition: TableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalSecondaryIndexes: [
    // A tenant's collection by creation time: gsi1pk = <tenant>#<collection>, gsi1sk = <created_at>#<id>
    index('gsi1', 1, 'ALL'),
    // The same collection by last update: gsi2sk = <updated_at>#<id>
    index('gsi2', 2, 'ALL'),
    // A scope inside a collection (a customer's accounts): gsi3pk = <tenant>#<collection>#<scope>,
    // gsi3sk = <created_at>#<id>
    index('gsi3', 3, 'ALL'),
    // The same scope by last update: gsi4sk = <updated_at>#<id>
    index('gsi4', 4, 'ALL'),
    index('gsi1keys', 1, 'KEYS_ONLY'),
    index('gsi2keys', 2, 'KEYS_ONLY'),
    index('gsi3keys', 3, 'KEYS_ONLY'),
    // Work that is due (shared/data/due-work.ts): sparse, sharded, read by the sweeper alone.
    { indexName: DUE_INDEX, partitionKey: 'duepk', sortKey: 'duesk', projection: 'KEYS_ONLY' },
  ],
  ttlAttribute: TTL_ATTRIBUTE,
  streamView: 'NEW_IMAGE',
};

/**
 * The DynamoDB actions a route may be granted. Transactions need no action of their own: IAM checks
 * each item action inside TransactWriteItems / TransactGetItems.
 */
export type TableAction =
  | 'GetItem'
  | 'BatchGetItem'
  | 'Query'
  | 'PutItem'
  | 'BatchWriteItem'
  | 'UpdateItem'
  | 'DeleteItem'
  | 'ConditionCheckItem';
