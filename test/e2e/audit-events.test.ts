/**
 * GET /v1/audit-events through the real local server with real tokens: a person's changes to a
 * webhook, the approval settings and a key are listed with the person's `sub` as actor, the action
 * and the non-secret fields before and after (never a secret); a viewer may read them; the list's
 * filters and conventions hold; another tenant sees none of them. Every other change a client makes
 * (a merchant and its account linked, a payment, a refund, a recipient, a QR code, a merchant's
 * status, a report asked for and downloaded) is one event with its actor, resource and action, and
 * none of a person's data; a refused change writes none, and a retry under the same Idempotency-Key
 * no second one.
 */
import { randomUUID } from 'node:crypto';
import { SANDBOX_DIRECTORY_KEYS } from '../../infra/local/sandbox-fixtures';
import { setStatus } from '../support/accounts';
import { merchantWithKey, resolvedKey } from '../support/merchants';
import { startTestApi, type TestApi } from '../support/local-api';
import { personToken } from '../support/people';
import { expectProblem } from '../support/problems';
import { finishedReport } from '../support/reports';

let api: TestApi;
let admin: string;
let viewer: string;
let otherTenant: string;

beforeAll(async () => {
  api = await startTestApi();
  admin = await personToken(api.url, 'merchant-admin-a');
  viewer = await personToken(api.url, 'viewer-a');
  otherTenant = await api.token('sandbox-client-b');
});

afterAll(async () => {
  await api.stop();
});

const auditEvents = (token: string, query = '') => api.request('GET', `/v1/audit-events${query}`, { token });

interface ListedEvent {
  readonly id: string;
  readonly hash?: string;
  readonly previous_hash?: string;
}

/**
 * The client's whole trail once every event is linked (the archiver links each from the table's
 * stream moments after its change), checked to be one chain from the genesis value, each event's
 * `previous_hash` the hash of another: its hashes by event id.
 */
