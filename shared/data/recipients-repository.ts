/**
 * Recipients in DynamoDB (docs/data-model.md): listed in the tenant's `RECIPIENT` collection and in
 * their customer's scope, each list with its counter. Deleting removes the item and takes it out of
 * both counters in one transaction. Saving and deleting write their audit event in their transaction.
 */
import type { RecipientListFilters, RecipientStore, StoredRecipient } from '../domain/recipients';
import { auditItems } from './audit-trail';
import { itemKeys } from './item-keys';
import {
  deleteListed,
  insertListed,
  listedStore,
  recordGetter,
  underCustomer,
  type ListedKind,
} from './listed-records';

const RECIPIENTS: ListedKind<StoredRecipient, RecipientListFilters> = {
  ...underCustomer<StoredRecipient, RecipientListFilters>(
    'RECIPIENT',
    itemKeys.recipient,
    // No filter beyond the customer (its scope).
    () => ({}),
    // A payment may name a recipient saved a moment before.
    true,
  ),
  // Saved, then deleted, never changed: listed by creation only.
  immutable: true,
};

/** What an audit event says of the recipient it is about. */
const audited = (recipient: StoredRecipient) => ({ resourceType: 'RECIPIENT' as const, resourceId: recipient.id });

/** A recipient's get and writes, without the list reads (listed-records.ts: listedStore). */
export const dynamoRecipientWrites: Omit<RecipientStore, 'list' | 'walk'> = {
  ...recordGetter(RECIPIENTS),

  async insert(recipient: StoredRecipient): Promise<void> {
    // A fresh UUID: the insert's only condition (the item not there yet) cannot fail.
    await insertListed<StoredRecipient, never>(
      RECIPIENTS,
      recipient,
      [],
      auditItems({ action: 'recipient.created', ...audited(recipient), after: recipient, at: recipient.created_at }),
    );
  },

  // A delete that finds the recipient gone already (a concurrent DELETE won) writes no event.
  delete: (recipient: StoredRecipient): Promise<boolean> =>
    deleteListed(
      RECIPIENTS,
      recipient,
      auditItems({
        action: 'recipient.deleted',
        ...audited(recipient),
        before: recipient,
        at: new Date().toISOString(),
      }),
    ),
};

export const dynamoRecipientStore: RecipientStore = /* @__PURE__ */ listedStore(RECIPIENTS, dynamoRecipientWrites);
