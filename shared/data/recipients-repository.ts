/**
 * Recipients in DynamoDB (docs/data-model.md): listed in the tenant's `RECIPIENT` collection and in
 * their customer's scope, each list with its counter. Deleting removes the item and takes it out of
 * both counters in one transaction.
 */
import type { RecipientListFilters, RecipientStore, StoredRecipient } from '../domain/recipients';
import { itemKeys } from './item-keys';
import { deleteListed, insertListed, listedReads, underCustomer, type ListedKind } from './listed-records';

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

export const dynamoRecipientStore: RecipientStore = {
  ...listedReads(RECIPIENTS),

  async insert(recipient: StoredRecipient): Promise<void> {
    // A fresh UUID: the insert's only condition (the item not there yet) cannot fail.
    await insertListed<StoredRecipient, never>(RECIPIENTS, recipient, []);
  },

  delete: (recipient: StoredRecipient): Promise<boolean> => deleteListed(RECIPIENTS, recipient),
};
