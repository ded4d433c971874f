/**
 * The rules of inbound approval on in-memory ports: what an approval request carries and how it is
 * signed (checked with the `standardwebhooks` package), which answers are a decision and which fall
 * back to auto_approve_on_error (with the reason recorded), and the settings' secret: made by the
 * first PUT only (also when two first PUTs race), kept by later ones, rotated with the previous one
 * signing 24 hours more.
 */
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  acceptOf,
  APPROVAL_REQUESTED,
  askApproval,
  MAX_APPROVAL_ANSWER_BYTES,
} from '../../shared/domain/approval-request';
import { AppError } from '../../shared/domain/errors';
import {
  approvalSecretOwner,
  putApprovalSettings,
  rotateApprovalSecret,
  type ApprovalSettingsStore,
  type StoredApprovalSettings,
} from '../../shared/domain/inbound-approval';
import { publicPayment, type StoredPayment } from '../../shared/domain/payments';
import { SANDBOX_SHOPPER } from '../../shared/domain/sandbox-inbound';
import type { WebhookRequest, WebhookResponse } from '../../shared/domain/signed-post';
import { randomWebhookSecrets, type WebhookSecret } from '../../shared/domain/webhooks';
import { readableSeal, readableSealer } from '../support/sealer';

// Now: the reference library refuses a signature more than five minutes old.
const NOW = new Date().toISOString();
const clock = { now: () => NOW };
const ids = { newId: () => randomUUID() };
const resolver = {
  resolve: async (host: string) => (host === 'approvals.example.com' ? ['93.184.216.35'] : ['10.0.0.1']),
};
const urls = { urlPolicy: { localReceivers: false }, resolver };

/** client-a's settings, with `secrets` in clear (one new by default), sealed as the store holds them. */
const settings = (
  fields: Partial<Omit<StoredApprovalSettings, 'secrets'>> & { readonly secrets?: readonly WebhookSecret[] } = {},
): StoredApprovalSettings & { readonly clearSecrets: readonly WebhookSecret[] } => {
  const { secrets: clearSecrets = [{ secret: randomWebhookSecrets.newSecret() }], ...rest } = fields;
  const tenant = rest.tenant ?? 'client-a';
  return {
    tenant,
    callback_url: 'https://approvals.example.com/breb',
    enabled: true,
    auto_approve_on_error: false,
    created_at: NOW,
    updated_at: NOW,
    ...rest,
    secrets: readableSeal(clearSecrets, approvalSecretOwner(tenant)),
    clearSecrets,
  };
};

const payment: StoredPayment = {
  id: randomUUID(),
  tenant: 'client-a',
  customer_id: randomUUID(),
  account_id: randomUUID(),
  direction: 'INBOUND',
  status: 'PROCESSING',
  amount_cents: 12_345,
  counterparty: SANDBOX_SHOPPER,
  created_at: NOW,
  updated_at: NOW,
};

/** A transport that answers `response` and keeps what it was asked. */
function transportAnswering(response: Omit<WebhookResponse, 'duration_ms'>) {
  const requests: WebhookRequest[] = [];
  return {
    requests,
    post: async (request: WebhookRequest): Promise<WebhookResponse> => {
      requests.push(request);
      return { duration_ms: 3, ...response };
    },
  };
}

const ask = (response: Omit<WebhookResponse, 'duration_ms'>, of = settings()) => {
  const transport = transportAnswering(response);
  const decision = askApproval(
    { clock, ids, approvalCallback: { transport, urls, timeoutMs: 3_000, sealer: readableSealer } },
    of,
    payment,
  );
  return { transport, decision };
};

