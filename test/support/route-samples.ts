/**
 * What the reliability suites need to know about each route of the route table, keyed by its `name`:
 * a request the route accepts, what another client gets when it aims that request at the owner's
 * data, and the uniqueness rule the route enforces. Everything else (methods, paths, scopes) comes
 * from the route table (functions/routes/), so a new route is fuzzed, raced, faulted and put through the
 * authorization matrix as soon as it has an entry here; a test fails while it has none.
 */
import { randomUUID } from 'node:crypto';
import type { ErrorCode } from '../../shared/domain/errors';
import type { RouteDefinition } from '../../functions/routes';
import { accountNumbers, linkAccount, linkedCustomer } from './accounts';
import { linkMerchantBody, uniqueNit } from './fixtures';
import type { ApiAnswer, TestApi } from './local-api';
import { merchantWithKey, uniqueAlphaKey, type MerchantWithKey } from './merchants';

/** Why a sandbox payment may leave its credit written when a later call fails, and a retry is whole. */
const SANDBOX_CREDIT_CONVERGES =
  'the credit is written, then read back for the answer; a retry under the same Idempotency-Key sends the ' +
  'same credit (its end_to_end_id follows from the key), which answers its payment: credited once ' +
  '(shared/domain/sandbox-inbound.ts)';

/** One client's data, created through the API: what the samples point their requests at. */
export interface Party extends MerchantWithKey {
  readonly clientId: string;
  readonly token: string;
  readonly resolutionId: string;
  readonly qrCode: Record<string, any>;
  readonly paymentId: string;
  /** A recipient of the merchant's: the payee of its resolution. */
  readonly recipientId: string;
  /** A webhook of the client's, and the secret its create answered (shown nowhere else). */
  readonly webhook: { readonly id: string; readonly secret: string };
}

export interface SampleContext {
  readonly api: TestApi;
  /** The owner of the data the request names; the request is sent with its token. */
  readonly party: Party;
}

/** The parts of a request; the method and path template come from the route table. */
export interface SampleRequest {
  readonly pathParameters?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: Readonly<Record<string, unknown>>;
  /** Headers the route needs to accept the request (a fresh Idempotency-Key where one is required). */
  readonly headers?: Readonly<Record<string, string>>;
}

/** What the other client gets for the sample request aimed at the owner's data. */
export type ForeignAnswer =
  /** The resource exists but is the owner's: 403 FORBIDDEN, nothing of it shown. */
  | { readonly kind: 'forbidden' }
  /**
   * The route answers the owner's resource as an unknown one: 404 NOT_FOUND, as if it did not exist (a
   * part of it such as an account's ledger, or a refund's payment).
   */
  | { readonly kind: 'not-found' }
  /** A list filtered by the owner's ids: 200 with none of the owner's items. */
  | { readonly kind: 'empty-list'; readonly collection: string }
  /** Figures filtered by the owner's ids (its merchant's daily totals): 200, every count 0. */
  | { readonly kind: 'nothing-counted' }
  /** The route names no data of a client (it creates the caller's own, or is an operator tool). */
  | { readonly kind: 'not-applicable'; readonly why: string };

export interface UniquenessRule {
  readonly rule: string;
  /**
   * What the same request sent again gets: the rule's 409, or (`repeats: 'same-answer'`) the one
   * resource it made, as a payment of a resolution does (docs/payments.md).
   */
  readonly repeats?: 'conflict' | 'same-answer';
  /** The 409 of every request but one when the value is sent many times at once. */
  readonly code?: ErrorCode;
  /** The member of the 409 body that names the resource holding the value, when the API names it. */
  readonly existingIdField?: string;
}

