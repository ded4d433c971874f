/**
 * Bre-B keys of the clients' merchants (docs/keys.md): registration, reading, listing and the status
 * machine ACTIVE <-> SUSPENDED -> DELETED. A registered key is also a directory entry (shared with
 * the sandbox's keys, shared/domain/directory.ts), written in the same transaction, so that a value
 * is registered at most once in the whole directory and resolution is one read. On a connector stage
 * the network's directory is told first (shared/domain/key-publishing.ts).
 */
import type { KeyListQuery, KeyStatus, RegisterKeyRequest } from '../schemas/keys';
import { getOwnAccount, type AccountStore } from './accounts';
import { newRecord, type Clock, type NewRecords } from './clock';
import type { CustomerStore } from './customers';
import type { DirectoryEntry } from './directory';
import { AppError, invalidField } from './errors';
import { publishStatus, type KeyPublisher } from './key-publishing';
import { ownReader } from './ownership';
import { normaliseKeyValue, type KeyType } from './key-formats';
import { listOf, type RecordReader } from './lists';

export interface StoredKey {
  readonly id: string;
  readonly tenant: string;
  readonly customer_id: string;
  readonly account_id: string;
  readonly key_type: KeyType;
  /** Normalised (shared/domain/key-formats.ts). */
  readonly key_value: string;
  readonly display_name: string;
  readonly status: KeyStatus;
  readonly created_at: string;
  readonly updated_at: string;
}

/** The key object the key routes answer. */
export interface PublicKey {
  readonly id: string;
  readonly status: KeyStatus;
  readonly key: { readonly key_type: KeyType; readonly key_value: string };
  readonly account_id: string;
  readonly customer_id: string;
  readonly display_name: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export type InsertKeyResult =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly reason: 'value_taken' | 'customer_inactive' | 'account_inactive' };

export type TransitionResult = 'changed' | 'conflict' | 'customer_inactive';

export interface KeyListFilters {
  readonly customerId?: string;
  readonly accountId?: string;
  readonly keyType?: KeyType;
  readonly status?: KeyStatus;
}

export interface KeyStore extends RecordReader<StoredKey, KeyListFilters> {
  /**
   * Inserts the key with its directory entry unless the (type, value) is already in the directory,
   * and only while the customer and the account are ACTIVE; atomic against concurrent inserts.
   */
  insert(key: StoredKey, entry: DirectoryEntry): Promise<InsertKeyResult>;
  /**
   * Moves the key from its current status (as read) to `to`, and its directory entry with it (a
   * DELETED key's entry is removed, freeing the value). 'conflict' when the status changed since it
   * was read; 'customer_inactive' when activating the key of an inactive customer.
   */
  transition(key: StoredKey, to: KeyStatus, now: string): Promise<TransitionResult>;
}

export interface RegisterKeyDeps extends NewRecords {
  readonly customers: Pick<CustomerStore, 'get'>;
  readonly accounts: Pick<AccountStore, 'get'>;
  readonly keys: Pick<KeyStore, 'insert'>;
  readonly publisher: KeyPublisher;
  /** Our sponsor bank: the participant of our merchants' keys. */
  readonly participant: { readonly name: string; readonly nit: string };
}

export function publicKey(key: StoredKey): PublicKey {
  return {
    id: key.id,
    status: key.status,
    key: { key_type: key.key_type, key_value: key.key_value },
    account_id: key.account_id,
    customer_id: key.customer_id,
    display_name: key.display_name,
    created_at: key.created_at,
    updated_at: key.updated_at,
  };
}

const customerInactive = (customerId: string) =>
  new AppError('CUSTOMER_INACTIVE', `Customer ${customerId} is inactive: activate it before registering keys`);
const alreadyRegistered = (type: KeyType) =>
  new AppError('KEY_ALREADY_REGISTERED', `This ${type} key is already registered in the Bre-B directory`);

/**
 * POST /v1/keys: registers a key for one of the client's accounts. Bad format 400, unknown account
 * 404, another client's 403, inactive customer or account 400, value already in the directory 409.
 */
export async function registerKey(
  deps: RegisterKeyDeps,
  tenant: string,
  request: RegisterKeyRequest,
): Promise<PublicKey> {
  const keyType = request.key.key_type;
  const keyValue = normaliseKeyValue(keyType, request.key.key_value);
  const account = await getOwnAccount(deps.accounts, tenant, request.account_id);
  if (account.account_status !== 'ACTIVE') {
    throw new AppError('ACCOUNT_INACTIVE', `Account ${account.id} is not active`);
  }
  const customer = await deps.customers.get(account.customer_id);
  if (!customer || customer.status !== 'ACTIVE') throw customerInactive(account.customer_id);
  if (keyType === 'ID' && keyValue !== customer.identification_number) {
    throw invalidField('key.key_value', "of an ID key must be the owner's identification number");
  }

  const key: StoredKey = {
    ...newRecord(deps, tenant),
    customer_id: customer.id,
    account_id: account.id,
    key_type: keyType,
    key_value: keyValue,
    display_name: request.display_name ?? customer.business_name,
    status: 'ACTIVE',
  };
  const entry: DirectoryEntry = {
    key: { key_type: keyType, key_value: keyValue },
    owner: {
      identification_type: 'NIT',
      identification_number: customer.identification_number,
      type: 'BUSINESS',
      business_name: customer.business_name,
    },
    participant: { name: deps.participant.name, identification_number: deps.participant.nit },
    account: { account_number: account.number, account_type: account.type },
    source: 'API',
    status: 'ACTIVE',
    key_id: key.id,
    tenant,
    created_at: key.created_at,
    updated_at: key.updated_at,
  };
  await deps.publisher.publish(entry);
  const result = await deps.keys.insert(key, entry);
  if (!result.inserted) {
    // A value taken here is held by a key of ours, for this account (the directory refuses another
    // account's): it stays published. Refused for a status, the key is withdrawn again.
    if (result.reason === 'value_taken') throw alreadyRegistered(keyType);
    await deps.publisher.withdraw(entry.key);
    if (result.reason === 'customer_inactive') throw customerInactive(customer.id);
    throw new AppError('ACCOUNT_INACTIVE', `Account ${account.id} is not active`);
  }
  return publicKey(key);
}