describe('an approval request', () => {
  it('carries the PROCESSING payment as GET answers it, signed with every secret that signs now', async () => {
    const previous = randomWebhookSecrets.newSecret();
    const of = settings({
      secrets: [
        { secret: randomWebhookSecrets.newSecret() },
        { secret: previous, expires_at: '2999-01-01T00:00:00.000Z' },
      ],
    });
    const { transport, decision } = ask({ status_code: 200, answer: '{"accept":true}' }, of);
    expect(await decision).toEqual({ approval: 'ACCEPTED' });
    const [request] = transport.requests as [WebhookRequest];
    expect(request.address).toBe('93.184.216.35');
    expect(request.timeoutMs).toBeLessThanOrEqual(3_000);
    expect(request.maxAnswerBytes).toBe(MAX_APPROVAL_ANSWER_BYTES);
    const body = JSON.parse(request.body);
    expect(body).toEqual({
      id: request.headers['webhook-id'],
      type: APPROVAL_REQUESTED,
      created_at: NOW,
      data: publicPayment(payment),
    });
    for (const { secret } of of.clearSecrets) {
      const verified = new Webhook(secret).verify(request.body, {
        ...request.headers,
        'webhook-timestamp': request.headers['webhook-timestamp']!,
      } as Record<string, string>);
      expect(verified).toEqual(body);
    }
  });

  it.each([
    ['{"accept":true}', 'ACCEPTED'],
    ['{"accept":false}', 'REFUSED'],
    ['{"accept":false,"reason":"blocked payer"}', 'REFUSED'],
  ])('answered 200 %s is %s', async (answer, approval) => {
    expect(await ask({ status_code: 200, answer }).decision).toEqual({ approval });
  });

  const MALFORMED = 'Malformed answer: expected {"accept": true} or {"accept": false}';
  it.each([
    ['a timeout', { timedOut: true as const }, 'No answer within 3000 ms'],
    [
      'a refused connection',
      { error: 'Connection refused by approvals.example.com' },
      'Connection refused by approvals.example.com',
    ],
    ['a 500', { status_code: 500, answer: '{"accept":true}' }, 'HTTP 500: not a 2xx answer'],
    ['a redirect', { status_code: 302, answer: '' }, 'HTTP 302: not a 2xx answer'],
    ['a string accept', { status_code: 200, answer: '{"accept":"true"}' }, MALFORMED],
    ['not JSON', { status_code: 200, answer: 'accept' }, MALFORMED],
    ['an empty body', { status_code: 200, answer: '' }, MALFORMED],
  ])('%s is no decision: auto_approve_on_error decides, and the reason is kept', async (_, response, error) => {
    expect(await ask(response).decision).toEqual({ approval: 'AUTO_REJECTED', error });
    expect(await ask(response, settings({ auto_approve_on_error: true })).decision).toEqual({
      approval: 'AUTO_APPROVED',
      error,
    });
  });

  it('is not sent to a callback whose host now resolves to an internal address', async () => {
    const { transport, decision } = ask(
      { status_code: 200, answer: '{"accept":true}' },
      settings({ callback_url: 'https://moved.example.com/x' }),
    );
    expect(await decision).toEqual({
      approval: 'AUTO_REJECTED',
      error: expect.stringMatching(/^Not sent: the URL must not point to a non-public address/),
    });
    expect(transport.requests).toEqual([]);
  });

  it.each([
    ['{"accept":true}', true],
    ['{"accept":false}', false],
    ['null', undefined],
    ['[{"accept":true}]', undefined],
    ['true', undefined],
    ['{"accept":1}', undefined],
    [undefined, undefined],
  ])('acceptOf(%s) is %s', (answer, accept) => {
    expect(acceptOf(answer)).toBe(accept);
  });
});

/**
 * The settings store in memory, with DynamoDB's conditions: insert where none is, replace where one
 * is, update at the version read.
 */
function memorySettings() {
  const items = new Map<string, StoredApprovalSettings>();
  const store: ApprovalSettingsStore = {
    get: async (tenant) => items.get(tenant),
    async insert(settings) {
      if (items.has(settings.tenant)) return false;
      items.set(settings.tenant, settings);
      return true;
    },
    async replace(tenant, changes, now) {
      const current = items.get(tenant);
      if (!current) return undefined;
      const replaced = { ...current, ...changes, updated_at: now };
      items.set(tenant, replaced);
      return replaced;
    },
    async update(seen, changes, now) {
      if (items.get(seen.tenant) !== seen) return undefined;
      const updated = { ...seen, ...changes, updated_at: now };
      items.set(seen.tenant, updated);
      return updated;
    },
  };
  return { items, store };
}

