/**
 * Every call the dashboard makes to the API, in one place: the pages call these functions and
 * nothing else reaches the network. Paths, parameters, bodies and answers are typed by the API's
 * contract (openapi-fetch over the types `npm run generate` writes from the OpenAPI document), so a
 * change of the contract that breaks a page fails `npm run typecheck`. Each call sends the person's
 * access token; a refusal becomes an ApiProblem carrying the API's problem+json (status, code,
 * detail), which the pages show as it is.
 */
import createClient from 'openapi-fetch';
import type { components, operations, paths } from '../../shared/schemas/generated/openapi-types';
import { t } from './i18n';

type Schemas = components['schemas'];
export type Money = Schemas['Money'];
export type PaginationInfo = Schemas['PaginationInfo'];
export type QrCode = Schemas['QrCode'];
/** GET one and create: the code with its PNG in Base64. */
export type QrCodeWithImage = Schemas['QrCodeWithImage'];
export type CreateQrCodeRequest = Schemas['CreateQrCodeRequest'];
export type Payment = Schemas['Payment'];
export type PaymentTotals = Schemas['PaymentTotals'];
export type Refund = Schemas['Refund'];
export type Customer = Schemas['Customer'];
/** An account as the list of accounts answers it: with its merchant's name. */
export type Account = Schemas['AccountListItem'];
/** One account as GET /v1/accounts/{id} answers it. */
export type AccountDetail = Schemas['Account'];
/** One change of an account's available balance, with its signed amount and what caused it. */
export type Movement = Schemas['Movement'];
/** A Bogotá day of an account: opening + credits - debits = closing. */
export type Statement = Schemas['Statement'];
export type BrebKey = Schemas['Key'];
export type Webhook = Schemas['Webhook'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type LinkMerchantRequest = Schemas['LinkMerchantRequest'];
export type RegisterKeyRequest = Schemas['RegisterKeyRequest'];
export type CreateWebhookRequest = Schemas['CreateWebhookRequest'];
export type AuditEvent = Schemas['AuditEvent'];
/** A report run: a list over a period written as a CSV file, downloaded once SUCCEEDED. */
export type Report = Schemas['Report'];
export type CreateReportRequest = Schemas['CreateReportRequest'];
/** A Bogotá day matched against the sponsor bank's settlement file, for the tenant's accounts. */
export type SettlementReconciliation = Schemas['SettlementReconciliation'];
/** A movement the bank and we do not agree on. */
export type SettlementBreak = Schemas['SettlementBreak'];

/** A list's answer: the page's items under the list's name, and where the page is in the walk. */
export type Page<K extends string, T> = { readonly [name in K]: T[] } & { readonly pagination_info: PaginationInfo };

/** The query a list operation takes: the list conventions every list shares, and its own filters. */
export type ListQuery<O extends keyof operations> = NonNullable<operations[O]['parameters']['query']>;

/** The list conventions: which page, how long, in which order, and the walk's snapshot. */
export type PageQuery = Pick<
  ListQuery<'listQrCodes'>,
  'page_number' | 'page_size' | 'order_direction' | 'first_request_timestamp'
>;

/** A refusal of the API (problem+json, RFC 9457), or of the network on the way. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors: readonly Schemas['FieldError'][] = [],
  ) {
    super(detail);
  }
}

/**
 * A refusal's ApiProblem. The body is the API's problem+json, or not: a gateway or a proxy on the
 * way may answer in text or nothing (openapi-fetch hands over the text, or undefined), and the
 * status still says what happened.
 */
function problemOf(response: Response, body: unknown): ApiProblem {
  const problem: Partial<Schemas['Problem']> = typeof body === 'object' && body !== null ? body : {};
  return new ApiProblem(
    response.status,
    problem.code ?? `HTTP_${response.status}`,
    problem.title ?? response.statusText,
    problem.detail ?? `The API answered ${response.status}`,
    problem.errors ?? [],
  );
}

/** The answer of a call that succeeded; the refusal as an ApiProblem otherwise. */
async function answerOf<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw problemOf(response, error);
  // Every operation the dashboard calls answers a JSON body when it succeeds.
  return data as T;
}