export interface RouteSample {
  /**
   * A request the route accepts (2xx) from the party, with fresh values (a new NIT, account number,
   * key value, key or code to change) on every call, preparing what it needs through the API.
   */
  readonly valid: (context: SampleContext) => Promise<SampleRequest>;
  /** The status that request answers: 200 unless the route creates what it answers with 201. */
  readonly status?: number;
  readonly foreign: ForeignAnswer;
  readonly uniqueness?: UniquenessRule;
  /** A GET list: its query string is fuzzed, and `page_size` bounds are checked. */
  readonly list?: { readonly collection: string };
  /**
   * Why a DynamoDB failure in the middle of this route may leave part of its change written (it
   * then answers 503, and the retry completes it). Every other route writes all or nothing.
   */
  readonly convergesOnRetry?: string;
}

/** Today in Colombia (UTC-5 all year), `YYYY-MM-DD`. */
const colombiaToday = (): string => new Date(Date.now() - 5 * 60 * 60 * 1000).toISOString().slice(0, 10);

let counter = 0;
/** Colombian mobile numbers (PHONE keys) unique to this process. */
const uniquePhone = (): string =>
  `35${String(process.pid % 10000).padStart(4, '0')}${String(++counter).padStart(4, '0')}`;
/** Ana María's phone in the sandbox directory (README, Sandbox): a key of another participant. */
const SANDBOX_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
/** QR code references unique to this process (letters and digits). */
const uniqueReference = (): string => `F${process.pid % 100000}X${++counter}`;

async function expectOk(answer: Promise<ApiAnswer>, what: string): Promise<Record<string, any>> {
  const settled = await answer;
  if (settled.status >= 300) throw new Error(`${what} answered ${settled.status}: ${settled.text}`);
  return settled.body;
}

/** Approves one more account number for the party's merchant at the sponsor bank. */
async function approvedNumber({ api, party }: SampleContext): Promise<string> {
  const [number] = accountNumbers(1) as [string];
  await expectOk(
    api.request('POST', '/sandbox/sponsor-bank/merchants', {
      token: party.token,
      body: {
        identification_type: 'NIT',
        identification_number: party.nit,
        business_name: party.businessName,
        accounts: [number],
      },
    }),
    'approving an account',
  );
  return number;
}

async function newKey({ api, party }: SampleContext): Promise<Record<string, any>> {
  return expectOk(
    api.request('POST', '/v1/keys', {
      token: party.token,
      body: { account_id: party.accountId, key: { key_type: 'ALPHA', key_value: uniqueAlphaKey() } },
    }),
    'registering a key',
  );
}

/** A static QR code of the merchant's key: the body of POST /v1/qrcodes. */
const qrCodeBody = (merchant: MerchantWithKey) => ({
  key_id: merchant.keyId,
  customer_id: merchant.customerId,
  type: 'STATIC',
  channel: 'POS',
  qr_code_reference: uniqueReference(),
});

const newQrCode = ({ api, party }: SampleContext): Promise<Record<string, any>> =>
  expectOk(api.request('POST', '/v1/qrcodes', { token: party.token, body: qrCodeBody(party) }), 'creating a QR code');

/** A payment of 10.00 COP to the sandbox's Ana María, from a resolution of its own. */
async function paymentBody(api: TestApi, merchant: MerchantWithKey, token: string) {
  const resolution = await expectOk(
    api.request('POST', '/v1/resolve-key', { token, body: { customer_id: merchant.customerId, key: SANDBOX_PHONE } }),
    'resolving a key',
  );
  return {
    customer_id: merchant.customerId,
    account_id: merchant.accountId,
    resolution_id: resolution.id,
    amount: { value: '10.00', currency: 'COP' },
  };
}

/** The body of POST /v1/recipients: the payee of one of the merchant's resolutions. */
const recipientBody = (merchant: MerchantWithKey, resolutionId: string) => ({
  customer_id: merchant.customerId,
  resolution_id: resolutionId,
  alias: 'Proveedor de harinas',
});

const newRecipient = ({ api, party }: SampleContext): Promise<Record<string, any>> =>
  expectOk(
    api.request('POST', '/v1/recipients', { token: party.token, body: recipientBody(party, party.resolutionId) }),
    'saving a recipient',
  );

