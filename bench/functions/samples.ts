/**
 * One sample request per route of the route table (functions/routes/): what the function benchmark sends to each
 * function, warm and cold. A route without a sample fails the benchmark (`missingSamples`): add one
 * here when adding a route.
 *
 * Every sample takes the success path of its route with the data a real client would send. Writes
 * never repeat: each request has an index unique in the run (`index`), and what a write consumes
 * (an approved NIT, an approved account number, an ACTIVE key...) is made beforehand by `prepare`,
 * through the API, for every request the run will send. `worker` is the connection a warm request
 * goes over (0 to concurrency - 1), or -1 for a cold start; samples that change one item back and
 * forth keep each worker on items of its own, so concurrent requests never race for one item.
 */
import type { RouteDefinition } from '../../functions/routes';
import { colombiaDay } from '../../shared/calendar/colombia-days';
import { SANDBOX_MERCHANT } from '../../infra/local/sandbox-fixtures';
import { Agent } from 'node:http';
import { send, type HttpCall } from './load';

/** The client every sample acts as, and the items made for the samples before the runs. */
export interface Fixtures {
  readonly url: string;
  readonly authorization: string;
  readonly customerId: string;
  readonly accountId: string;
  readonly keyId: string;
  readonly resolutionId: string;
  /** A STATIC QR code of the key, as POST /v1/qrcodes answered it. */
  readonly qrCode: { readonly id: string; readonly qr_code_data: string };
  readonly paymentId: string;
  /** A recipient: the payee of the resolution. */
  readonly recipientId: string;
  /** Items a sample made in `prepare`, by sample name. */
  readonly pools: Map<string, string[]>;
}

/** How many requests a sample serves in the whole benchmark, for `prepare`. */
export interface SamplePlan {
  /** Every request: warm and cold, of every build. */
  readonly requests: number;
  /** Concurrent warm requests at most (the workers of the busiest run). */
  readonly workers: number;
  /** Cold starts among the requests. */
  readonly coldStarts: number;
}

export interface Sample {
  /** The answer's status on the success path. */
  readonly status: number;
  /** The request number `index` (unique per route in the benchmark), sent by `worker` (-1: a cold start). */
  call(fixtures: Fixtures, index: number, worker: number): HttpCall;
  /** Makes what the planned requests consume; the ids it answers are kept in fixtures.pools. */
  prepare?(fixtures: Fixtures, plan: SamplePlan): Promise<string[]>;
}

const LINK_BODY = {
  type: 'BUSINESS',
  business_name: 'Panadería El Trigal SAS',
  email: 'pagos@eltrigal.co',
  mobile_phone_number: '3109876543',
  identification_type: 'NIT',
  address: { line_1: 'Carrera 7 # 12-34', city: 'Medellín', state: 'Antioquia', post_code: '050001', country: 'CO' },
  merchant_category_code: '5462',
} as const;

/** A NIT of the benchmark's own merchants (approved at the sponsor bank by `prepare`). */
const benchNit = (n: number): string => String(700_000_000 + n);
/** An account number approved for linkAccount's merchant by `prepare`. */
const benchAccountNumber = (n: number): string => `5${String(n).padStart(11, '0')}`;
/** An ALPHA key value: '@' and 5 to 20 letters or digits. */
const alphaKey = (prefix: string, n: number): string => `@${prefix}${String(n).padStart(6, '0')}`;
/** A QR code reference (unique per merchant, at most 17 characters). */
const qrReference = (prefix: string, n: number): string => `${prefix}${String(n).padStart(8, '0')}`;
/** The benchmark merchant's key: what inbound payments pay. */
const BENCH_KEY = { key_type: 'ALPHA', key_value: '@benchkey' } as const;

/** Inbound approval set up and off: a payment received is decided at once. */
const APPROVAL_OFF = { callback_url: 'http://127.0.0.1:9/approvals', enabled: false } as const;