/** Reads one of the tenant's keys: 404 when unknown, 403 when another client's. */
export const getOwnKey = ownReader<StoredKey>('Key');

export type KeyAction = 'suspend' | 'activate' | 'delete';

/** The status machine (docs/keys.md): what each action does from each status. */
const TRANSITIONS: Readonly<Record<KeyAction, { readonly to: KeyStatus; readonly from: readonly KeyStatus[] }>> = {
  suspend: { to: 'SUSPENDED', from: ['ACTIVE'] },
  activate: { to: 'ACTIVE', from: ['SUSPENDED'] },
  delete: { to: 'DELETED', from: ['ACTIVE', 'SUSPENDED'] },
};

export interface ChangeKeyStatusDeps {
  readonly keys: Pick<KeyStore, 'get' | 'transition'>;
  readonly publisher: KeyPublisher;
  readonly clock: Clock;
}

const directoryKeyOf = (key: StoredKey) => ({ key_type: key.key_type, key_value: key.key_value });

/**
 * Moves the key to `to` in the network's directory, then in our table. When our table refuses (a
 * concurrent change, an inactive customer), the directory is told the status the key kept here.
 */
export async function moveKey(
  deps: Pick<ChangeKeyStatusDeps, 'keys' | 'publisher'>,
  key: StoredKey,
  to: KeyStatus,
  now: string,
): Promise<TransitionResult> {
  await publishStatus(deps.publisher, directoryKeyOf(key), to);
  const result = await deps.keys.transition(key, to, now);
  if (result !== 'changed') {
    const kept = await deps.keys.get(key.id);
    await publishStatus(deps.publisher, directoryKeyOf(key), kept?.status ?? 'DELETED');
  }
  return result;
}

/**
 * PATCH /v1/keys/{id}/suspend, /activate and DELETE /v1/keys/{id}. Suspending a SUSPENDED key or
 * activating an ACTIVE one changes nothing and answers the key; any action on a DELETED key is
 * 409 KEY_STATUS_CONFLICT.
 */
export async function changeKeyStatus(
  deps: ChangeKeyStatusDeps,
  tenant: string,
  id: string,
  action: KeyAction,
): Promise<PublicKey> {
  const key = await getOwnKey(deps.keys, tenant, id);
  const { to, from } = TRANSITIONS[action];
  if (key.status === to && to !== 'DELETED') return publicKey(key);
  if (!from.includes(key.status)) {
    throw new AppError(
      'KEY_STATUS_CONFLICT',
      `A ${key.status} key cannot be ${action === 'delete' ? 'deleted' : `${action}d`}`,
      {
        key_status: key.status,
      },
    );
  }
  const now = deps.clock.now();
  const result = await moveKey(deps, key, to, now);
  if (result === 'conflict') {
    throw new AppError('CONCURRENT_UPDATE', `Key ${key.id} was changed by another request: read it and retry`);
  }
  if (result === 'customer_inactive') throw customerInactive(key.customer_id);
  return publicKey({ ...key, status: to, updated_at: now });
}

/** GET /v1/keys: the tenant's keys, a page at a time (docs/pagination.md). */
export const listKeys = /* @__PURE__ */ listOf({
  name: 'keys',
  filters: (query: KeyListQuery): KeyListFilters => ({
    ...(query.customer_id ? { customerId: query.customer_id.toLowerCase() } : {}),
    ...(query.account_id ? { accountId: query.account_id.toLowerCase() } : {}),
    ...(query.key_type ? { keyType: query.key_type } : {}),
    ...(query.status ? { status: query.status } : {}),
  }),
  toPublic: publicKey,
});

/**
 * The key a new QR code is printed with (for POST /v1/qrcodes): one of the tenant's keys, and
 * ACTIVE. A SUSPENDED or DELETED key serves no new QR code (409 KEY_STATUS_CONFLICT, docs/keys.md).
 */
export async function keyForNewQrCode(keys: Pick<KeyStore, 'get'>, tenant: string, id: string): Promise<StoredKey> {
  const key = await getOwnKey(keys, tenant, id);
  if (key.status !== 'ACTIVE') {
    throw new AppError('KEY_STATUS_CONFLICT', `A ${key.status} key serves no new QR code`, { key_status: key.status });
  }
  return key;
}