/**
 * A webhook receiver on the local stage (its loopback exception, docs/webhooks.md); port 9 (discard)
 * has no listener: nothing here needs a delivery to arrive.
 */
export const SAMPLE_WEBHOOK_URL = 'http://127.0.0.1:9/breb-webhooks';

const webhookBody = () => ({
  // A path of its own: the sender holds back an endpoint after 5 failed attempts in a row
  // (shared/domain/endpoint-breaker.ts), and the samples' refused attempts are many.
  url: `${SAMPLE_WEBHOOK_URL}/${randomUUID()}`,
  events: ['payment.settled', 'qr_code.paid', 'webhook.test'],
  // Nothing listens at the sample URL: one refused attempt per event, no retries in the background.
  delivery_mode: 'ONCE',
  description: 'Conciliación de pagos',
});

const newWebhook = ({ api, party }: SampleContext): Promise<Record<string, any>> =>
  expectOk(api.request('POST', '/v1/webhooks', { token: party.token, body: webhookBody() }), 'creating a webhook');

/** Sends the webhook a test event and waits until its one attempt failed; answers the delivery's id. */
async function failedDelivery({ api, party }: SampleContext, webhookId: string): Promise<string> {
  const test = await expectOk(
    api.request('POST', `/v1/webhooks/${webhookId}/test`, { token: party.token }),
    'sending a test event',
  );
  for (let read = 0; read < 100; read += 1) {
    // The webhook may have deliveries of other events too (the party's payments): this one's status counts.
    const page = await api.request('GET', `/v1/webhooks/${webhookId}/deliveries?page_size=100`, { token: party.token });
    const delivery = (page.body.deliveries as { id: string; status: string }[] | undefined)?.find(
      (d) => d.id === test.id,
    );
    if (delivery?.status === 'FAILED') return test.id;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Delivery ${test.id} did not fail`);
}

const forbidden: ForeignAnswer = { kind: 'forbidden' };

/** The id of the party's newest event (its payment's, at least). */
async function newestEvent({ api, party }: SampleContext): Promise<string> {
  const page = await expectOk(
    api.request('GET', '/v1/events?page_size=1', { token: party.token }),
    "listing the party's events",
  );
  const [event] = page.events as { id: string }[];
  if (!event) throw new Error('The party has no event');
  return event.id;
}

/** A payment of 30.00 the sandbox shopper makes to the party's key: INBOUND, SETTLED (approval off). */
const receivedPayment = ({ api, party }: SampleContext): Promise<Record<string, any>> =>
  expectOk(
    api.request('POST', '/sandbox/payments/inbound', {
      token: party.token,
      body: { key: party.key, amount: { value: '30.00', currency: 'COP' } },
    }),
    'receiving a payment',
  );

/** A refund of 1.00 of a payment the party received. */
const newRefund = async (context: SampleContext): Promise<Record<string, any>> =>
  expectOk(
    context.api.request('POST', `/v1/payments/${(await receivedPayment(context)).id}/refunds`, {
      token: context.party.token,
      body: { amount: { value: '1.00', currency: 'COP' } },
      headers: { 'Idempotency-Key': randomUUID() },
    }),
    'refunding',
  );
const byId = (id: string): SampleRequest => ({ pathParameters: { id } });

/** A report of the party account's movements of today (UTC). */
const movementsReportBody = (party: Party) => {
  const today = new Date().toISOString().slice(0, 10);
  return { type: 'movements', account_id: party.accountId, created_from: today, created_to: today };
};

/** Inbound approval off, so that the party's inbound payments stay decided at once (one write). */
const approvalSettingsBody = () => ({
  callback_url: 'http://127.0.0.1:9/approvals',
  enabled: false,
  auto_approve_on_error: false,
});

/** Sets the party's inbound approval up, as its client would before reading or rotating it. */
async function withApprovalSettings({ api, party }: SampleContext): Promise<SampleRequest> {
  await expectOk(
    api.request('PUT', '/v1/settings/inbound-approval', { token: party.token, body: approvalSettingsBody() }),
    'setting inbound approval up',
  );
  return {};
}

const ownSettings: ForeignAnswer = {
  kind: 'not-applicable',
  why: "reads or changes the caller's own settings: the path names nothing of another client",
};

export const ROUTE_SAMPLES: Readonly<Record<string, RouteSample>> = {
  linkMerchant: {
    async valid({ api, party }) {
      const nit = uniqueNit();
      await expectOk(
        api.request('POST', '/sandbox/sponsor-bank/merchants', {
          token: party.token,
          body: { identification_type: 'NIT', identification_number: nit, business_name: 'Comercio Fuzz SAS' },
        }),
        'approving a merchant',
      );
      return { body: linkMerchantBody({ identification_number: nit, business_name: 'Comercio Fuzz SAS' }) };
    },
    foreign: { kind: 'not-applicable', why: "links a merchant as the caller's own customer" },
    uniqueness: {
      rule: 'one customer per NIT and client',
      code: 'CUSTOMER_ALREADY_LINKED',
      existingIdField: 'customer_id',
    },
  },
  getCustomer: { valid: async ({ party }) => byId(party.customerId), foreign: forbidden },
  listCustomers: {
    valid: async ({ party }) => ({ query: { identification_number: party.nit, page_size: '5' } }),
    foreign: { kind: 'empty-list', collection: 'customers' },
    list: { collection: 'customers' },
  },
  updateCustomer: {
    // A customer of its own with an account, so that the change is copied onto the account too.
    async valid({ api, party }) {
      const [number] = accountNumbers(1) as [string];
      const customer = await linkedCustomer(api, party.token, { numbers: [number] });
      await expectOk(linkAccount(api, party.token, customer.id, number), 'linking an account');
      return { pathParameters: { id: customer.id }, body: { status: 'INACTIVE' } };
    },
    foreign: forbidden,
    convergesOnRetry:
      "the customer's status is written first, then copied onto each of its accounts (any number of them, " +
      'more than one transaction holds); a retry copies what a failure left behind (shared/domain/customers.ts)',
  },
  linkAccount: {
    async valid(context) {
      const number = await approvedNumber(context);
      return { body: { customer_id: context.party.customerId, type: 'ORDINARY', number } };
    },
    foreign: forbidden,
    uniqueness: {
      rule: 'one account number per customer',
      code: 'ACCOUNT_ALREADY_LINKED',
      existingIdField: 'account_id',
    },
  },
  listAccounts: {
    valid: async ({ party }) => ({ query: { customer_id: party.customerId, order_direction: 'desc' } }),
    foreign: { kind: 'empty-list', collection: 'accounts' },
    list: { collection: 'accounts' },
  },
  getAccount: { valid: async ({ party }) => byId(party.accountId), foreign: forbidden },
  listAccountMovements: {
    valid: async ({ party }) => ({ pathParameters: { id: party.accountId }, query: { order_direction: 'desc' } }),
    foreign: { kind: 'not-found' },
    list: { collection: 'movements' },
  },
  getAccountStatement: {
    // Today in Colombia: a day the account has movements on.
    valid: async ({ party }) => ({ pathParameters: { id: party.accountId, date: colombiaToday() } }),
    foreign: { kind: 'not-found' },
  },
  registerKey: {
    valid: async ({ party }) => ({
      body: {
        account_id: party.accountId,
        key: { key_type: 'ALPHA', key_value: uniqueAlphaKey() },
        display_name: 'Caja 1',
      },
    }),
    foreign: forbidden,
    uniqueness: { rule: 'one key value in the Bre-B directory', code: 'KEY_ALREADY_REGISTERED' },
  },
  listKeys: {
    valid: async ({ party }) => ({ query: { customer_id: party.customerId, key_type: 'ALPHA' } }),
    foreign: { kind: 'empty-list', collection: 'keys' },
    list: { collection: 'keys' },
  },
  getKey: { valid: async ({ party }) => byId(party.keyId), foreign: forbidden },
  deleteKey: { valid: async (context) => byId((await newKey(context)).id), foreign: forbidden },
  suspendKey: { valid: async (context) => byId((await newKey(context)).id), foreign: forbidden },
  activateKey: {
    async valid(context) {
      const { id } = await newKey(context);
      await expectOk(
        context.api.request('PATCH', `/v1/keys/${id}/suspend`, { token: context.party.token }),
        'suspending a key',
      );
      return byId(id);
    },
    foreign: forbidden,
  },
  resolveKey: {
    valid: async ({ party }) => ({ body: { customer_id: party.customerId, key: SANDBOX_PHONE } }),
    foreign: forbidden,
  },
  validateKey: {
    valid: async ({ party }) => ({
      body: { key: party.key, identification_type: 'NIT', identification_number: party.nit },
    }),
    foreign: {
      kind: 'not-applicable',
      why: "asks the network's directory, which every client reads (as resolve-key does); answers MATCH or NO_MATCH only",
    },
  },
  getResolution: { valid: async ({ party }) => byId(party.resolutionId), foreign: forbidden },
  createQrCode: {
    valid: async ({ party }) => ({ body: qrCodeBody(party) }),
    foreign: forbidden,
    uniqueness: {
      rule: 'one QR code reference per merchant',
      code: 'QR_CODE_REFERENCE_TAKEN',
      existingIdField: 'qr_code_id',
    },
  },
  getQrCode: { valid: async ({ party }) => byId(party.qrCode.id), foreign: forbidden },
  listQrCodes: {
    valid: async ({ party }) => ({ query: { customer_id: party.customerId, type: 'STATIC' } }),
    foreign: { kind: 'empty-list', collection: 'qr_codes' },
    list: { collection: 'qr_codes' },
  },
  deleteQrCode: { valid: async (context) => byId((await newQrCode(context)).id), foreign: forbidden },
  decodeQrCode: {
    valid: async ({ party }) => ({ body: { qr_code_data: party.qrCode.qr_code_data } }),
    foreign: {
      kind: 'not-applicable',
      why: 'decodes the payload it is given (printed on a counter); looks nothing up',
    },
  },
  createPayment: {
    valid: async ({ api, party }) => ({ body: await paymentBody(api, party, party.token) }),
    foreign: forbidden,
    uniqueness: { rule: 'one payment per resolution', repeats: 'same-answer' },
    convergesOnRetry:
      'the payment is committed PENDING, then its settlement is scheduled in a second step; the same request ' +
      'again answers that payment and schedules it again (shared/domain/pay-resolution.ts)',
  },
  getPayment: { valid: async ({ party }) => byId(party.paymentId), foreign: forbidden },
  listPayments: {
    valid: async ({ party }) => ({ query: { customer_id: party.customerId, direction: 'OUTBOUND' } }),
    foreign: { kind: 'empty-list', collection: 'payments' },
    list: { collection: 'payments' },
  },
  getPaymentTotals: {
    // The party's merchant received a payment today: its figures are not all zero.
    valid: async (context) => {
      await receivedPayment(context);
      const today = colombiaToday();
      return { query: { customer_id: context.party.customerId, from: today, to: today } };
    },
    foreign: { kind: 'nothing-counted' },
  },
  createReport: {
    valid: async ({ party }) => ({ body: movementsReportBody(party) }),
    // A movements report names the owner's account: 404 for another client, as its movements list.
    foreign: { kind: 'not-found' },
  },
  getReport: {
    valid: async ({ api, party }) =>
      byId(
        (
          await expectOk(
            api.request('POST', '/v1/reports', { token: party.token, body: movementsReportBody(party) }),
            'asking for a report',
          )
        )['id'],
      ),
    // Another client's report is 404, as an unknown one (docs/reconciliation.md).
    foreign: { kind: 'not-found' },
  },
  listReports: {
    valid: async () => ({ query: { page_size: '5', order_direction: 'desc' } }),
    foreign: {
      kind: 'not-applicable',
      why: "lists the caller's own reports; its query names nothing of another client",
    },
    list: { collection: 'reports' },
  },
  createRefund: {
    // A refund of 1.00 of a new payment the sandbox shopper made to the party's key (settled at once).
    valid: async (context) => ({
      pathParameters: { id: (await receivedPayment(context)).id },
      body: { amount: { value: '1.00', currency: 'COP' }, reason: 'Sample' },
      headers: { 'Idempotency-Key': randomUUID() },
    }),
    foreign: { kind: 'not-found' },
    convergesOnRetry:
      'the refund is committed PENDING, then its settlement is scheduled in a second step; the same request ' +
      '(its Idempotency-Key) again answers that refund and schedules it again (shared/domain/refunds.ts)',
  },
  getRefund: { valid: async (context) => byId((await newRefund(context)).id), foreign: forbidden },
  listRefunds: {
    valid: async ({ party }) => ({ query: { customer_id: party.customerId, status: 'PENDING' } }),
    foreign: { kind: 'empty-list', collection: 'refunds' },
    list: { collection: 'refunds' },
  },
  getSettlementReconciliation: {
    // Today in Colombia: a day whose file may or may not have come (NOT_RECEIVED, the answer still 200).
    valid: async () => ({ pathParameters: { date: colombiaToday() } }),
    foreign: {
      kind: 'not-applicable',
      why: "a day is every client's: each reads its own accounts' result of it, never another's",
    },
  },
  listSettlementBreaks: {
    valid: async () => ({ pathParameters: { date: colombiaToday() } }),
    foreign: { kind: 'empty-list', collection: 'breaks' },
    list: { collection: 'breaks' },
  },
  createRecipient: {
    valid: async ({ party }) => ({ body: recipientBody(party, party.resolutionId) }),
    foreign: forbidden,
  },
  listRecipients: {
    valid: async ({ party }) => ({ query: { customer_id: party.customerId, order_key: 'updated_at' } }),
    foreign: { kind: 'empty-list', collection: 'recipients' },
    list: { collection: 'recipients' },
  },
  getRecipient: { valid: async ({ party }) => byId(party.recipientId), foreign: forbidden },
  deleteRecipient: { valid: async (context) => byId((await newRecipient(context)).id), foreign: forbidden },
  createWebhook: {
    valid: async () => ({ body: webhookBody() }),
    foreign: { kind: 'not-applicable', why: "creates a webhook of the caller's own" },
  },
  listWebhooks: {
    valid: async () => ({ query: { page_size: '5', order_direction: 'desc' } }),
    // The list takes no filter naming a client's data; the other client's view checks it shows none.
    foreign: {
      kind: 'not-applicable',
      why: "lists the caller's own webhooks; its query names nothing of another client",
    },
    list: { collection: 'webhooks' },
  },
  listAuditEvents: {
    // The events of the party's own webhook: another client asking for them is answered none.
    valid: async ({ party }) => ({ query: { resource_type: 'WEBHOOK', resource_id: party.webhook.id } }),
    foreign: { kind: 'empty-list', collection: 'audit_events' },
    list: { collection: 'audit_events' },
  },
  listEvents: {
    valid: async () => ({ query: { page_size: '5', type: 'payment.outbound.confirmed' } }),
    // The list takes no filter naming a client's data; the other client's view checks it shows none.
    foreign: {
      kind: 'not-applicable',
      why: "lists the caller's own events; its query names nothing of another client",
    },
    list: { collection: 'events' },
  },
  // Another client's event is answered as none (docs/webhooks.md, "Events").
  getEvent: { valid: async (context) => byId(await newestEvent(context)), foreign: { kind: 'not-found' } },
  getWebhook: { valid: async ({ party }) => byId(party.webhook.id), foreign: forbidden },
  updateWebhook: {
    valid: async (context) => ({
      pathParameters: { id: (await newWebhook(context)).id },
      body: { enabled: false, events: ['payment.rejected'], delivery_mode: 'ONCE' },
    }),
    foreign: forbidden,
  },
  deleteWebhook: { valid: async (context) => byId((await newWebhook(context)).id), foreign: forbidden },
  rotateWebhookSecret: { valid: async (context) => byId((await newWebhook(context)).id), foreign: forbidden },
  sendWebhookTest: { valid: async ({ party }) => byId(party.webhook.id), foreign: forbidden },
  listWebhookDeliveries: {
    valid: async ({ party }) => ({ pathParameters: { id: party.webhook.id }, query: { page_size: '5' } }),
    foreign: forbidden,
    list: { collection: 'deliveries' },
  },
  redeliverWebhookDelivery: {
    // A delivery that failed (nothing listens at the sample URL), so it may be sent again.
    valid: async (context) => {
      const webhook = await newWebhook(context);
      return { pathParameters: { id: webhook.id, delivery_id: await failedDelivery(context, webhook.id) } };
    },
    foreign: forbidden,
  },
  paySandboxQrCode: {
    // The party's static code: a shopper may pay it any number of times.
    valid: async ({ party }) => ({
      pathParameters: { id: party.qrCode.id },
      body: { amount: { value: '25.00', currency: 'COP' } },
    }),
    foreign: forbidden,
    convergesOnRetry: SANDBOX_CREDIT_CONVERGES,
  },
  receiveSandboxInboundPayment: {
    valid: async ({ party }) => ({
      body: { key: party.key, amount: { value: '12.00', currency: 'COP' }, description: 'Sample' },
    }),
    foreign: {
      kind: 'not-applicable',
      why: "sandbox operator tool: pays the caller's own merchants' keys only; another client's key is 404 KEY_NOT_FOUND, as an unknown one",
    },
    convergesOnRetry: SANDBOX_CREDIT_CONVERGES,
  },
  getInboundApproval: { valid: withApprovalSettings, foreign: ownSettings },
  putInboundApproval: {
    // Set up first, so that every request measured replaces settings (one client has one).
    valid: async (context) => ({ ...(await withApprovalSettings(context)), body: approvalSettingsBody() }),
    foreign: ownSettings,
  },
  rotateInboundApprovalSecret: { valid: withApprovalSettings, foreign: ownSettings },
  approveSponsorBankMerchant: {
    valid: async () => ({
      body: {
        identification_type: 'NIT',
        identification_number: uniqueNit(),
        business_name: 'Comercio Aprobado SAS',
        accounts: [accountNumbers(1)[0], { number: accountNumbers(1)[0], available_balance: '2500.00' }],
      },
    }),
    status: 201,
    foreign: { kind: 'not-applicable', why: 'sandbox operator tool: approves at the sponsor bank, not per client' },
    convergesOnRetry:
      'sandbox operator tool: the merchant and each account are written on their own (up to 100 accounts, more ' +
      'than one transaction holds); approving again adds what is missing (shared/data/sponsor-bank-repository.ts)',
  },
  addSandboxDirectoryKey: {
    valid: async () => ({
      body: {
        key: { key_type: 'PHONE', key_value: uniquePhone() },
        owner: {
          identification_type: 'CC',
          identification_number: '52123456',
          type: 'PERSON',
          first_name: 'Luis',
          first_last_name: 'Rojas',
        },
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
        account: { account_number: '4009998887', account_type: 'SAVINGS' },
      },
    }),
    status: 201,
    foreign: { kind: 'not-applicable', why: "sandbox operator tool: adds another participant's key" },
    uniqueness: { rule: 'one key value in the Bre-B directory', code: 'KEY_ALREADY_REGISTERED' },
  },
};

export function sampleOf(route: RouteDefinition): RouteSample {
  const sample = ROUTE_SAMPLES[route.name];
  if (!sample) throw new Error(`Route ${route.name} has no entry in test/support/route-samples.ts`);
  return sample;
}

/** The concrete path of a route for the sample's path parameters (its first path). */
export function pathOf(route: RouteDefinition, request: SampleRequest): string {
  return route.paths[0]!.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = request.pathParameters?.[name];
    if (value === undefined) throw new Error(`The sample of ${route.name} has no path parameter ${name}`);
    return encodeURIComponent(value);
  });
}

export const queryOf = (request: SampleRequest): string =>
  request.query && Object.keys(request.query).length ? `?${new URLSearchParams(request.query).toString()}` : '';

/** Sends a sample request of a route with a token (or none), and optional extra headers. */
/** The sample's headers, each replaced by the suite's header of the same name in any letter case. */
function mergedHeaders(
  sample: Readonly<Record<string, string>> = {},
  suite: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const replaced = new Set(Object.keys(suite).map((name) => name.toLowerCase()));
  const kept = Object.entries(sample).filter(([name]) => !replaced.has(name.toLowerCase()));
  return { ...Object.fromEntries(kept), ...suite };
}

export function sendSample(
  api: TestApi,
  route: RouteDefinition,
  request: SampleRequest,
  options: { token?: string; headers?: Record<string, string> } = {},
): Promise<ApiAnswer> {
  return api.request(route.method, `${pathOf(route, request)}${queryOf(request)}`, {
    ...(options.token ? { token: options.token } : {}),
    ...(request.body ? { body: request.body } : {}),
    ...(request.headers || options.headers ? { headers: mergedHeaders(request.headers, options.headers) } : {}),
  });
}

/**
 * A merchant with an account, a key, a resolution, a QR code, a payment, a recipient and a webhook,
 * created by `clientId` through the API.
 */
export async function createParty(api: TestApi, clientId: string): Promise<Party> {
  const token = await api.token(clientId);
  const merchant = await merchantWithKey(api, token);
  const resolution = await expectOk(
    api.request('POST', '/v1/resolve-key', { token, body: { customer_id: merchant.customerId, key: merchant.key } }),
    'resolving a key',
  );
  const qrCode = await expectOk(
    api.request('POST', '/v1/qrcodes', { token, body: qrCodeBody(merchant) }),
    'creating a QR code',
  );
  const payment = await expectOk(
    api.request('POST', '/v1/payments', { token, body: await paymentBody(api, merchant, token) }),
    'paying',
  );
  const recipient = await expectOk(
    api.request('POST', '/v1/recipients', { token, body: recipientBody(merchant, resolution.id) }),
    'saving a recipient',
  );
  const webhook = await expectOk(
    api.request('POST', '/v1/webhooks', { token, body: webhookBody() }),
    'creating a webhook',
  );
  return {
    ...merchant,
    clientId,
    token,
    resolutionId: resolution.id,
    qrCode,
    paymentId: payment.id,
    recipientId: recipient.id,
    webhook: { id: webhook.id, secret: webhook.secret },
  };
}

/**
 * The values of a party that no answer to another client may contain: ids, identification number,
 * business name, account number, key value, QR code reference, webhook and its secret.
 */
export function secretsOf(party: Party): string[] {
  return [
    party.customerId,
    party.nit,
    party.businessName,
    party.accountId,
    party.accountNumber,
    party.keyId,
    party.key.key_value,
    party.resolutionId,
    String(party.qrCode.id),
    String(party.qrCode.qr_code_reference),
    party.paymentId,
    party.recipientId,
    party.webhook.id,
    party.webhook.secret,
  ];
}
