/**
 * The route family "Keys and directory": a merchant's Bre-B keys, and resolving or validating anyone's key in the directory. Its functions deploy in a nested stack of their
 * own (infra/constructs/route-family-stack.ts); index.ts joins the families into the route table.
 */
import { IDEMPOTENCY_ACTIONS, ANSWER_RECORD_ACTIONS, LIST_ACTIONS, SCOPES, type RouteFamily } from './definitions';

export const keyRoutes: RouteFamily = {
  name: 'keys',
  title: 'Keys and directory',
  routes: [
    {
      name: 'registerKey',
      method: 'POST',
      paths: ['/v1/keys'],
      handler: 'register-key',
      summary: "Register a Bre-B key for one of the client's accounts",
      schemas: { body: 'registerKeyRequestSchema', query: 'emptyQuerySchema', response: 'keySchema' },
      problems: ['NOT_FOUND', 'FORBIDDEN', 'ACCOUNT_INACTIVE', 'CUSTOMER_INACTIVE', 'KEY_ALREADY_REGISTERED'],
      scopes: [SCOPES.keysWrite],
      // Reads the account and its customer; the transaction puts the key and its directory entry,
      // checks the customer and the account, and updates the counters.
      tableActions: [...IDEMPOTENCY_ACTIONS, 'ConditionCheckItem'],
      // On a connector stage it publishes the key in the network's directory first, signed.
      secrets: ['network'],
    },
    {
      name: 'listKeys',
      method: 'GET',
      paths: ['/v1/keys'],
      handler: 'list-keys',
      summary: "List the client's Bre-B keys, a page at a time",
      schemas: { body: null, query: 'keyListQuerySchema', response: 'keyListSchema' },
      problems: [],
      scopes: [SCOPES.keysRead],
      tableActions: LIST_ACTIONS,
    },
    {
      name: 'getKey',
      method: 'GET',
      paths: ['/v1/keys/{id}'],
      handler: 'get-key',
      summary: "Read one of the client's Bre-B keys",
      schemas: { body: null, query: 'emptyQuerySchema', response: 'keySchema' },
      problems: [],
      scopes: [SCOPES.keysRead],
      tableActions: ['GetItem'],
    },
    {
      name: 'deleteKey',
      method: 'DELETE',
      paths: ['/v1/keys/{id}'],
      handler: 'delete-key',
      summary: 'Delete a key: its value is free again',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'keySchema' },
      problems: ['KEY_STATUS_CONFLICT', 'CONCURRENT_UPDATE'],
      scopes: [SCOPES.keysWrite],
      // Reads the key; the transaction updates it, deletes its directory entry and puts its audit event.
      tableActions: ['GetItem', 'UpdateItem', 'DeleteItem', 'PutItem'],
      // On a connector stage the network's directory is told first (docs/network.md, "Directory").
      secrets: ['network'],
    },
    {
      name: 'suspendKey',
      method: 'PATCH',
      paths: ['/v1/keys/{id}/suspend'],
      handler: 'suspend-key',
      summary: 'Suspend a key: it stops resolving and serving new QR codes',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'keySchema' },
      problems: ['KEY_STATUS_CONFLICT', 'CONCURRENT_UPDATE'],
      scopes: [SCOPES.keysWrite],
      // Reads the key; the transaction updates it and its directory entry, and puts its audit event.
      tableActions: ['GetItem', 'UpdateItem', 'PutItem'],
      // On a connector stage the network's directory is told first (docs/network.md, "Directory").
      secrets: ['network'],
    },
    {
      name: 'activateKey',
      method: 'PATCH',
      paths: ['/v1/keys/{id}/activate'],
      handler: 'activate-key',
      summary: 'Activate a suspended key again',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'keySchema' },
      problems: ['KEY_STATUS_CONFLICT', 'CONCURRENT_UPDATE', 'CUSTOMER_INACTIVE'],
      scopes: [SCOPES.keysWrite],
      // As suspendKey, and checks that the customer is still ACTIVE.
      tableActions: ['GetItem', 'UpdateItem', 'ConditionCheckItem', 'PutItem'],
      // On a connector stage the network's directory is told first (docs/network.md, "Directory").
      secrets: ['network'],
    },
    {
      name: 'resolveKey',
      method: 'POST',
      paths: ['/v1/resolve-key'],
      handler: 'resolve-key',
      summary: 'Resolve a Bre-B key to its owner, participant and account',
      schemas: { body: 'resolveKeyRequestSchema', query: 'emptyQuerySchema', response: 'resolutionSchema' },
      problems: ['NOT_FOUND', 'FORBIDDEN', 'KEY_NOT_FOUND', 'KEY_LOOKUPS_EXHAUSTED', 'LOOKUP_LIMITED'],
      // Paying's first step, with an identity in the answer: a scope no read-only principal holds
      // (docs/keys.md); it stores the resolution it answers.
      scopes: [SCOPES.keysResolve],
      tableActions: IDEMPOTENCY_ACTIONS,
      // On a connector stage it asks the network's directory, signed (docs/network.md, "Directory").
      secrets: ['network'],
    },
    {
      name: 'validateKey',
      method: 'POST',
      paths: ['/v1/validate-key'],
      handler: 'validate-key',
      summary: 'Tell whether a person or business owns a Bre-B key',
      schemas: { body: 'validateKeyRequestSchema', query: 'emptyQuerySchema', response: 'keyValidationSchema' },
      problems: ['KEY_LOOKUPS_EXHAUSTED', 'LOOKUP_LIMITED'],
      // resolve-key's scope: validating checks an identity the caller already holds against the
      // directory (MATCH or NO_MATCH, nothing stored), so it is paying's first step too, under the same
      // scope and the same anti-scanning bucket (docs/keys.md). The one GetItem is the directory's; the
      // rest are those of an Idempotency-Key a client may send.
      scopes: [SCOPES.keysResolve],
      tableActions: ANSWER_RECORD_ACTIONS,
      secrets: ['network'],
    },
    {
      name: 'getResolution',
      method: 'GET',
      paths: ['/v1/resolutions/{id}'],
      handler: 'get-resolution',
      summary: 'Read a key resolution the client made',
      schemas: { body: null, query: 'emptyQuerySchema', response: 'resolutionSchema' },
      problems: [],
      scopes: [SCOPES.keysRead],
      tableActions: ['GetItem'],
    },
  ],
};
