/**
 * Recipients (docs/payments.md, Recipients): payees a client saves for one of its customers, from a
 * resolution of that customer, under an alias, to pay them again without resolving their key by
 * hand. A recipient keeps the payee as the resolution showed it; paying one resolves its key again
 * and refuses to pay when the key has moved to someone else (shared/domain/pay-recipient.ts).
 */
import type { CreateRecipientRequest, RecipientListQuery } from '../schemas/recipients';
import { newRecord, type NewRecords } from './clock';
import { getCustomerResolution, type Resolution, type ResolutionStore } from './directory';
import { AppError } from './errors';
import { listOf, type RecordReader } from './lists';
import { ownReader, publicGetter } from './ownership';
import { publicCounterparty } from './payments';

/** The payee a recipient names: the key, its owner, participant and account, as its resolution showed them. */
export type RecipientPayee = Pick<Resolution, 'key' | 'owner' | 'participant' | 'account'>;

export interface StoredRecipient extends RecipientPayee {
  readonly id: string;
  readonly tenant: string;
  readonly customer_id: string;
  readonly alias: string;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The recipient the routes answer: no client (tenant). */
export type PublicRecipient = Omit<StoredRecipient, 'tenant'>;

export interface RecipientListFilters {
  readonly customerId?: string;
}

export interface RecipientStore extends RecordReader<StoredRecipient, RecipientListFilters> {
  insert(recipient: StoredRecipient): Promise<void>;
  /** Deletes the recipient (out of its lists too); false when it was already gone. */
  delete(recipient: StoredRecipient): Promise<boolean>;
}

export function publicRecipient(recipient: StoredRecipient): PublicRecipient {
  // The payee in one field order, whatever order DynamoDB kept its maps in.
  const { owner, participant, account } = publicCounterparty(recipient);
  return {
    id: recipient.id,
    customer_id: recipient.customer_id,
    alias: recipient.alias,
    key: { key_type: recipient.key.key_type, key_value: recipient.key.key_value },
    owner,
    participant,
    account,
    created_at: recipient.created_at,
    updated_at: recipient.updated_at,
  };
}

export interface CreateRecipientDeps extends NewRecords {
  readonly resolutions: Pick<ResolutionStore, 'get'>;
  readonly recipients: Pick<RecipientStore, 'insert'>;
}

/**
 * POST /v1/recipients: the payee of one of the customer's resolutions (used by a payment or not).
 * Unknown resolution 404, another client's 403, another customer's 400 on resolution_id. Aliases
 * need not be unique: they are the client's names.
 */
export async function createRecipient(
  deps: CreateRecipientDeps,
  tenant: string,
  request: CreateRecipientRequest,
): Promise<PublicRecipient> {
  const resolution = await getCustomerResolution(deps.resolutions, tenant, request.resolution_id, request.customer_id);
  const recipient: StoredRecipient = {
    ...newRecord(deps, tenant),
    customer_id: resolution.customer_id,
    alias: request.alias,
    key: resolution.key,
    owner: resolution.owner,
    participant: resolution.participant,
    account: resolution.account,
  };
  await deps.recipients.insert(recipient);
  return publicRecipient(recipient);
}

/** Reads one of the tenant's recipients: 404 when unknown, 403 when another client's. */
export const getOwnRecipient = ownReader<StoredRecipient>('Recipient');

/** GET /v1/recipients/{id}. */
export const getRecipient = publicGetter(getOwnRecipient, publicRecipient);

/** GET /v1/recipients: the tenant's recipients, a page at a time (docs/pagination.md). */
export const listRecipients = /* @__PURE__ */ listOf({
  name: 'recipients',
  filters: (query: RecipientListQuery): RecipientListFilters =>
    query.customer_id ? { customerId: query.customer_id.toLowerCase() } : {},
  toPublic: publicRecipient,
});

/** DELETE /v1/recipients/{id}: the recipient is gone (404 from then on); answers it as it was. */
export async function deleteRecipient(
  recipients: Pick<RecipientStore, 'get' | 'delete'>,
  tenant: string,
  id: string,
): Promise<PublicRecipient> {
  const recipient = await getOwnRecipient(recipients, tenant, id);
  // Gone meanwhile (a concurrent DELETE): the answer a DELETE after it gets.
  if (!(await recipients.delete(recipient))) throw new AppError('NOT_FOUND', `Recipient ${id} does not exist`);
  return publicRecipient(recipient);
}
