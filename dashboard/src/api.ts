/**
 * Every call the dashboard makes to the API, in one place: the pages call these functions and
 * nothing else reaches the network (a generated typed client can replace this module whole). Each
 * call sends the person's access token; a refusal becomes an ApiProblem carrying the API's
 * problem+json (status, code, detail), which the pages show as it is.
 */

export interface Money {
  readonly value: string;
  readonly currency: string;
}

export interface PaginationInfo {
  readonly total_elements: number;
  readonly total_pages: number;
  readonly current_page: number;
  readonly first_request_timestamp: string;
}

/** A list's answer: the page's items under the list's name, and where the page is in the walk. */
export type Page<K extends string, T> = { readonly [name in K]: T[] } & { readonly pagination_info: PaginationInfo };

/** The list conventions every GET list takes, with the list's own filters. */
export interface PageQuery {
  readonly page_number: number;
  readonly page_size: number;
  readonly order_direction?: 'asc' | 'desc';
  /** The walk's snapshot (page 1's first_request_timestamp): pages stay put while items arrive. */
  readonly first_request_timestamp?: string;
  readonly [filter: string]: string | number | undefined;
}

export interface QrCode {
  readonly id: string;
  readonly status: 'ACTIVE' | 'PAID' | 'DELETED';
  readonly type: 'STATIC' | 'DYNAMIC';
  readonly channel: string;
  readonly customer_id: string;
  readonly account_id: string;
  readonly key_id: string;
  readonly key: { readonly key_type: string; readonly key_value: string };
  readonly qr_code_data: string;
  readonly qr_code_reference: string;
  readonly merchant: { readonly merchant_name: string; readonly merchant_city: string };
  readonly amount?: Money;
  readonly tip?: Record<string, string>;
  readonly created_at: string;
  readonly updated_at: string;
  /** GET one and create only: the PNG in Base64. */
  readonly qr_code_image?: string;
}

export interface Payment {
  readonly id: string;
  /** PROCESSING: an inbound payment waiting for the client's approval callback (inbound approval on). */
  readonly status: 'PENDING' | 'PROCESSING' | 'SETTLED' | 'REJECTED';
  readonly direction: 'INBOUND' | 'OUTBOUND';
  readonly customer_id: string;
  readonly account_id: string;
  readonly amount: Money;
  readonly tip?: Money;
  readonly description?: string;
  readonly resolution_id?: string;
  readonly recipient_id?: string;
  readonly qr_code_id?: string;
  readonly qr_code_reference?: string;
  readonly counterparty: {
    readonly key?: { readonly key_type: string; readonly key_value: string };
    readonly owner: Record<string, string | undefined>;
    readonly participant: { readonly name: string; readonly identification_number: string };
    readonly account: { readonly account_number: string; readonly account_type: string };
  };
  readonly rejection_reason?: string;
  /** Inbound payments: how the client's approval decided it (NOT_REQUIRED with approval off). */
  readonly approval?: 'ACCEPTED' | 'REFUSED' | 'AUTO_APPROVED' | 'AUTO_REJECTED' | 'NOT_REQUIRED';
  /** Why the callback decided nothing, for AUTO_APPROVED and AUTO_REJECTED. */
  readonly approval_error?: string;
  readonly created_at: string;
  readonly updated_at: string;
  readonly settled_at?: string;
}

export interface Customer {
  readonly id: string;
  readonly business_name: string;
  readonly identification_type: string;
  readonly identification_number: string;
  readonly status: 'ACTIVE' | 'INACTIVE';
  readonly email: string;
  readonly mobile_phone_number: string;
  readonly merchant_category_code?: string;
  readonly address?: Record<string, string>;
  readonly created_at: string;
}

export interface Account {
  readonly id: string;
  readonly customer_id: string;
  readonly account_number: string;
  readonly account_name: string;
  readonly account_type: string;
  readonly account_status: string;
  readonly available_balance: Money;
  readonly pending_balance: Money;
}

export interface BrebKey {
  readonly id: string;
  readonly status: 'ACTIVE' | 'SUSPENDED' | 'DELETED';
  readonly key: { readonly key_type: string; readonly key_value: string };
  readonly account_id: string;
  readonly customer_id: string;
  readonly display_name: string;
  readonly created_at: string;
}

export interface Webhook {
  readonly id: string;
  readonly url: string;
  readonly events: readonly string[];
  readonly delivery_mode: 'ONCE' | 'RETRY';
  readonly enabled: boolean;
  readonly description?: string;
  readonly created_at: string;
}

export interface Delivery {
  readonly id: string;
  readonly event_id: string;
  readonly event_type: string;
  readonly status: 'PENDING' | 'SUCCEEDED' | 'FAILED';
  readonly attempts: readonly {
    readonly attempted_at: string;
    readonly status_code?: number;
    readonly duration_ms: number;
    readonly error?: string;
  }[];
  readonly next_attempt_at?: string;
  readonly created_at: string;
}

