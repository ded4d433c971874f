/**
 * A client's inbound approval settings in DynamoDB (docs/data-model.md): one item per client, with
 * its secrets. The first is put only where there is none (two first PUTs at once store one secret);
 * a replacement of its fields is made on what it reads, again until it is written (whatever another
 * request changed meanwhile, a PUT's fields win); a change made on what was read (a rotation) holds
 * only while the item is at the version it was read at. Every change writes its audit event, with
 * the fields as they were, in its own transaction.
 */
import type { ApprovalSettingsStore, StoredApprovalSettings } from '../domain/inbound-approval';
import { auditItems, type AuditedChange } from './audit-trail';
import { tableName } from './client';
import { itemKeys } from './item-keys';
import { getRecord } from './records';
import { writeUnless } from './transactions';
import { versionedUpdateItem } from './versioned-update';

/**
 * How many times a replacement is made again on what another request wrote between its read and its
 * write; each round one racing change is written, so more is a fault, not a client.
 */
const MAX_REPLACE_ATTEMPTS = 25;

const settingsOf = (tenant: string) =>
  // Consistent: a payment arriving right after a PUT is asked about under the settings just stored.
  getRecord<StoredApprovalSettings>(itemKeys.approvalSettings(tenant), { consistent: true });

/** The settings, changed from `seen` in one transaction with their audit event; undefined if they changed meanwhile. */
async function updateFrom(
  seen: StoredApprovalSettings,
  changes: Partial<StoredApprovalSettings>,
  now: string,
): Promise<StoredApprovalSettings | undefined> {
  const { item, after } = versionedUpdateItem<StoredApprovalSettings>(
    itemKeys.approvalSettings(seen.tenant),
    seen,
    changes,
    now,
  );
  const action: AuditedChange['action'] =
    changes.secrets === undefined ? 'inbound_approval.updated' : 'inbound_approval.secret_rotated';
  const refusal = await writeUnless(
    [{ item, refused: () => 'changed' as const }],
    auditItems({ action, resourceType: 'INBOUND_APPROVAL', resourceId: seen.tenant, before: seen, after, at: now }),
  );
  return refusal ? undefined : after;
}

export const dynamoApprovalSettingsStore: ApprovalSettingsStore = {
  get: settingsOf,

  async insert(settings) {
    const refusal = await writeUnless(
      [
        {
          item: {
            Put: {
              TableName: tableName(),
              Item: {
                ...itemKeys.approvalSettings(settings.tenant),
                entity: 'APPROVAL_SETTINGS',
                ...settings,
                version: 1,
              },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          refused: () => 'exists' as const,
        },
      ],
      auditItems({
        action: 'inbound_approval.created',
        resourceType: 'INBOUND_APPROVAL',
        resourceId: settings.tenant,
        after: settings,
        at: settings.created_at,
      }),
    );
    return refusal === undefined;
  },

  async replace(tenant, changes, now) {
    for (let attempt = 0; attempt < MAX_REPLACE_ATTEMPTS; attempt += 1) {
      const current = await settingsOf(tenant);
      if (!current) return undefined;
      const replaced = await updateFrom(current, changes, now);
      if (replaced) return replaced;
    }
    throw new Error(`The inbound approval settings of ${tenant} kept changing while being replaced`);
  },

  update: updateFrom,
};