async function linkedTrail(token: string): Promise<Map<string, string>> {
  for (let waited = 0; ; waited += 200) {
    const events: ListedEvent[] = [];
    for (let page = 1; ; page += 1) {
      const listed = await auditEvents(token, `?page_size=100&page_number=${page}`);
      events.push(...(listed.body.audit_events as ListedEvent[]));
      if (listed.body.pagination_info.current_page >= listed.body.pagination_info.total_pages) break;
    }
    if (events.every((event) => event.hash) || waited > 20_000) {
      const after = new Map(events.map((event) => [event.previous_hash, event]));
      expect(after.size).toBe(events.length);
      const chain: ListedEvent[] = [];
      for (let next = after.get('0'.repeat(64)); next; next = after.get(next.hash)) chain.push(next);
      expect(chain).toHaveLength(events.length);
      return new Map(chain.map((event) => [event.id, event.hash!]));
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

test("a webhook's changes are listed with the person who made them, before and after, and no secret", async () => {
  const created = await api.request('POST', '/v1/webhooks', {
    token: admin,
    headers: { 'user-agent': 'Mozilla/5.0 (audit e2e)' },
    body: { url: 'http://127.0.0.1:9/hooks', events: ['payment.settled'] },
  });
  expect(created.status).toBe(200);
  const id = created.body.id as string;
  const secret = created.body.secret as string;
  // As CloudFront hands a request on: the viewer's address and port in CloudFront-Viewer-Address.
  const disabled = await api.request('PATCH', `/v1/webhooks/${id}`, {
    token: admin,
    headers: { 'user-agent': 'curl/8.5.0', 'cloudfront-viewer-address': '2001:db8::7:51432' },
    body: { url: 'http://127.0.0.1:10/hooks', enabled: false },
  });
  expect(disabled.status).toBe(200);
  const rotated = await api.request('POST', `/v1/webhooks/${id}/rotate-secret`, { token: admin });
  expect(rotated.status).toBe(200);

  // A viewer may read the activity (breb/audit.read is a read scope).
  const listed = await auditEvents(viewer, `?resource_type=WEBHOOK&resource_id=${id}&order_direction=asc`);
  expect(listed.status).toBe(200);
  expect(
    listed.body.audit_events.map((event: { action: string; actor: string }) => [event.action, event.actor]),
  ).toEqual([
    ['webhook.created', 'merchant-admin-a'],
    ['webhook.updated', 'merchant-admin-a'],
    ['webhook.secret_rotated', 'merchant-admin-a'],
  ]);
  const [creation, change] = listed.body.audit_events;
  // Where each change came from: the connection's address (no edge in front), else the viewer's.
  expect(creation).toMatchObject({ user_agent: 'Mozilla/5.0 (audit e2e)' });
  expect(['127.0.0.1', '::1', '::ffff:127.0.0.1']).toContain(creation.ip_address);
  expect(change).toMatchObject({ ip_address: '2001:db8::7', user_agent: 'curl/8.5.0' });
  expect(change).toMatchObject({
    resource_type: 'WEBHOOK',
    resource_id: id,
    before: { url: 'http://127.0.0.1:9/hooks', enabled: true },
    after: { url: 'http://127.0.0.1:10/hooks', enabled: false },
  });
  // The request that made it, as its answer named it.
  expect(change.request_id).toBe(disabled.headers.get('x-request-id'));
  // Each linked in the client's hash chain moments after its change: the whole trail one line.
  const chained = await linkedTrail(admin);
  for (const event of listed.body.audit_events) expect(chained.get(event.id)).toMatch(/^[0-9a-f]{64}$/);
  expect(listed.text).not.toContain(secret);
  expect(listed.text).not.toContain(rotated.body.secret);
  expect(listed.body.pagination_info).toMatchObject({ total_elements: 3, current_page: 1 });

  // The action filter, and another tenant's view: nothing of these.
  const rotations = await auditEvents(admin, `?action=webhook.secret_rotated&resource_id=${id}`);
  expect(rotations.body.audit_events.map((event: { action: string }) => event.action)).toEqual([
    'webhook.secret_rotated',
  ]);
  // The actor filter: the person's own changes, and none of somebody else's.
  const own = await auditEvents(viewer, `?actor=merchant-admin-a&resource_type=WEBHOOK&resource_id=${id}`);
  expect(own.body.audit_events).toHaveLength(3);
  const others = await auditEvents(viewer, `?actor=sandbox-client-a&resource_type=WEBHOOK&resource_id=${id}`);
  expect([others.status, others.body.audit_events]).toEqual([200, []]);

  const foreign = await auditEvents(otherTenant, `?resource_type=WEBHOOK&resource_id=${id}`);
  expect([foreign.status, foreign.body.audit_events]).toEqual([200, []]);
  expect((await auditEvents(otherTenant)).text).not.toContain(id);
});

test("the approval settings' auto_approve_on_error and a key's suspension are attributed too", async () => {
  const machine = await api.token('sandbox-client-a');
  const put = (auto: boolean) =>
    api.request('PUT', '/v1/settings/inbound-approval', {
      token: admin,
      body: { callback_url: 'http://127.0.0.1:9/approve', enabled: true, auto_approve_on_error: auto },
    });
  expect((await put(false)).status).toBe(200);
  expect((await put(true)).status).toBe(200);
  const approvals = await auditEvents(viewer, '?resource_type=INBOUND_APPROVAL&order_direction=asc');
  const last = approvals.body.audit_events.at(-1);
  expect(last).toMatchObject({
    action: 'inbound_approval.updated',
    actor: 'merchant-admin-a',
    before: { auto_approve_on_error: false },
    after: { auto_approve_on_error: true },
  });
  expect(JSON.stringify(approvals.body)).not.toMatch(/secret/);

  // A machine client's change: the client is the actor.
  const merchant = await merchantWithKey(api, machine);
  expect((await api.request('PATCH', `/v1/keys/${merchant.keyId}/suspend`, { token: machine })).status).toBe(200);
  const keyEvents = await auditEvents(viewer, `?resource_type=KEY&resource_id=${merchant.keyId}&order_direction=asc`);
  expect(
    keyEvents.body.audit_events.map((event: { action: string; actor: string }) => [event.action, event.actor]),
  ).toEqual([
    ['key.registered', 'sandbox-client-a'],
    ['key.suspended', 'sandbox-client-a'],
  ]);
  expect(keyEvents.body.audit_events[1]).toMatchObject({
    before: { status: 'ACTIVE' },
    after: { status: 'SUSPENDED' },
  });
});

test('the list refuses what is not a filter of its own, and a token without breb/audit.read', async () => {
  expectProblem(await auditEvents(admin, '?action=webhook.renamed'), 400, 'VALIDATION_FAILED');
  const withoutScope = await api.token('sandbox-client-a', 'breb/webhooks.read');
  expectProblem(await auditEvents(withoutScope), 403, 'INSUFFICIENT_SCOPE');
});

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory): a person, the payee. */
const ANA = SANDBOX_DIRECTORY_KEYS.find((entry) => entry.key.key_type === 'PHONE')!;
const cop = (value: string) => ({ value, currency: 'COP' });

type Listed = Record<string, any>;

/** One resource's events, oldest first, as a viewer of the tenant reads them. */
async function trailOf(resourceType: string, id: string): Promise<Listed[]> {
  const listed = await auditEvents(viewer, `?resource_type=${resourceType}&resource_id=${id}&order_direction=asc`);
  expect(listed.status).toBe(200);
  return listed.body.audit_events;
}

const whoDidWhat = (events: readonly Listed[]) => events.map((event) => [event.action, event.actor]);

/** The tenant's events of one action whose `after` has `field` equal to `value` (read from the table). */
async function storedEvents(action: string, field: string, value: string): Promise<Listed[]> {
  return (await api.scan()).filter(
    (item) =>
      item['entity'] === 'AUDIT_EVENT' && item['action'] === action && (item['after'] as Listed)?.[field] === value,
  );
}

test("a client's every change is one event, with its actor, resource and action, and none of a person's data", async () => {
  const machine = await api.token('sandbox-client-a');
  const merchant = await merchantWithKey(api, machine, { availableBalance: '500.00' });

  // The merchant and its account, linked by the machine client: no NIT, no account number kept.
  const customerTrail = await trailOf('CUSTOMER', merchant.customerId);
  expect(whoDidWhat(customerTrail)).toEqual([['customer.linked', 'sandbox-client-a']]);
  expect(customerTrail[0]!.after).toMatchObject({ status: 'ACTIVE' });
  const accountTrail = await trailOf('ACCOUNT', merchant.accountId);
  expect(whoDidWhat(accountTrail)).toEqual([['account.linked', 'sandbox-client-a']]);
  expect(accountTrail[0]!.after).toMatchObject({ customer_id: merchant.customerId });
  expect(JSON.stringify([customerTrail, accountTrail])).not.toMatch(
    new RegExp(`${merchant.nit}|${merchant.accountNumber}|${merchant.businessName}`),
  );

  // A person pays Ana María: the payment is audited, its payee (her name, document, account) is not.
  const payment = await api.request('POST', '/v1/payments', {
    token: admin,
    headers: { 'Idempotency-Key': randomUUID() },
    body: {
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      resolution_id: await resolvedKey(api, admin, merchant.customerId, ANA.key),
      amount: cop('25.00'),
    },
  });
  expect(payment.status).toBe(200);
  const paymentTrail = await trailOf('PAYMENT', payment.body.id);
  expect(whoDidWhat(paymentTrail)).toEqual([['payment.created', 'merchant-admin-a']]);
  expect(paymentTrail[0]).toMatchObject({
    resource_id: payment.body.id,
    after: { status: 'PENDING', direction: 'OUTBOUND', account_id: merchant.accountId, amount_cents: 2500 },
    request_id: payment.headers.get('x-request-id'),
  });
  const owner = ANA.owner as Listed;
  expect(JSON.stringify(paymentTrail)).not.toMatch(
    new RegExp(`${owner['identification_number']}|${ANA.account.account_number}|${ANA.key.key_value}`),
  );

  // A recipient saved, then deleted.
  const recipient = await api.request('POST', '/v1/recipients', {
    token: admin,
    body: {
      customer_id: merchant.customerId,
      resolution_id: await resolvedKey(api, admin, merchant.customerId, ANA.key),
      alias: 'Ana arriendo',
    },
  });
  expect(recipient.status).toBe(200);
  expect((await api.request('DELETE', `/v1/recipients/${recipient.body.id}`, { token: admin })).status).toBe(200);
  const recipientTrail = await trailOf('RECIPIENT', recipient.body.id);
  expect(whoDidWhat(recipientTrail)).toEqual([
    ['recipient.created', 'merchant-admin-a'],
    ['recipient.deleted', 'merchant-admin-a'],
  ]);
  expect(recipientTrail[1]).toMatchObject({ before: { customer_id: merchant.customerId } });
  expect(recipientTrail[1]).not.toHaveProperty('after');
  expect(JSON.stringify(recipientTrail)).not.toMatch(/Ana|3001234567/);

  // A QR code made, then deleted.
  const code = await api.request('POST', '/v1/qrcodes', {
    token: admin,
    body: {
      key_id: merchant.keyId,
      customer_id: merchant.customerId,
      type: 'STATIC',
      channel: 'POS',
      qr_code_reference: `AUD${process.pid % 100000}`,
    },
  });
  expect(code.status).toBe(200);
  expect((await api.request('DELETE', `/v1/qrcodes/${code.body.id}`, { token: admin })).status).toBe(200);
  const codeTrail = await trailOf('QR_CODE', code.body.id);
  expect(whoDidWhat(codeTrail)).toEqual([
    ['qr_code.created', 'merchant-admin-a'],
    ['qr_code.deleted', 'merchant-admin-a'],
  ]);
  expect(codeTrail[1]).toMatchObject({ before: { status: 'ACTIVE' }, after: { status: 'DELETED' } });

  // A payment received (the network's doing, here the sandbox's) is not the client's change; its refund is.
  const received = await api.request('POST', '/sandbox/payments/inbound', {
    token: machine,
    body: { key: merchant.key, amount: cop('100.00') },
  });
  expect([received.status, received.body.status]).toEqual([200, 'SETTLED']);
  expect(await trailOf('PAYMENT', received.body.id)).toEqual([]);
  const refund = await api.request('POST', `/v1/payments/${received.body.id}/refunds`, {
    token: admin,
    headers: { 'Idempotency-Key': randomUUID() },
    body: { amount: cop('60.00'), reason: 'Producto devuelto por Ana' },
  });
  expect(refund.status).toBe(200);
  const refundTrail = await trailOf('REFUND', refund.body.id);
  expect(whoDidWhat(refundTrail)).toEqual([['refund.created', 'merchant-admin-a']]);
  expect(refundTrail[0]!.after).toMatchObject({ payment_id: received.body.id, amount_cents: 6000, status: 'PENDING' });
  expect(JSON.stringify(refundTrail)).not.toContain('Producto devuelto');

  // A report asked for, then downloaded: a read that is audited, once per URL handed out.
  const asked = await api.request('POST', '/v1/reports', {
    token: admin,
    body: { type: 'payments', customer_id: merchant.customerId, created_from: today(), created_to: today() },
  });
  expect(asked.status).toBe(200);
  const finished = await finishedReport(api, admin, asked.body.id);
  expect(finished.body.download_url).toEqual(expect.any(String));
  expect(whoDidWhat(await trailOf('REPORT', asked.body.id))).toEqual([
    ['report.created', 'merchant-admin-a'],
    ['report.downloaded', 'merchant-admin-a'],
  ]);
  // A second read hands out a second URL: a second download.
  expect((await api.request('GET', `/v1/reports/${asked.body.id}`, { token: admin })).status).toBe(200);
  expect((await trailOf('REPORT', asked.body.id)).map((event) => event.action)).toEqual([
    'report.created',
    'report.downloaded',
    'report.downloaded',
  ]);

  // The merchant deactivated and activated again: each its event, with the status before and after.
  expect((await setStatus(api, admin, merchant.customerId, 'INACTIVE')).status).toBe(200);
  expect((await setStatus(api, admin, merchant.customerId, 'ACTIVE')).status).toBe(200);
  const statusTrail = (await trailOf('CUSTOMER', merchant.customerId)).slice(1);
  expect(whoDidWhat(statusTrail)).toEqual([
    ['customer.deactivated', 'merchant-admin-a'],
    ['customer.activated', 'merchant-admin-a'],
  ]);
  expect(statusTrail[0]).toMatchObject({ before: { status: 'ACTIVE' }, after: { status: 'INACTIVE' } });
  // Setting the status it has changes nothing, and writes nothing.
  expect((await setStatus(api, admin, merchant.customerId, 'ACTIVE')).status).toBe(200);
  expect(await trailOf('CUSTOMER', merchant.customerId)).toHaveLength(3);
});

test('a refused change writes no event, and a retry under the same Idempotency-Key no second one', async () => {
  const machine = await api.token('sandbox-client-a');
  const merchant = await merchantWithKey(api, machine, { availableBalance: '500.00' });

  // A payment sent twice under one key: one payment, one event.
  const key = randomUUID();
  const resolutionId = await resolvedKey(api, admin, merchant.customerId, ANA.key);
  const pay = () =>
    api.request('POST', '/v1/payments', {
      token: admin,
      headers: { 'Idempotency-Key': key },
      body: {
        customer_id: merchant.customerId,
        account_id: merchant.accountId,
        resolution_id: resolutionId,
        amount: cop('10.00'),
      },
    });
  const first = await pay();
  const again = await pay();
  expect([first.status, again.status, again.body.id]).toEqual([200, 200, first.body.id]);
  expect(whoDidWhat(await trailOf('PAYMENT', first.body.id))).toEqual([['payment.created', 'merchant-admin-a']]);

  // A refund over what is left of its payment is refused: no event; nor its retry's.
  const received = await api.request('POST', '/sandbox/payments/inbound', {
    token: machine,
    body: { key: merchant.key, amount: cop('50.00') },
  });
  expect(received.status).toBe(200);
  const refundKey = randomUUID();
  const refund = (value: string, idempotencyKey = randomUUID()) =>
    api.request('POST', `/v1/payments/${received.body.id}/refunds`, {
      token: admin,
      headers: { 'Idempotency-Key': idempotencyKey },
      body: { amount: cop(value) },
    });
  expect((await refund('40.00', refundKey)).status).toBe(200);
  expect((await refund('40.00', refundKey)).status).toBe(200);
  expectProblem(await refund('20.00'), 409, 'REFUND_EXCEEDS_REMAINING');
  expect(await storedEvents('refund.created', 'payment_id', received.body.id)).toHaveLength(1);

  // A QR code whose reference the merchant used already, an account number linked already: refused,
  // neither recorded.
  const codeBody = {
    key_id: merchant.keyId,
    customer_id: merchant.customerId,
    type: 'STATIC',
    channel: 'POS',
    qr_code_reference: `DUX${process.pid % 100000}`,
  };
  expect((await api.request('POST', '/v1/qrcodes', { token: admin, body: codeBody })).status).toBe(200);
  expect((await api.request('POST', '/v1/qrcodes', { token: admin, body: codeBody })).status).toBe(409);
  expect(await storedEvents('qr_code.created', 'key_id', merchant.keyId)).toHaveLength(1);
  const relinked = await api.request('POST', '/v1/accounts', {
    token: admin,
    body: { customer_id: merchant.customerId, type: 'ORDINARY', number: merchant.accountNumber },
  });
  expect(relinked.status).toBe(409);
  expect(await storedEvents('account.linked', 'customer_id', merchant.customerId)).toHaveLength(1);
});

/** Today's date in UTC, as a report's period takes it. */
const today = (): string => new Date().toISOString().slice(0, 10);
