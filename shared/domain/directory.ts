/**
 * The Bre-B directory and key resolution (docs/keys.md). One entry per normalised (type, value),
 * whoever registered it: our merchants' keys (source API, written with the key, shared/domain/keys.ts)
 * and the sandbox's keys of people and businesses at other participants (source SANDBOX). Resolving
 * a key is one read of its entry; the resolution is stored, with its payee, for the payment that
 * will name it as resolution_id. Validating a key (does this person own it?) is the same one read,
 * answered MATCH or NO_MATCH and stored nowhere.
 */
import type { KeyOwner, ResolveKeyRequest, SandboxDirectoryKeyRequest, ValidateKeyRequest } from '../schemas/keys';
import type { NewRecords } from './clock';
import { getOwnCustomer, type CustomerStore } from './customers';
import { AppError, invalidField } from './errors';
import { ownReader } from './ownership';
import { inferredKeyType, normalisedKeyValue, normaliseKeyValue, parseKey, type KeyType } from './key-formats';
import { requireLookupRoom, spendLookup, type LookupBudget } from './lookup-budget';

export interface DirectoryKey {
  readonly key_type: KeyType;
  readonly key_value: string;
}

export interface DirectoryEntry {
  readonly key: DirectoryKey;
  readonly owner: KeyOwner;
  readonly participant: { readonly name: string; readonly identification_number: string };
  readonly account: { readonly account_number: string; readonly account_type: string };
  /**
   * API: a key of one of our clients' merchants; SANDBOX: a key at another participant in the
   * sandbox's directory; NETWORK: a key the network's directory answered (a connector stage).
   */
  readonly source: 'API' | 'SANDBOX' | 'NETWORK';
  /** Only ACTIVE entries resolve (a SUSPENDED key keeps its value but does not resolve). */
  readonly status: 'ACTIVE' | 'SUSPENDED';
  /** The key behind an API entry, and its client. */
  readonly key_id?: string;
  readonly tenant?: string;
  readonly created_at: string;
  readonly updated_at: string;
}

export interface DirectoryStore {
  get(key: DirectoryKey): Promise<DirectoryEntry | undefined>;
  /**
   * Adds a sandbox entry unless the (type, value) is already in the directory ('value_taken') or one
   * of `merchantNits` is a merchant the sponsor bank approved ('merchant_nit', naming it): atomic
   * against a concurrent registration or approval.
   */
  insertSandbox(entry: DirectoryEntry, merchantNits: readonly string[]): Promise<SandboxInsertResult>;
}

/** Who asks the directory: the paying customer, or (a validation) the sponsor bank itself. */
export interface Requester {
  readonly identification_type: string;
  readonly identification_number: string;
}

/**
 * Where resolve-key and validate-key look a key up: the stage's directory. The sandbox's is our
 * table (tableLookup); a connector stage's is the network's (shared/domain/network-directory.ts).
 * Answers the key's entry, or undefined when the directory has none; refuses (RetryLater) when the
 * directory cannot answer now.
 */
export interface DirectoryLookup {
  find(key: DirectoryKey, requestedBy: Requester): Promise<DirectoryEntry | undefined>;
}

/** The sandbox's directory: our table's entries, ours and the sandbox's alike. */
export const tableLookup = (directory: Pick<DirectoryStore, 'get'>): DirectoryLookup => ({
  find: (key) => directory.get(key),
});

export type SandboxInsertResult =
  | { readonly inserted: true }
  | { readonly inserted: false; readonly reason: 'value_taken' }
  | { readonly inserted: false; readonly reason: 'merchant_nit'; readonly nit: string };

/** The resolution object (docs/contract.md, Bre-B keys). */
export interface Resolution {
  readonly id: string;
  readonly customer_id: string;
  readonly resolved_at: string;
  readonly key: DirectoryKey;
  readonly owner: KeyOwner;
  readonly participant: DirectoryEntry['participant'];
  readonly account: DirectoryEntry['account'];
}

/** A resolution as stored: its client and the whole directory entry it resolved to (the payee). */
export interface StoredResolution extends Resolution {
  readonly tenant: string;
  readonly payee: DirectoryEntry;
  /** The one payment made with this resolution (docs/payments.md), once it is made. */
  readonly payment_id?: string;
}

export interface ResolutionStore {
  insert(resolution: StoredResolution): Promise<void>;
  get(id: string): Promise<StoredResolution | undefined>;
}

export interface ResolveKeyDeps extends NewRecords {
  readonly customers: Pick<CustomerStore, 'get'>;
  readonly directory: DirectoryLookup;
  /** The budget, which stores a hit's resolution in the write that spends its cost. */
  readonly lookups: LookupBudget<StoredResolution>;
}

const OWNER_FIELDS = [
  'identification_type',
  'identification_number',
  'type',
  'business_name',
  'first_name',
  'second_name',
  'first_last_name',
  'second_last_name',
] as const;