/** A key of the sandbox's directory (Ana María, at another participant): what payments pay. */
const SANDBOX_PHONE = { key_type: 'PHONE', key_value: '3001234567' } as const;

const qrCodeBody = (fixtures: Pick<Fixtures, 'keyId' | 'customerId'>, reference: string) => ({
  key_id: fixtures.keyId,
  customer_id: fixtures.customerId,
  type: 'STATIC',
  channel: 'POS',
  qr_code_reference: reference,
});

/** The body of POST /v1/recipients: the payee of the fixtures' resolution. */
const recipientBody = (fixtures: Pick<Fixtures, 'customerId' | 'resolutionId'>) => ({
  customer_id: fixtures.customerId,
  resolution_id: fixtures.resolutionId,
  alias: 'Ana María arriendo',
});

const post = (fixtures: Fixtures, path: string, body: unknown, idempotencyKey?: string): HttpCall => ({
  method: 'POST',
  path,
  body,
  headers: {
    authorization: fixtures.authorization,
    ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
  },
});
const call = (fixtures: Fixtures, method: string, path: string, body?: unknown): HttpCall => ({
  method,
  path,
  headers: { authorization: fixtures.authorization },
  ...(body === undefined ? {} : { body }),
});

/** The request number `index` of a sample consumes the pool's item number `index`. */
function pooled(fixtures: Fixtures, route: string, index: number): string {
  const item = fixtures.pools.get(route)?.[index];
  if (item === undefined) throw new Error(`${route}: no prepared item for request ${index}`);
  return item;
}

/**
 * Runs `count` setup calls, `concurrency` at a time, each expected to answer `status`; answers the
 * bodies.
 */
