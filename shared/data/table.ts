/**
 * The one definition of the single DynamoDB table. The CDK stack deploys it and the local runtime
 * creates it from the same object, so the two cannot drift apart.
 */
export const TTL_ATTRIBUTE = 'expires_at';

export interface KeySchema {
  readonly partitionKey: string;
  readonly sortKey: string;
}

export interface IndexDefinition extends KeySchema {
  readonly indexName: string;
}

export interface TableDefinition extends KeySchema {
  readonly globalSecondaryIndexes: readonly IndexDefinition[];
  readonly ttlAttribute: string;
}

/** Every key attribute is a string. */
export const tableDefinition: TableDefinition = {
  partitionKey: 'pk',
  sortKey: 'sk',
  globalSecondaryIndexes: [
    // Collections ordered by creation time: gsi1pk = <tenant>#<collection>, gsi1sk = <created_at>#<id>
    { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
    // The same collections ordered by last update: gsi2sk = <updated_at>#<id>
    { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  ],
  ttlAttribute: TTL_ATTRIBUTE,
};

/**
 * The DynamoDB actions a route may be granted. Transactions need no action of their own: IAM checks
 * each item action inside TransactWriteItems / TransactGetItems.
 */
export type TableAction =
  'GetItem' | 'BatchGetItem' | 'Query' | 'PutItem' | 'UpdateItem' | 'DeleteItem' | 'ConditionCheckItem';