/** The owner in the contract's field order, with its absent names left out. */
export const ownerOf = <Owner extends Partial<KeyOwner>>(owner: Owner): Owner =>
  Object.fromEntries(
    OWNER_FIELDS.filter((field) => owner[field] !== undefined && owner[field] !== null).map((field) => [
      field,
      owner[field],
    ]),
  ) as Owner;

export function publicResolution(resolution: StoredResolution): Resolution {
  return {
    id: resolution.id,
    customer_id: resolution.customer_id,
    resolved_at: resolution.resolved_at,
    key: resolution.key,
    owner: ownerOf(resolution.owner),
    participant: resolution.participant,
    account: resolution.account,
  };
}

/**
 * Both answers, awaited together; when either fails, the first one's failure (so the order of the
 * refusals does not depend on which call answered first).
 */
async function inTurn<A, B>(first: Promise<A>, second: Promise<B>): Promise<[A, B]> {
  const [a, b] = await Promise.allSettled([first, second]);
  if (a.status === 'rejected') throw a.reason;
  if (b.status === 'rejected') throw b.reason;
  return [a.value, b.value];
}

/**
 * POST /v1/resolve-key: the directory entry of a key, as a stored resolution. Bad or uninferable
 * format 400, unknown customer 404, another client's 403, no ACTIVE entry 404 KEY_NOT_FOUND.
 */
export async function resolveKey(
  deps: ResolveKeyDeps,
  tenant: string,
  request: ResolveKeyRequest,
): Promise<Resolution> {
  const key = parseKey(request.key);
  // The budget's room is asked beside the customer's read (one round trip); the customer's refusal
  // (404, 403) comes first.
  const [customer] = await inTurn(
    getOwnCustomer(deps.customers, tenant, request.customer_id),
    requireLookupRoom(deps.lookups, tenant),
  );
  const entry = await deps.directory.find(key, {
    identification_type: customer.identification_type,
    identification_number: customer.identification_number,
  });
  const found = entry?.status === 'ACTIVE' ? entry : undefined;
  // Stored by the write that spends the lookup's cost, before the answer is told: a refused lookup
  // leaves nothing behind (lookup-budget.ts), and the route makes one round trip less.
  const resolution = found ? newResolution(deps, tenant, customer.id, found) : undefined;
  await spendLookup(deps.lookups, tenant, found ? 'hit' : 'miss', resolution);
  if (!resolution) throw keyNotFound(key);
  return publicResolution(resolution);
}

/** The ACTIVE directory entry of a parsed key (one read): 404 KEY_NOT_FOUND when there is none. */
export async function activeEntry(directory: Pick<DirectoryStore, 'get'>, key: DirectoryKey): Promise<DirectoryEntry> {
  return activeEntryOf(await directory.get(key), key);
}

/** `entry` when it is ACTIVE: 404 KEY_NOT_FOUND otherwise (none, or a suspended key). */
export function activeEntryOf(entry: DirectoryEntry | undefined, key: DirectoryKey): DirectoryEntry {
  if (!entry || entry.status !== 'ACTIVE') throw keyNotFound(key);
  return entry;
}

const keyNotFound = (key: DirectoryKey): AppError =>
  new AppError('KEY_NOT_FOUND', `No ${key.key_type} key of the Bre-B directory matches this value`);

/** A resolution, made now for the tenant's customer, of the directory entry `entry` (its payee). */
export const newResolution = (
  deps: NewRecords,
  tenant: string,
  customerId: string,
  entry: DirectoryEntry,
): StoredResolution => ({
  id: deps.ids.newId(),
  customer_id: customerId,
  resolved_at: deps.clock.now(),
  key: entry.key,
  owner: ownerOf(entry.owner),
  participant: entry.participant,
  account: entry.account,
  tenant,
  payee: entry,
});

/** The answer of POST /v1/validate-key: whether the person or business named owns the key, nothing more. */
export interface KeyValidation {
  readonly result: 'MATCH' | 'NO_MATCH';
}

/**
 * The directory key a validation reads: the key as resolve-key parses it (type sent or inferred,
 * value normalised), or, for a value of no valid format, the value as sent under the type sent
 * (or ID, when none fits). No entry is ever written under a value that is not of its type's format,
 * so that read finds nothing: a malformed value costs the one read every other answer costs.
 */
function keyToValidate(key: ValidateKeyRequest['key']): { readonly read: DirectoryKey; readonly wellFormed: boolean } {
  const type = key.key_type ?? inferredKeyType(key.key_value) ?? 'ID';
  const value = normalisedKeyValue(type, key.key_value);
  return { read: { key_type: type, key_value: value ?? key.key_value }, wellFormed: value !== undefined };
}

/**
 * POST /v1/validate-key: MATCH when the key resolves (an ACTIVE entry of the directory) to an owner
 * of exactly this identification type and number; NO_MATCH for every other case alike (no such
 * key, a suspended one, another owner, a value of no key format), so that the answer tells nothing
 * but the match. Every answer costs one read of the directory and two writes of the lookup budget: a
 * miss is not told apart from a hit by its cost (only the budget spent differs), and validating
 * stores no resolution.
 */
