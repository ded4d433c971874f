/**
 * Bre-B key schemas: key registration and management, key resolution and validation, the sandbox's
 * directory (docs/keys.md).
 */
import type { FromSchema } from 'json-schema-to-ts';
import { ACCOUNT_NUMBER, allRequired, closedObject, matching, NIT, text, TIMESTAMP, TIMESTAMPS, UUID } from './common';
import { listAnswer, listQueryUnderCustomer } from './lists';

export const KEY_TYPE = { type: 'string', enum: ['ID', 'PHONE', 'EMAIL', 'ALPHA', 'BCODE'] } as const;
/** Shapes only: the format of each type is checked by shared/domain/key-formats.ts (400 either way). */
const KEY_VALUE = { type: 'string', minLength: 1, maxLength: 100 } as const;

export const KEY_STATUSES = ['ACTIVE', 'SUSPENDED', 'DELETED'] as const;
export type KeyStatus = (typeof KEY_STATUSES)[number];

/** A key with its type: as registered, and as every answer shows a key. */
export const typedKeySchema = allRequired({ key_type: KEY_TYPE, key_value: KEY_VALUE });

export const registerKeyRequestSchema = closedObject(
  {
    account_id: UUID,
    key: typedKeySchema,
    display_name: text(100),
  },
  ['account_id', 'key'],
);

export type RegisterKeyRequest = FromSchema<typeof registerKeyRequestSchema>;

export const keyListQuerySchema = listQueryUnderCustomer({
  account_id: UUID,
  key_type: KEY_TYPE,
  status: { type: 'string', enum: KEY_STATUSES },
});

export type KeyListQuery = FromSchema<typeof keyListQuerySchema>;

/** A key as resolve-key and validate-key take it: key_type is optional and then inferred. */
export const keyOfAnyType = closedObject({ key_type: KEY_TYPE, key_value: KEY_VALUE }, ['key_value']);

/** POST /v1/resolve-key: key_type is optional and then inferred. */
export const resolveKeyRequestSchema = allRequired({
  customer_id: UUID,
  key: keyOfAnyType,
});

export type ResolveKeyRequest = FromSchema<typeof resolveKeyRequestSchema>;

/** The owner of a key: a business (business_name) or a person (first and last names). */
export const keyOwnerSchema = closedObject(
  {
    identification_type: { type: 'string', enum: ['NIT', 'CC', 'CE', 'TI', 'PP', 'PEP', 'PPT'] },
    identification_number: matching('^[A-Za-z0-9]{1,18}$', 'must be 1 to 18 letters or digits'),
    type: { type: 'string', enum: ['BUSINESS', 'PERSON'] },
    business_name: text(140),
    first_name: text(60),
    second_name: text(60),
    first_last_name: text(60),
    second_last_name: text(60),
  },
  ['identification_type', 'identification_number', 'type'],
);

export type KeyOwner = FromSchema<typeof keyOwnerSchema>;

/** The participant (bank or wallet) that holds a key's account. */
export const participantSchema = allRequired({ name: text(140), identification_number: NIT });

/** The account a key pays into, at its participant. */
export const keyAccountSchema = allRequired({
  account_number: ACCOUNT_NUMBER,
  account_type: matching(
    '^[A-Z][A-Z_]{0,29}$',
    'must be 1 to 30 capital letters or underscores, starting with a letter',
  ),
});

/** POST /sandbox/directory/keys (docs/sandbox.md): a key of someone at another participant. */
export const sandboxDirectoryKeyRequestSchema = allRequired({
  key: typedKeySchema,
  owner: keyOwnerSchema,
  participant: participantSchema,
  account: keyAccountSchema,
});

/** The answer of POST /sandbox/directory/keys: the directory entry as it now stands. */
export const sandboxDirectoryKeySchema = allRequired({
  ...sandboxDirectoryKeyRequestSchema.properties,
  created_at: TIMESTAMP,
});

export type SandboxDirectoryKeyRequest = FromSchema<typeof sandboxDirectoryKeyRequestSchema>;

/**
 * POST /v1/validate-key (docs/keys.md): does this person or business own this key? The key as
 * resolve-key takes it, and the identification of the supposed owner, of the owner's shape.
 */
export const validateKeyRequestSchema = allRequired({
  key: keyOfAnyType,
  identification_type: keyOwnerSchema.properties.identification_type,
  identification_number: keyOwnerSchema.properties.identification_number,
});

export type ValidateKeyRequest = FromSchema<typeof validateKeyRequestSchema>;

/** The answer of POST /v1/validate-key: whether that person or business owns the key, nothing more. */
export const keyValidationSchema = allRequired({ result: { type: 'string', enum: ['MATCH', 'NO_MATCH'] } });

/** A registered key, as the key routes answer it. */
export const keySchema = allRequired({
  id: UUID,
  status: { type: 'string', enum: KEY_STATUSES },
  key: typedKeySchema,
  account_id: UUID,
  customer_id: UUID,
  display_name: text(140),
  ...TIMESTAMPS,
});

export const keyListSchema = listAnswer('keys', keySchema);

/**
 * The answer of POST /v1/resolve-key and GET /v1/resolutions/{id}: whom the key names, at which
 * participant and account. Its id is what a payment or a recipient names as resolution_id.
 */
export const resolutionSchema = allRequired({
  id: UUID,
  customer_id: UUID,
  resolved_at: TIMESTAMP,
  key: typedKeySchema,
  owner: keyOwnerSchema,
  participant: participantSchema,
  account: keyAccountSchema,
});