/** Makes the POST safe to retry: the same key for a retry of the same action, so it is done once. */
const once = (idempotencyKey: string) => ({ 'Idempotency-Key': idempotencyKey });

export type Api = ReturnType<typeof createApi>;

/** How many times a call the API refused for the person's rate (429) is sent again. */
const RATE_LIMIT_RETRIES = 4;
/** The longest wait before one of them, whatever Retry-After asks. */
const RATE_LIMIT_WAIT_MS = 5_000;

/**
 * fetch that waits out a refusal for the rate (docs/dashboard.md, "Waiting politely"): a person's
 * budget refills within a second or two, so a 429 is waited for, as its Retry-After says, and the
 * call sent again, without a word; only past the retries does the page say it. A 429 did nothing, so
 * sending the call again is safe (a POST's Idempotency-Key goes with it).
 */
async function patientFetch(request: Request): Promise<Response> {
  // The body read once and sent whole each time: a clone's would go as a stream, which a browser's
  // tools (and a test reading the request) cannot see.
  const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.arrayBuffer();
  for (let retry = 0; ; retry += 1) {
    const response = await fetch(new Request(request, { body }));
    if (response.status !== 429 || retry >= RATE_LIMIT_RETRIES) return response;
    const seconds = Number(response.headers.get('retry-after'));
    const waitMs = Math.min(RATE_LIMIT_WAIT_MS, (Number.isFinite(seconds) && seconds > 0 ? seconds : 1) * 1000);
    // A little jitter, so that a page's calls refused together do not all come back at once.
    await new Promise((resolve) => setTimeout(resolve, waitMs + Math.random() * 250));
  }
}

