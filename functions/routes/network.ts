/**
 * The routes the network connector calls (docs/network.md): signed by the connector's secret, not
 * behind the JWT authorizer, in an OpenAPI document of their own (tools/openapi/network-document.ts),
 * throttled apart from the clients' routes. Kept out of the
 * route table's `routes`, whose every entry the clients' suites (authorization matrix, fuzz, the
 * clients' OpenAPI document) put behind a token; the stack and the local server mount these the same
 * way. They are a family of their own (index.ts), deployed in their own nested stack. Nothing here
 * imports handler code.
 */
import { IDEMPOTENCY_ACTIONS, type FunctionDefinition, type HttpMethod, type RouteFamily } from './definitions';

export interface NetworkRouteDefinition extends FunctionDefinition {
  readonly method: HttpMethod;
  readonly paths: readonly string[];
  /**
   * How the caller is authenticated: the connector's signature, never a token; `public` for what
   * anyone may read (our public keys).
   */
  readonly auth: 'signature' | 'public';
  readonly summary: string;
}

/**
 * What every signed route does with the table besides its work: its request id is claimed, answered
 * and (after a failure) released as an Idempotency-Key is (shared/http/network-handler.ts).
 */
const NETWORK_REQUEST_ACTIONS = IDEMPOTENCY_ACTIONS;

/** Every path the connector calls starts here: API Gateway throttles it apart (infra/constructs/api-stage.ts). */
export const NETWORK_PATH_PREFIX = '/network/';

export const networkRoutes: readonly NetworkRouteDefinition[] = [
  {
    name: 'applyTransferStatus',
    handler: 'apply-transfer-status',
    method: 'POST',
    paths: ['/network/v1/transfers/{id}/status'],
    auth: 'signature',
    summary: "The network's answer to one of our transfer orders, applied once",
    // Reads the payment (consistent); the answer's transaction puts it (while still PENDING) and its
    // event, and for a rejection updates the payer's balance and puts the movement.
    tableActions: [...NETWORK_REQUEST_ACTIONS],
    writesMoney: true,
    secrets: ['network'],
  },
  {
    name: 'receiveNetworkCredit',
    handler: 'receive-network-credit',
    method: 'POST',
    paths: ['/network/v1/credits'],
    auth: 'signature',
    summary: "A shopper's bank pays one of our merchants' keys or QR codes: the merchant's decision, once",
    // Reads the payment the credit's id names, the key's directory entry, the key, a QR code and its
    // reference guard, the approval settings; then receives the payment as the sandbox's inbound
    // routes do (a transaction of Puts, Updates and ConditionChecks; the decision's second one).
    tableActions: [...NETWORK_REQUEST_ACTIONS, 'ConditionCheckItem'],
    writesMoney: true,
    secrets: ['network'],
    // Opens the approval secrets to sign the approval request.
    sealing: ['open'],
    // The decision job, queued before the payment is written.
    queues: ['creditDecisions'],
  },
  {
    name: 'reverseNetworkCredit',
    handler: 'reverse-network-credit',
    method: 'POST',
    paths: ['/network/v1/credits/{end_to_end_id}/reversals'],
    auth: 'signature',
    summary: 'The sponsor bank takes back money it credited to one of our merchants, once per reversal_id',
    // Reads the reversal and the credit's payment (and its detail); one transaction puts the reversal,
    // updates the payment's reversed amount and the account's balance, and puts the movement and event.
    tableActions: [...NETWORK_REQUEST_ACTIONS],
    writesMoney: true,
    secrets: ['network'],
  },
  {
    name: 'applyMerchantDecision',
    handler: 'apply-merchant-decision',
    method: 'PUT',
    paths: ['/network/v1/merchants/{identification_type}/{identification_number}'],
    auth: 'signature',
    summary: 'The sponsor bank approves a merchant for one platform, with its accounts, or revokes it',
    // Reads the approval and writes it (Update) and its new accounts (Put); for a revocation, reads
    // the platform's NIT guard and customer, changes its status and its accounts' copies (Query,
    // Update), walks its keys (Query) and suspends each with its directory entry and audit event.
    tableActions: [...NETWORK_REQUEST_ACTIONS, 'Query', 'ConditionCheckItem'],
    writesMoney: true,
    secrets: ['network'],
  },
  {
    name: 'receiveSettlementFile',
    handler: 'receive-settlement-file',
    method: 'PUT',
    paths: ['/network/v1/settlement-files/{date}'],
    auth: 'signature',
    summary: "The sponsor bank's settled movements of a Bogotá day on our clients' accounts, to reconcile",
    // Puts the day's file record (replacing the last), due until its run completes it.
    tableActions: [...NETWORK_REQUEST_ACTIONS],
    secrets: ['network'],
    // The file itself, kept whole for the run.
    settlementFiles: ['write'],
    // Its run, queued after the record is written.
    queues: ['reconciliations'],
  },
  {
    name: 'getNetworkKeys',
    handler: 'get-network-keys',
    method: 'GET',
    paths: ['/network/v1/keys'],
    auth: 'public',
    summary: 'Our public keys (a JWKS): what the bank verifies our signed requests with',
    tableActions: [],
    // Derives the public keys from our signing keys, which the network secret holds.
    secrets: ['network'],
  },
];

export const networkRouteFamily: RouteFamily<NetworkRouteDefinition> = {
  name: 'network',
  title: 'Network',
  routes: networkRoutes,
};