/** What POST /v1/qrcodes takes (the form fills the fields its code type needs). */
export interface NewQrCode {
  readonly customer_id: string;
  readonly key_id: string;
  readonly type: 'STATIC' | 'DYNAMIC';
  readonly channel: string;
  readonly qr_code_reference: string;
  readonly amount?: { readonly value: string; readonly currency: 'COP' };
  readonly vat?: { readonly vat_type: 'FIXED'; readonly vat_value: string; readonly vat_base_value: string };
  readonly inc?: { readonly inc_type: 'FIXED'; readonly inc_value: string };
  readonly additional_info?: { readonly transaction_purpose: string; readonly terminal_label: string };
}

/** A refusal of the API (problem+json, RFC 9457), or of the network on the way. */
export class ApiProblem extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly title: string,
    readonly detail: string,
    readonly errors: readonly { readonly field: string; readonly message: string }[] = [],
  ) {
    super(detail);
  }
}

interface Call {
  readonly query?: Readonly<Record<string, string | number | undefined>>;
  readonly body?: unknown;
  /** POSTs: the same key for a retry of the same action, so it is done once (the API replays). */
  readonly idempotencyKey?: string;
}

export type Api = ReturnType<typeof createApi>;

/** The API at `baseUrl` ('' for the page's own origin), called with the token `token()` answers. */
export function createApi(baseUrl: string, token: () => string) {
  async function call<T>(method: string, path: string, { query, body, idempotencyKey }: Call = {}): Promise<T> {
    const url = new URL(`${baseUrl}${path}`, location.href);
    for (const [name, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== '') url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { authorization: `Bearer ${token()}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (idempotencyKey) headers['idempotency-key'] = idempotencyKey;
    let answer: Response;
    try {
      answer = await fetch(url, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    } catch {
      throw new ApiProblem(0, 'NETWORK', 'No answer', 'The API could not be reached: check the connection and retry.');
    }
    const text = await answer.text();
    const parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    if (!answer.ok) {
      throw new ApiProblem(
        answer.status,
        String(parsed['code'] ?? `HTTP_${answer.status}`),
        String(parsed['title'] ?? answer.statusText),
        String(parsed['detail'] ?? `The API answered ${answer.status}`),
        (parsed['errors'] as ApiProblem['errors'] | undefined) ?? [],
      );
    }
    return parsed as T;
  }

  const list =
    <K extends string, T>(name: K, path: string) =>
    (query: PageQuery): Promise<Page<K, T>> =>
      call<Page<K, T>>('GET', path, { query });

  return {
    listQrCodes: list<'qr_codes', QrCode>('qr_codes', '/v1/qrcodes'),
    getQrCode: (id: string) => call<QrCode>('GET', `/v1/qrcodes/${encodeURIComponent(id)}`),
    createQrCode: (body: NewQrCode, idempotencyKey: string) =>
      call<QrCode>('POST', '/v1/qrcodes', { body, idempotencyKey }),
    deleteQrCode: (id: string) => call<QrCode>('DELETE', `/v1/qrcodes/${encodeURIComponent(id)}`),
    /** The sandbox's shopper at another participant pays the code (`amount` for a code without one). */
    payQrCodeInSandbox: (id: string, amount: string | undefined, idempotencyKey: string) =>
      call<Payment>('POST', `/sandbox/qrcodes/${encodeURIComponent(id)}/pay`, {
        body: amount ? { amount: { value: amount, currency: 'COP' } } : {},
        idempotencyKey,
      }),

    listPayments: list<'payments', Payment>('payments', '/v1/payments'),
    getPayment: (id: string) => call<Payment>('GET', `/v1/payments/${encodeURIComponent(id)}`),

    listCustomers: list<'customers', Customer>('customers', '/v1/customers'),
    getCustomer: (id: string) => call<Customer>('GET', `/v1/customers/${encodeURIComponent(id)}`),
    listAccounts: list<'accounts', Account>('accounts', '/v1/accounts'),

    listKeys: list<'keys', BrebKey>('keys', '/v1/keys'),
    suspendKey: (id: string) => call<BrebKey>('PATCH', `/v1/keys/${encodeURIComponent(id)}/suspend`),
    activateKey: (id: string) => call<BrebKey>('PATCH', `/v1/keys/${encodeURIComponent(id)}/activate`),

    listWebhooks: list<'webhooks', Webhook>('webhooks', '/v1/webhooks'),
    getWebhook: (id: string) => call<Webhook>('GET', `/v1/webhooks/${encodeURIComponent(id)}`),
    setWebhookEnabled: (id: string, enabled: boolean) =>
      call<Webhook>('PATCH', `/v1/webhooks/${encodeURIComponent(id)}`, { body: { enabled } }),
    sendWebhookTest: (id: string, idempotencyKey: string) =>
      call<Delivery>('POST', `/v1/webhooks/${encodeURIComponent(id)}/test`, { idempotencyKey }),
    listWebhookDeliveries: (id: string, query: PageQuery) =>
      call<Page<'deliveries', Delivery>>('GET', `/v1/webhooks/${encodeURIComponent(id)}/deliveries`, { query }),
  };
}