/** The API at `baseUrl` ('' for the page's own origin), called with the token `token()` answers. */
export function createApi(baseUrl: string, token: () => string) {
  const client = createClient<paths>({ baseUrl, fetch: patientFetch });
  client.use({
    // The token of the moment: a new sign-in replaces it without a new client.
    onRequest: ({ request }) => {
      request.headers.set('authorization', `Bearer ${token()}`);
    },
    // fetch throws only when no answer came (offline, DNS, CORS): the pages show it as any refusal.
    onError: () => new ApiProblem(0, 'NETWORK', t('problem.noAnswer'), t('problem.noAnswerDetail')),
  });
  const { GET, POST, PATCH, DELETE } = client;
  const byId = (id: string) => ({ params: { path: { id } } });

  return {
    listQrCodes: (query: ListQuery<'listQrCodes'>) => answerOf(GET('/v1/qrcodes', { params: { query } })),
    getQrCode: (id: string) => answerOf(GET('/v1/qrcodes/{id}', byId(id))),
    createQrCode: (body: CreateQrCodeRequest, idempotencyKey: string) =>
      answerOf(POST('/v1/qrcodes', { body, params: { header: once(idempotencyKey) } })),
    deleteQrCode: (id: string) => answerOf(DELETE('/v1/qrcodes/{id}', byId(id))),
    /** The sandbox's shopper at another participant pays the code (`amount` for a code without one). */
    payQrCodeInSandbox: (id: string, amount: string | undefined, idempotencyKey: string) =>
      answerOf(
        POST('/sandbox/qrcodes/{id}/pay', {
          params: { path: { id }, header: once(idempotencyKey) },
          body: amount ? { amount: { value: amount, currency: 'COP' } } : {},
        }),
      ),

    listPayments: (query: ListQuery<'listPayments'>) => answerOf(GET('/v1/payments', { params: { query } })),
    /** `from` and `to`: calendar days of Bogotá, YYYY-MM-DD, at most 92 of them. */
    getPaymentTotals: (query: ListQuery<'getPaymentTotals'>) =>
      answerOf(GET('/v1/payment-totals', { params: { query } })),
    getPayment: (id: string) => answerOf(GET('/v1/payments/{id}', byId(id))),
    listRefunds: (query: ListQuery<'listRefunds'>) => answerOf(GET('/v1/refunds', { params: { query } })),
    /** Gives the payer `amount` back (the whole remainder when undefined). */
    refundPayment: (paymentId: string, amount: string | undefined, idempotencyKey: string) =>
      answerOf(
        POST('/v1/payments/{id}/refunds', {
          params: { path: { id: paymentId }, header: once(idempotencyKey) },
          body: amount ? { amount: { value: amount, currency: 'COP' } } : {},
        }),
      ),

    linkMerchant: (body: LinkMerchantRequest, idempotencyKey: string) =>
      answerOf(POST('/v1/customers/business/link', { body, params: { header: once(idempotencyKey) } })),
    linkAccount: (customerId: string, number: string, idempotencyKey: string) =>
      answerOf(
        POST('/v1/accounts', {
          body: { customer_id: customerId, type: 'ORDINARY', number },
          params: { header: once(idempotencyKey) },
        }),
      ),
    registerKey: (body: RegisterKeyRequest, idempotencyKey: string) =>
      answerOf(POST('/v1/keys', { body, params: { header: once(idempotencyKey) } })),
    createWebhook: (body: CreateWebhookRequest, idempotencyKey: string) =>
      answerOf(POST('/v1/webhooks', { body, params: { header: once(idempotencyKey) } })),

    listCustomers: (query: ListQuery<'listCustomers'>) => answerOf(GET('/v1/customers', { params: { query } })),
    getCustomer: (id: string) => answerOf(GET('/v1/customers/{id}', byId(id))),
    listAccounts: (query: ListQuery<'listAccounts'>) => answerOf(GET('/v1/accounts', { params: { query } })),
    getAccount: (id: string) => answerOf(GET('/v1/accounts/{id}', byId(id))),
    listAccountMovements: (id: string, query: ListQuery<'listAccountMovements'>) =>
      answerOf(GET('/v1/accounts/{id}/movements', { params: { path: { id }, query } })),
    /** `date`: a calendar day of Bogotá, YYYY-MM-DD. */
    getAccountStatement: (id: string, date: string) =>
      answerOf(GET('/v1/accounts/{id}/statements/{date}', { params: { path: { id, date } } })),

    /** `date`: a calendar day of Bogotá, YYYY-MM-DD. */
    getSettlementReconciliation: (date: string) =>
      answerOf(GET('/v1/settlement-reconciliations/{date}', { params: { path: { date } } })),
    listSettlementBreaks: (date: string, query: ListQuery<'listSettlementBreaks'>) =>
      answerOf(GET('/v1/settlement-reconciliations/{date}/breaks', { params: { path: { date }, query } })),

    listKeys: (query: ListQuery<'listKeys'>) => answerOf(GET('/v1/keys', { params: { query } })),
    suspendKey: (id: string) => answerOf(PATCH('/v1/keys/{id}/suspend', byId(id))),
    activateKey: (id: string) => answerOf(PATCH('/v1/keys/{id}/activate', byId(id))),

    listWebhooks: (query: ListQuery<'listWebhooks'>) => answerOf(GET('/v1/webhooks', { params: { query } })),
    getWebhook: (id: string) => answerOf(GET('/v1/webhooks/{id}', byId(id))),
    setWebhookEnabled: (id: string, enabled: boolean) =>
      answerOf(PATCH('/v1/webhooks/{id}', { ...byId(id), body: { enabled } })),
    sendWebhookTest: (id: string, idempotencyKey: string) =>
      answerOf(POST('/v1/webhooks/{id}/test', { params: { path: { id }, header: once(idempotencyKey) } })),
    listWebhookDeliveries: (id: string, query: ListQuery<'listWebhookDeliveries'>) =>
      answerOf(GET('/v1/webhooks/{id}/deliveries', { params: { path: { id }, query } })),

    createReport: (body: CreateReportRequest, idempotencyKey: string) =>
      answerOf(POST('/v1/reports', { body, params: { header: once(idempotencyKey) } })),
    getReport: (id: string) => answerOf(GET('/v1/reports/{id}', byId(id))),

    listAuditEvents: (query: ListQuery<'listAuditEvents'>) => answerOf(GET('/v1/audit-events', { params: { query } })),
  };
}