describe('the settings', () => {
  const body = { callback_url: 'https://approvals.example.com/breb', enabled: true };
  const depsOf = (store: ApprovalSettingsStore) => ({
    settings: store,
    secrets: randomWebhookSecrets,
    sealer: readableSealer,
    clock,
    ...urls,
  });
  /** The client's secrets as stored, opened. */
  const storedSecrets = async (store: ApprovalSettingsStore) =>
    readableSealer.open((await store.get('client-a'))!.secrets, approvalSecretOwner('client-a'));

  it('the first PUT makes the secret and answers it; a later PUT keeps it and does not', async () => {
    const { store } = memorySettings();
    const first = await putApprovalSettings(depsOf(store), 'client-a', body);
    expect(first).toEqual({
      ...body,
      auto_approve_on_error: false,
      secret: expect.stringMatching(/^whsec_/),
      created_at: NOW,
      updated_at: NOW,
    });
    const second = await putApprovalSettings(depsOf(store), 'client-a', {
      ...body,
      enabled: false,
      auto_approve_on_error: true,
    });
    expect(second).not.toHaveProperty('secret');
    expect(await storedSecrets(store)).toEqual([{ secret: (first as { secret: string }).secret }]);
  });

  it('of two first PUTs at once, one makes the secret; the other answers without one', async () => {
    const { store } = memorySettings();
    const answers = await Promise.all([
      putApprovalSettings(depsOf(store), 'client-a', body),
      putApprovalSettings(depsOf(store), 'client-a', body),
    ]);
    const withSecret = answers.filter((answer) => 'secret' in answer);
    expect(withSecret).toHaveLength(1);
    expect(await storedSecrets(store)).toEqual([{ secret: (withSecret[0] as { secret: string }).secret }]);
  });

  it('refuses a callback URL of an internal address on callback_url; rotation keeps the previous secret 24 h', async () => {
    const { store } = memorySettings();
    const refused = await putApprovalSettings(depsOf(store), 'client-a', {
      ...body,
      callback_url: 'https://10.1.2.3/x',
    }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(AppError);
    expect((refused as AppError).extensions['errors']).toEqual([
      { field: 'callback_url', message: expect.stringContaining('a non-public address') },
    ]);
    await expect(rotateApprovalSecret(depsOf(store), 'client-a')).rejects.toMatchObject({ code: 'NOT_FOUND' });

    const first = (await putApprovalSettings(depsOf(store), 'client-a', body)) as { secret: string };
    const rotated = await rotateApprovalSecret(depsOf(store), 'client-a');
    expect(rotated.secret).not.toBe(first.secret);
    expect(await storedSecrets(store)).toEqual([
      { secret: rotated.secret },
      { secret: first.secret, expires_at: new Date(Date.parse(NOW) + 24 * 60 * 60 * 1000).toISOString() },
    ]);
  });

  it('concurrent changes are made again on what the others wrote: every PUT and rotation succeeds', async () => {
    const { store } = memorySettings();
    await putApprovalSettings(depsOf(store), 'client-a', body);
    const puts = await Promise.all(
      [true, false, true, false].map((enabled) => putApprovalSettings(depsOf(store), 'client-a', { ...body, enabled })),
    );
    expect(puts.map((put) => put.enabled)).toEqual([true, false, true, false]);
    const rotations = await Promise.all(
      Array.from({ length: 5 }, () => rotateApprovalSecret(depsOf(store), 'client-a')),
    );
    // The current secret and four previous ones: each rotation's secret still signs.
    const stored = (await storedSecrets(store)).map((s) => s.secret);
    expect(stored.sort()).toEqual(rotations.map((r) => r.secret).sort());
  });
});