async function setup(
  fixtures: Fixtures,
  count: number,
  status: number,
  next: (n: number) => HttpCall,
  concurrency = 8,
) {
  const agent = new Agent({ keepAlive: true });
  const bodies: unknown[] = new Array(count);
  let made = 0;
  const worker = async () => {
    while (made < count) {
      const n = made++;
      const sent = next(n);
      let answer = await send(fixtures.url, sent, agent);
      // Setup is not measured: a call DynamoDB Local was too slow for (503) is sent again.
      for (let attempt = 1; answer.status === 503 && attempt < 4; attempt += 1) {
        answer = await send(fixtures.url, sent, agent);
      }
      if (answer.status !== status)
        throw new Error(`setup ${sent.method} ${sent.path}: ${answer.status} ${answer.body}`);
      bodies[n] = JSON.parse(answer.body);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
  } finally {
    agent.destroy();
  }
  return bodies;
}

/** Sets the benchmark client's inbound approval up (off), which reading and rotating it need. */
async function approvalSetUp(fixtures: Fixtures): Promise<string[]> {
  await setup(fixtures, 1, 200, () => call(fixtures, 'PUT', '/v1/settings/inbound-approval', APPROVAL_OFF));
  return [];
}

/**
 * `count` payments of 25.00 the sandbox shopper makes to the benchmark's key (INBOUND, SETTLED at once
 * with approval off): what refunds give back. Answers their ids.
 */
async function receivedPayments(fixtures: Fixtures, prefix: string, count: number): Promise<string[]> {
  await approvalSetUp(fixtures);
  const payments = await setup(fixtures, count, 200, (n) =>
    post(
      fixtures,
      '/sandbox/payments/inbound',
      { key: BENCH_KEY, amount: { value: '25.00', currency: 'COP' } },
      `${prefix}-${n}`,
    ),
  );
  return payments.map((payment) => (payment as { id: string }).id);
}

/** A payments report of today (Colombia): the report the report samples ask for. */
const todaysPaymentsReport = () => {
  const today = colombiaDay(new Date().toISOString());
  return { type: 'payments', created_from: today, created_to: today };
};

/** Approves `count` merchants of the benchmark's own (no accounts) and links each; answers their ids. */
async function linkedCustomers(fixtures: Fixtures, first: number, count: number): Promise<string[]> {
  await setup(fixtures, count, 201, (n) =>
    post(fixtures, '/sandbox/sponsor-bank/merchants', {
      identification_type: 'NIT',
      identification_number: benchNit(first + n),
      business_name: LINK_BODY.business_name,
    }),
  );
  const customers = await setup(fixtures, count, 200, (n) =>
    post(fixtures, '/v1/customers/business/link', { ...LINK_BODY, identification_number: benchNit(first + n) }),
  );
  return customers.map((customer) => (customer as { id: string }).id);
}

/** Registers `count` ALPHA keys on the fixtures' account; answers their ids. */
async function registeredKeys(fixtures: Fixtures, prefix: string, count: number): Promise<string[]> {
  const keys = await setup(fixtures, count, 200, (n) =>
    post(fixtures, '/v1/keys', {
      account_id: fixtures.accountId,
      key: { key_type: 'ALPHA', key_value: alphaKey(prefix, n) },
    }),
  );
  return keys.map((key) => (key as { id: string }).id);
}

/**
 * The benchmark's webhooks: ONCE, to a loopback port nothing listens on (the discard port), so each
 * event they get costs one refused attempt and no retries in the background of the runs.
 */
const WEBHOOK_BODY = { url: 'http://127.0.0.1:9/bench', events: ['webhook.test'], delivery_mode: 'ONCE' };

async function benchWebhooks(fixtures: Fixtures, count: number): Promise<string[]> {
  const webhooks = await setup(fixtures, count, 200, () => post(fixtures, '/v1/webhooks', WEBHOOK_BODY));
  return webhooks.map((webhook) => (webhook as { id: string }).id);
}

/** `count` deliveries that failed (test events to a refusing webhook), as `<webhook id>/<delivery id>`. */
async function failedDeliveries(fixtures: Fixtures, count: number): Promise<string[]> {
  const [webhookId] = await benchWebhooks(fixtures, 1);
  const tests = await setup(fixtures, count, 200, () => post(fixtures, `/v1/webhooks/${webhookId}/test`, undefined));
  const ids = tests.map((test) => (test as { id: string }).id);
  const agent = new Agent({ keepAlive: true });
  try {
    for (const deadline = Date.now() + 120_000; Date.now() < deadline;) {
      const failed = new Set<string>();
      for (let page = 1; ; page += 1) {
        const path = `/v1/webhooks/${webhookId}/deliveries?page_size=100&page_number=${page}`;
        const answer = JSON.parse((await send(fixtures.url, call(fixtures, 'GET', path), agent)).body) as {
          deliveries: { id: string; status: string }[];
          pagination_info: { total_pages: number };
        };
        for (const delivery of answer.deliveries) if (delivery.status === 'FAILED') failed.add(delivery.id);
        if (page >= answer.pagination_info.total_pages) break;
      }
      if (ids.every((id) => failed.has(id))) return ids.map((id) => `${webhookId}/${id}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  } finally {
    agent.destroy();
  }
  throw new Error(`The ${count} test deliveries did not all fail within 120 s`);
}

/** NITs of the merchants linkMerchant links start here; updateCustomer's merchants after them. */
const UPDATE_NITS_FROM = 500_000;
/** The NIT of the merchant linkAccount links accounts to, past updateCustomer's. */
const ACCOUNTS_MERCHANT_NIT = 900_000;

export const samples: Record<string, Sample> = {
  linkMerchant: {
    status: 200,
    call: (fixtures, index) =>
      post(
        fixtures,
        '/v1/customers/business/link',
        { ...LINK_BODY, identification_number: benchNit(index) },
        `link-merchant-${index}`,
      ),
    prepare: async (fixtures, { requests }) => {
      await setup(fixtures, requests, 201, (n) =>
        post(fixtures, '/sandbox/sponsor-bank/merchants', {
          identification_type: 'NIT',
          identification_number: benchNit(n),
          business_name: LINK_BODY.business_name,
        }),
      );
      return [];
    },
  },
  getCustomer: { status: 200, call: (fixtures) => call(fixtures, 'GET', `/v1/customers/${fixtures.customerId}`) },
  listCustomers: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/customers?page_size=10') },
  updateCustomer: togglingCustomers(),
  linkAccount: {
    status: 200,
    call: (fixtures, index) =>
      post(
        fixtures,
        '/v1/accounts',
        { customer_id: fixtures.pools.get('linkAccount')![0]!, type: 'ORDINARY', number: benchAccountNumber(index) },
        `link-account-${index}`,
      ),
    prepare: async (fixtures, { requests }) => {
      // A merchant of the benchmark's own, approved for its client: the sandbox merchant is approved
      // for every client by the bank, and a client may not approve it again (403).
      // The sponsor bank approves at most 100 accounts per call, each written at once: one call at a
      // time, or the calls' hundreds of writes at once outrun the connections DynamoDB Local opens.
      await setup(
        fixtures,
        Math.ceil(requests / 100),
        201,
        (batch) =>
          post(fixtures, '/sandbox/sponsor-bank/merchants', {
            identification_type: 'NIT',
            identification_number: benchNit(ACCOUNTS_MERCHANT_NIT),
            business_name: LINK_BODY.business_name,
            accounts: Array.from({ length: Math.min(100, requests - batch * 100) }, (_, n) =>
              benchAccountNumber(batch * 100 + n),
            ),
          }),
        1,
      );
      const [customer] = await setup(fixtures, 1, 200, () =>
        post(fixtures, '/v1/customers/business/link', {
          ...LINK_BODY,
          identification_number: benchNit(ACCOUNTS_MERCHANT_NIT),
        }),
      );
      return [(customer as { id: string }).id];
    },
  },
  listAccounts: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/accounts?page_size=10') },
  getAccount: { status: 200, call: (fixtures) => call(fixtures, 'GET', `/v1/accounts/${fixtures.accountId}`) },
  listAccountMovements: {
    status: 200,
    call: (fixtures) => call(fixtures, 'GET', `/v1/accounts/${fixtures.accountId}/movements?page_size=10`),
  },
  // Today in Colombia: the latest day a statement is asked for (a day to come is 400).
  getAccountStatement: {
    status: 200,
    call: (fixtures) =>
      call(fixtures, 'GET', `/v1/accounts/${fixtures.accountId}/statements/${colombiaDay(new Date().toISOString())}`),
  },
  registerKey: {
    status: 200,
    call: (fixtures, index) =>
      post(
        fixtures,
        '/v1/keys',
        { account_id: fixtures.accountId, key: { key_type: 'ALPHA', key_value: alphaKey('benchreg', index) } },
        `register-key-${index}`,
      ),
  },
  listKeys: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/keys?page_size=10') },
  getKey: { status: 200, call: (fixtures) => call(fixtures, 'GET', `/v1/keys/${fixtures.keyId}`) },
  deleteKey: {
    status: 200,
    call: (fixtures, index) => call(fixtures, 'DELETE', `/v1/keys/${pooled(fixtures, 'deleteKey', index)}`),
    prepare: (fixtures, { requests }) => registeredKeys(fixtures, 'benchdel', requests),
  },
  suspendKey: {
    status: 200,
    call: (fixtures, index) => call(fixtures, 'PATCH', `/v1/keys/${pooled(fixtures, 'suspendKey', index)}/suspend`),
    prepare: (fixtures, { requests }) => registeredKeys(fixtures, 'benchtog', requests),
  },
  activateKey: {
    status: 200,
    // Activates the keys suspendKey suspended, in the same order (its route runs first).
    call: (fixtures, index) => call(fixtures, 'PATCH', `/v1/keys/${pooled(fixtures, 'suspendKey', index)}/activate`),
  },
  resolveKey: {
    status: 200,
    call: (fixtures, index) =>
      post(
        fixtures,
        '/v1/resolve-key',
        { customer_id: fixtures.customerId, key: { key_value: '+573001234567' } },
        `resolve-key-${index}`,
      ),
  },
  validateKey: {
    status: 200,
    // A read that stores nothing: clients need no Idempotency-Key for it. The sandbox's Ana María owns the key.
    call: (fixtures) =>
      post(fixtures, '/v1/validate-key', {
        key: { key_value: '+573001234567' },
        identification_type: 'CC',
        identification_number: '1020304050',
      }),
  },
  getResolution: {
    status: 200,
    call: (fixtures) => call(fixtures, 'GET', `/v1/resolutions/${fixtures.resolutionId}`),
  },
  createQrCode: {
    status: 200,
    call: (fixtures, index) =>
      post(fixtures, '/v1/qrcodes', qrCodeBody(fixtures, qrReference('BQ', index)), `create-qr-${index}`),
  },
  getQrCode: { status: 200, call: (fixtures) => call(fixtures, 'GET', `/v1/qrcodes/${fixtures.qrCode.id}`) },
  listQrCodes: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/qrcodes?page_size=10') },
  deleteQrCode: {
    status: 200,
    call: (fixtures, index) => call(fixtures, 'DELETE', `/v1/qrcodes/${pooled(fixtures, 'deleteQrCode', index)}`),
    prepare: async (fixtures, { requests }) => {
      const codes = await setup(fixtures, requests, 200, (n) =>
        post(fixtures, '/v1/qrcodes', qrCodeBody(fixtures, qrReference('BD', n))),
      );
      return codes.map((code) => (code as { id: string }).id);
    },
  },
  decodeQrCode: {
    status: 200,
    // Decoding reads a payload and stores nothing: clients need no Idempotency-Key for it.
    call: (fixtures) => post(fixtures, '/v1/qrcodes/decode', { qr_code_data: fixtures.qrCode.qr_code_data }),
  },
  createPayment: {
    status: 200,
    // One payment per resolution: each request pays from a resolution of its own.
    call: (fixtures, index) =>
      post(
        fixtures,
        '/v1/payments',
        {
          customer_id: fixtures.customerId,
          account_id: fixtures.accountId,
          resolution_id: pooled(fixtures, 'createPayment', index),
          amount: { value: '10.00', currency: 'COP' },
        },
        `payment-${index}`,
      ),
    prepare: async (fixtures, { requests }) => {
      const resolutions = await setup(fixtures, requests, 200, () =>
        post(fixtures, '/v1/resolve-key', { customer_id: fixtures.customerId, key: SANDBOX_PHONE }),
      );
      return resolutions.map((resolution) => (resolution as { id: string }).id);
    },
  },
  getPayment: { status: 200, call: (fixtures) => call(fixtures, 'GET', `/v1/payments/${fixtures.paymentId}`) },
  listPayments: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/payments?page_size=10') },
  createRefund: {
    status: 200,
    // One refund per received payment: 1.00 of its 25.00, under a key of its own.
    call: (fixtures, index) =>
      post(
        fixtures,
        `/v1/payments/${pooled(fixtures, 'createRefund', index)}/refunds`,
        { amount: { value: '1.00', currency: 'COP' }, reason: 'Benchmark' },
        `refund-${index}`,
      ),
    prepare: (fixtures, { requests }) => receivedPayments(fixtures, 'refundable', requests),
  },
  getRefund: {
    status: 200,
    call: (fixtures) => call(fixtures, 'GET', `/v1/refunds/${pooled(fixtures, 'getRefund', 0)}`),
    prepare: async (fixtures) => {
      const [paymentId] = await receivedPayments(fixtures, 'refunded', 1);
      const [refund] = await setup(fixtures, 1, 200, () =>
        post(
          fixtures,
          `/v1/payments/${paymentId}/refunds`,
          { amount: { value: '1.00', currency: 'COP' } },
          'refund-read',
        ),
      );
      return [(refund as { id: string }).id];
    },
  },
  listRefunds: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/refunds?page_size=10') },
  // The Overview's read: the tenant's last 30 days.
  getPaymentTotals: {
    status: 200,
    call: (fixtures) => {
      const today = colombiaDay(new Date().toISOString());
      const from = colombiaDay(new Date(Date.now() - 29 * 86_400_000).toISOString());
      return call(fixtures, 'GET', `/v1/payment-totals?from=${from}&to=${today}`);
    },
  },
  getSettlementReconciliation: {
    status: 200,
    call: (fixtures) =>
      call(fixtures, 'GET', `/v1/settlement-reconciliations/${colombiaDay(new Date().toISOString())}`),
  },
  listSettlementBreaks: {
    status: 200,
    call: (fixtures) =>
      call(
        fixtures,
        'GET',
        `/v1/settlement-reconciliations/${colombiaDay(new Date().toISOString())}/breaks?page_size=10`,
      ),
  },
  createReport: {
    status: 200,
    call: (fixtures) => post(fixtures, '/v1/reports', todaysPaymentsReport()),
  },
  getReport: {
    status: 200,
    call: (fixtures) => call(fixtures, 'GET', `/v1/reports/${pooled(fixtures, 'getReport', 0)}`),
    prepare: async (fixtures) => {
      const [report] = await setup(fixtures, 1, 200, () => post(fixtures, '/v1/reports', todaysPaymentsReport()));
      return [(report as { id: string }).id];
    },
  },
  listReports: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/reports?page_size=10') },
  listAuditEvents: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/audit-events?page_size=10') },
  listEvents: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/events?page_size=10') },
  getEvent: {
    status: 200,
    call: (fixtures) => call(fixtures, 'GET', `/v1/events/${pooled(fixtures, 'getEvent', 0)}`),
    // The newest event of the fixtures (their payment's, at least).
    prepare: async (fixtures) => {
      const answer = await send(fixtures.url, call(fixtures, 'GET', '/v1/events?page_size=1'));
      return (JSON.parse(answer.body) as { events: { id: string }[] }).events.map((event) => event.id);
    },
  },
  createRecipient: {
    status: 200,
    call: (fixtures, index) => post(fixtures, '/v1/recipients', recipientBody(fixtures), `recipient-${index}`),
  },
  listRecipients: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/recipients?page_size=10') },
  getRecipient: { status: 200, call: (fixtures) => call(fixtures, 'GET', `/v1/recipients/${fixtures.recipientId}`) },
  deleteRecipient: {
    status: 200,
    call: (fixtures, index) => call(fixtures, 'DELETE', `/v1/recipients/${pooled(fixtures, 'deleteRecipient', index)}`),
    prepare: async (fixtures, { requests }) => {
      const recipients = await setup(fixtures, requests, 200, () =>
        post(fixtures, '/v1/recipients', recipientBody(fixtures)),
      );
      return recipients.map((recipient) => (recipient as { id: string }).id);
    },
  },
  createWebhook: {
    status: 200,
    call: (fixtures, index) => post(fixtures, '/v1/webhooks', WEBHOOK_BODY, `webhook-${index}`),
  },
  listWebhooks: { status: 200, call: (fixtures) => call(fixtures, 'GET', '/v1/webhooks?page_size=10') },
  getWebhook: {
    status: 200,
    call: (fixtures) => call(fixtures, 'GET', `/v1/webhooks/${pooled(fixtures, 'getWebhook', 0)}`),
    prepare: (fixtures) => benchWebhooks(fixtures, 1),
  },
  // A change, a rotation or a deletion of one webhook races another of the same: a webhook per request.
  updateWebhook: {
    status: 200,
    call: (fixtures, index) =>
      call(fixtures, 'PATCH', `/v1/webhooks/${pooled(fixtures, 'updateWebhook', index)}`, { description: 'Bench' }),
    prepare: (fixtures, { requests }) => benchWebhooks(fixtures, requests),
  },
  deleteWebhook: {
    status: 200,
    call: (fixtures, index) => call(fixtures, 'DELETE', `/v1/webhooks/${pooled(fixtures, 'deleteWebhook', index)}`),
    prepare: (fixtures, { requests }) => benchWebhooks(fixtures, requests),
  },
  rotateWebhookSecret: {
    status: 200,
    call: (fixtures, index) =>
      post(fixtures, `/v1/webhooks/${pooled(fixtures, 'rotateWebhookSecret', index)}/rotate-secret`, undefined),
    prepare: (fixtures, { requests }) => benchWebhooks(fixtures, requests),
  },
  sendWebhookTest: {
    status: 200,
    call: (fixtures) => post(fixtures, `/v1/webhooks/${pooled(fixtures, 'sendWebhookTest', 0)}/test`, undefined),
    prepare: (fixtures) => benchWebhooks(fixtures, 1),
  },
  listWebhookDeliveries: {
    status: 200,
    call: (fixtures) =>
      call(fixtures, 'GET', `/v1/webhooks/${pooled(fixtures, 'sendWebhookTest', 0)}/deliveries?page_size=10`),
  },
  redeliverWebhookDelivery: {
    status: 200,
    // A FAILED delivery per request (a redelivered one is PENDING again until its attempt fails).
    call: (fixtures, index) => {
      const [webhookId, deliveryId] = pooled(fixtures, 'redeliverWebhookDelivery', index).split('/');
      return post(fixtures, `/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, undefined);
    },
    prepare: (fixtures, { requests }) => failedDeliveries(fixtures, requests),
  },
  // Approval off (the sample's settings): an inbound payment is one transaction, as a QR payment is.
  receiveSandboxInboundPayment: {
    status: 200,
    call: (fixtures, index) =>
      post(
        fixtures,
        '/sandbox/payments/inbound',
        { key: BENCH_KEY, amount: { value: '25.00', currency: 'COP' } },
        `pay-key-${index}`,
      ),
  },
  getInboundApproval: {
    status: 200,
    call: (fixtures) => call(fixtures, 'GET', '/v1/settings/inbound-approval'),
    prepare: approvalSetUp,
  },
  putInboundApproval: {
    status: 200,
    call: (fixtures) => call(fixtures, 'PUT', '/v1/settings/inbound-approval', APPROVAL_OFF),
  },
  rotateInboundApprovalSecret: {
    status: 200,
    call: (fixtures, index) =>
      post(fixtures, '/v1/settings/inbound-approval/rotate-secret', undefined, `rotate-${index}`),
    prepare: approvalSetUp,
  },
  paySandboxQrCode: {
    status: 200,
    // A shopper may pay a static code any number of times.
    call: (fixtures, index) =>
      post(
        fixtures,
        `/sandbox/qrcodes/${fixtures.qrCode.id}/pay`,
        { amount: { value: '25.00', currency: 'COP' } },
        `pay-qr-${index}`,
      ),
  },
  approveSponsorBankMerchant: {
    status: 201,
    call: (fixtures, index) =>
      post(
        fixtures,
        '/sandbox/sponsor-bank/merchants',
        {
          identification_type: 'NIT',
          identification_number: benchNit(900_000 + index),
          business_name: 'Ferretería Los Andes SAS',
          accounts: [benchAccountNumber(900_000 + index)],
        },
        `approve-${index}`,
      ),
  },
  addSandboxDirectoryKey: {
    status: 201,
    call: (fixtures, index) =>
      post(
        fixtures,
        '/sandbox/directory/keys',
        {
          key: { key_type: 'PHONE', key_value: String(3_100_000_000 + index) },
          owner: {
            identification_type: 'CC',
            identification_number: String(52_000_000 + index),
            type: 'PERSON',
            first_name: 'Luis',
            first_last_name: 'Rojas',
          },
          participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
          account: { account_number: '4009998887', account_type: 'SAVINGS' },
        },
        `directory-key-${index}`,
      ),
  },
};

/**
 * PATCH /v1/customers/{id} changing the status every time: a warm worker turns a customer of its own
 * INACTIVE, then ACTIVE again, and so on; each cold start deactivates a customer of its own.
 */
function togglingCustomers(): Sample {
  const inactive: boolean[] = [];
  let coldStarts = 0;
  let workers = 0;
  return {
    status: 200,
    call: (fixtures, _index, worker) => {
      const customers = fixtures.pools.get('updateCustomer') ?? [];
      if (worker < 0)
        return call(fixtures, 'PATCH', `/v1/customers/${customers[workers + coldStarts++]}`, { status: 'INACTIVE' });
      inactive[worker] = !inactive[worker];
      const status = inactive[worker] ? 'INACTIVE' : 'ACTIVE';
      return call(fixtures, 'PATCH', `/v1/customers/${customers[worker]}`, { status });
    },
    prepare: (fixtures, plan) => {
      workers = plan.workers;
      return linkedCustomers(fixtures, UPDATE_NITS_FROM, plan.workers + plan.coldStarts);
    },
  };
}

/** Routes of the table that have no sample: the benchmark refuses to run without them. */
export function missingSamples(routes: readonly RouteDefinition[]): string[] {
  return routes.filter((route) => !samples[route.name]).map((route) => route.name);
}

/**
 * The client the samples act as (sandbox client A, its token from the token endpoint) and the items
 * the reads read: the sandbox merchant linked, one of its accounts, a key, a resolution, a QR code, a
 * payment, a recipient.
 */
export async function makeFixtures(url: string): Promise<Fixtures> {
  const tokenAnswer = await send(url, {
    method: 'POST',
    path: '/oauth2/token',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('sandbox-client-a:sandbox-secret-a').toString('base64')}`,
    },
    body: 'grant_type=client_credentials',
  });
  if (tokenAnswer.status !== 200) throw new Error(`token: ${tokenAnswer.status} ${tokenAnswer.body}`);
  const partial = {
    url,
    authorization: `Bearer ${(JSON.parse(tokenAnswer.body) as { access_token: string }).access_token}`,
    pools: new Map<string, string[]>(),
  };
  const base: Fixtures = {
    ...partial,
    customerId: '',
    accountId: '',
    keyId: '',
    resolutionId: '',
    qrCode: { id: '', qr_code_data: '' },
    paymentId: '',
    recipientId: '',
  };
  const one = async (sent: HttpCall): Promise<{ id: string } & Record<string, unknown>> => {
    const [body] = await setup(base, 1, 200, () => sent);
    return body as { id: string };
  };
  const customer = await one(
    post(base, '/v1/customers/business/link', {
      ...LINK_BODY,
      business_name: SANDBOX_MERCHANT.business_name,
      identification_number: SANDBOX_MERCHANT.identification_number,
    }),
  );
  const account = await one(
    post(base, '/v1/accounts', { customer_id: customer.id, type: 'ORDINARY', number: SANDBOX_MERCHANT.accounts[0] }),
  );
  const key = await one(post(base, '/v1/keys', { account_id: account.id, key: BENCH_KEY }));
  const resolution = await one(
    post(base, '/v1/resolve-key', { customer_id: customer.id, key: { key_value: '+573001234567' } }),
  );
  const qrCode = await one(
    post(base, '/v1/qrcodes', qrCodeBody({ keyId: key.id, customerId: customer.id }, 'BENCH00000001')),
  );
  const payment = await one(
    post(base, '/v1/payments', {
      customer_id: customer.id,
      account_id: account.id,
      resolution_id: resolution.id,
      amount: { value: '10.00', currency: 'COP' },
    }),
  );
  const recipient = await one(
    post(base, '/v1/recipients', recipientBody({ customerId: customer.id, resolutionId: resolution.id })),
  );
  return {
    ...base,
    customerId: customer.id,
    accountId: account.id,
    keyId: key.id,
    resolutionId: resolution.id,
    qrCode: { id: qrCode.id, qr_code_data: String(qrCode['qr_code_data']) },
    paymentId: payment.id,
    recipientId: recipient.id,
  };
}
