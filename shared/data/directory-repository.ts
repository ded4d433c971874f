/**
 * The Bre-B directory and stored resolutions in DynamoDB. A directory entry is keyed by its
 * normalised (type, value) whoever registered it, so resolving a key is one GetItem; sandbox entries
 * are put only where no entry is (the same guard our keys' registration meets) and, in the same
 * transaction, where no merchant of the sponsor bank holds the NIT they name.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import type {
  DirectoryEntry,
  DirectoryKey,
  DirectoryStore,
  ResolutionStore,
  SandboxInsertResult,
  StoredResolution,
} from '../domain/directory';
import { dynamo, tableName } from './client';
import { readPiiRetentionDays } from '../runtime/config';
import { itemKeys, withoutStorageAttributes } from './item-keys';
import { getRecord } from './records';
import { directoryItem } from './keys-repository';
import { failedConditions, transactWrite } from './transactions';

export const dynamoDirectory: DirectoryStore = {
  async get(key: DirectoryKey): Promise<DirectoryEntry | undefined> {
    return getRecord<DirectoryEntry>(itemKeys.directoryEntry(key.key_type, key.key_value));
  },

  async insertSandbox(entry: DirectoryEntry, merchantNits: readonly string[]): Promise<SandboxInsertResult> {
    try {
      await transactWrite({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: directoryItem(entry),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...merchantNits.map((nit) => ({
            ConditionCheck: {
              TableName: tableName(),
              Key: itemKeys.sponsorMerchant(nit),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          })),
        ],
      });
      return { inserted: true };
    } catch (error) {
      const failed = failedConditions(error);
      if (!failed) throw error;
      if (failed.has(0)) return { inserted: false, reason: 'value_taken' };
      const nit = merchantNits[Math.min(...failed.keys()) - 1]!;
      return { inserted: false, reason: 'merchant_nit', nit };
    }
  },
};

const DAY_SECONDS = 24 * 60 * 60;

/**
 * When a resolution made at `resolvedAt` expires (the TTL's `expires_at`, Unix seconds): it names a
 * key's owner, their document and account, which no law makes us keep once the payment it allows is
 * made or forgotten (docs/privacy.md, "Retention"). The payment keeps its own copy as a financial record.
 */
export const resolutionExpiresAt = (resolvedAt: string, days = readPiiRetentionDays()): number =>
  Math.floor(Date.parse(resolvedAt) / 1000) + days * DAY_SECONDS;

/**
 * The Put of a new resolution (resolve-key's, or one a payment to a recipient makes and stores in its
 * own transaction, shared/data/payments-repository.ts), expiring after PII_RETENTION_DAYS.
 */
export const resolutionPut = (resolution: StoredResolution) => ({
  TableName: tableName(),
  Item: {
    ...itemKeys.resolution(resolution.id),
    entity: 'RESOLUTION',
    ...resolution,
    expires_at: resolutionExpiresAt(resolution.resolved_at),
  },
  ConditionExpression: 'attribute_not_exists(pk)',
});

export const dynamoResolutionStore: ResolutionStore = {
  async insert(resolution: StoredResolution): Promise<void> {
    await dynamo().send(new PutCommand(resolutionPut(resolution)));
  },

  /**
   * The resolution, or undefined once it expired: DynamoDB deletes expired items only within a few
   * days, and a resolution past its retention must neither be read nor paid.
   */
  async get(id: string): Promise<StoredResolution | undefined> {
    const { Item } = await dynamo().send(new GetCommand({ TableName: tableName(), Key: itemKeys.resolution(id) }));
    if (!Item) return undefined;
    const expiresAt = Item['expires_at'] as number | undefined;
    if (expiresAt !== undefined && expiresAt <= Math.floor(Date.now() / 1000)) return undefined;
    return withoutStorageAttributes<StoredResolution>(Item);
  },
};
