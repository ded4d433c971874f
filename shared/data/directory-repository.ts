/**
 * The Bre-B directory and stored resolutions in DynamoDB. A directory entry is keyed by its
 * normalised (type, value) whoever registered it, so resolving a key is one GetItem; sandbox entries
 * are put only where no entry is (the same guard our keys' registration meets).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type {
  DirectoryEntry,
  DirectoryKey,
  DirectoryStore,
  ResolutionStore,
  StoredResolution,
} from '../domain/directory';
import { dynamo, tableName } from './client';
import { itemKeys } from './item-keys';
import { getRecord } from './records';
import { directoryItem } from './keys-repository';

export const dynamoDirectory: DirectoryStore = {
  async get(key: DirectoryKey): Promise<DirectoryEntry | undefined> {
    return getRecord<DirectoryEntry>(itemKeys.directoryEntry(key.key_type, key.key_value));
  },

  async insertSandbox(entry: DirectoryEntry): Promise<boolean> {
    try {
      await dynamo().send(
        new PutCommand({
          TableName: tableName(),
          Item: directoryItem(entry),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      );
      return true;
    } catch (error) {
      if (error instanceof ConditionalCheckFailedException) return false;
      throw error;
    }
  },
};

/**
 * The Put of a new resolution (resolve-key's, or one a payment to a recipient makes and stores in its
 * own transaction, shared/data/payments-repository.ts).
 */
export const resolutionPut = (resolution: StoredResolution) => ({
  TableName: tableName(),
  Item: { ...itemKeys.resolution(resolution.id), entity: 'RESOLUTION', ...resolution },
  ConditionExpression: 'attribute_not_exists(pk)',
});

export const dynamoResolutionStore: ResolutionStore = {
  async insert(resolution: StoredResolution): Promise<void> {
    await dynamo().send(new PutCommand(resolutionPut(resolution)));
  },

  async get(id: string): Promise<StoredResolution | undefined> {
    return getRecord<StoredResolution>(itemKeys.resolution(id));
  },
};
