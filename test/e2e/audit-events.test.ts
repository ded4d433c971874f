/**
 * GET /v1/audit-events through the real local server with real tokens: a person's changes to a
 * webhook, the approval settings and a key are listed with the person's `sub` as actor, the action
 * and the non-secret fields before and after (never a secret); a viewer may read them; the list's
 * filters and conventions hold; another tenant sees none of them.
 */
import { merchantWithKey } from '../support/merchants';
import { startTestApi, type TestApi } from '../support/local-api';
import { personToken } from '../support/people';
import { expectProblem } from '../support/problems';

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
  // Each linked to the one before it in the client's hash chain (no other change of this client came between).
  const [, , rotation] = listed.body.audit_events;
  for (const event of listed.body.audit_events) expect(event.hash).toMatch(/^[0-9a-f]{64}$/);
  expect([change.previous_hash, rotation.previous_hash]).toEqual([creation.hash, change.hash]);
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