export async function validateKey(
  deps: {
    readonly directory: DirectoryLookup;
    readonly lookups: LookupBudget;
    /** Who asks the directory for a validation: our sponsor bank (no customer of ours pays here). */
    readonly participant: { readonly nit: string };
  },
  tenant: string,
  request: ValidateKeyRequest,
): Promise<KeyValidation> {
  const { read, wellFormed } = keyToValidate(request.key);
  await requireLookupRoom(deps.lookups, tenant);
  const entry = await deps.directory.find(read, {
    identification_type: 'NIT',
    identification_number: deps.participant.nit,
  });
  const owns =
    wellFormed &&
    entry?.status === 'ACTIVE' &&
    entry.owner.identification_type === request.identification_type &&
    entry.owner.identification_number === request.identification_number;
  // A MATCH oracle over a dense key space links people to their phones: the same budget as resolving.
  await spendLookup(deps.lookups, tenant, owns ? 'hit' : 'miss');
  return { result: owns ? 'MATCH' : 'NO_MATCH' };
}

/** Reads one of the tenant's resolutions: 404 when unknown, 403 when another client's. */
export const getOwnResolution = ownReader<StoredResolution>('Resolution');

/**
 * Reads one of the tenant's resolutions made for its customer `customerId` (what a payment or a
 * recipient names): 404 / 403 as getOwnResolution, 400 on resolution_id for another customer's.
 */
export async function getCustomerResolution(
  resolutions: Pick<ResolutionStore, 'get'>,
  tenant: string,
  id: string,
  customerId: string,
): Promise<StoredResolution> {
  const resolution = await getOwnResolution(resolutions, tenant, id);
  if (resolution.customer_id !== customerId.toLowerCase()) {
    throw invalidField('resolution_id', 'was resolved for another customer of the client');
  }
  return resolution;
}

/**
 * The NITs a sandbox entry must not be a merchant's: an ID key's value (a merchant's only possible ID
 * key is its NIT, keys.ts) and a NIT owner. Another tenant's merchant approved at the sponsor bank
 * would otherwise find its ID key squatted before it registers it, or its identity shown at another
 * participant in resolutions, by an owner the squatter chose.
 */
function merchantNitsOf(entry: DirectoryEntry): readonly string[] {
  const nits = new Set<string>();
  if (entry.key.key_type === 'ID') nits.add(entry.key.key_value);
  if (entry.owner.identification_type === 'NIT') nits.add(entry.owner.identification_number);
  return [...nits];
}

/** The answer of POST /sandbox/directory/keys. */
export type SandboxDirectoryKey = Pick<DirectoryEntry, 'key' | 'owner' | 'participant' | 'account' | 'created_at'>;

/**
 * POST /sandbox/directory/keys (docs/sandbox.md): a key of someone at another participant. A
 * business owner needs business_name; a person first_name and first_last_name. Taken value 409, and
 * so is the ID key of a merchant approved at the sponsor bank; a NIT owner that is such a merchant 400.
 */
export async function addSandboxDirectoryKey(
  directory: Pick<DirectoryStore, 'insertSandbox'>,
  request: SandboxDirectoryKeyRequest,
  now: string,
): Promise<SandboxDirectoryKey> {
  const { owner } = request;
  if (owner.type === 'BUSINESS' && !owner.business_name) {
    throw new AppError('VALIDATION_FAILED', 'A BUSINESS owner needs a business_name', {
      errors: [{ field: 'owner.business_name', message: 'is required for a BUSINESS owner' }],
    });
  }
  if (owner.type === 'PERSON' && (!owner.first_name || !owner.first_last_name)) {
    throw new AppError('VALIDATION_FAILED', 'A PERSON owner needs first_name and first_last_name', {
      errors: [{ field: 'owner.first_name', message: 'and owner.first_last_name are required for a PERSON owner' }],
    });
  }
  const entry: DirectoryEntry = {
    key: { key_type: request.key.key_type, key_value: normaliseKeyValue(request.key.key_type, request.key.key_value) },
    owner: ownerOf(owner),
    participant: request.participant,
    account: request.account,
    source: 'SANDBOX',
    status: 'ACTIVE',
    created_at: now,
    updated_at: now,
  };
  const inserted = await directory.insertSandbox(entry, merchantNitsOf(entry));
  if (!inserted.inserted) {
    if (inserted.reason === 'merchant_nit' && !(entry.key.key_type === 'ID' && entry.key.key_value === inserted.nit)) {
      throw invalidField(
        'owner.identification_number',
        "is a merchant of this participant's: a sandbox entry is someone at another participant",
      );
    }
    // Held by a key of ours or another participant's, or the ID key a merchant of ours needs.
    throw new AppError(
      'KEY_ALREADY_REGISTERED',
      `This ${entry.key.key_type} key is already registered in the Bre-B directory`,
    );
  }
  return {
    key: entry.key,
    owner: entry.owner,
    participant: entry.participant,
    account: entry.account,
    created_at: now,
  };
}
