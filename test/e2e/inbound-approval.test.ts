/**
 * Inbound approval through the local server with real tokens: a client's callback (a real HTTP
 * receiver on loopback, verifying each request's signature with the `standardwebhooks` package)
 * accepts, refuses, answers late (past the 3 s default), answers 500 or answers garbage, with and
 * without auto_approve_on_error. For each case: the payment's final status, the recorded decision,
 * and the merchant's balance, credited only when the payment is SETTLED.
 */
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import { SETTLEMENT_AFTER_THE_TESTS } from '../support/settlement';
import { WebhookReceiver, type Answer, type Received } from '../support/webhook-receiver';

const SETTINGS = '/v1/settings/inbound-approval';
const CALLBACK = '/approvals';

let api: TestApi;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;
let readonly: string;
let merchant: MerchantWithKey;

/**
 * DynamoDB Local runs one transaction at a time (some 45 ms each here), and an inbound payment makes
 * several: of 25 payments racing to one merchant, the last waited past the deployed 10 s route
 * timeout, then past 15 s and 30 s DynamoDB attempts, whenever CI's other worker kept the two cores
 * busy (a 503 each). 12 racers still meet on the merchant's balance, its day's credit total and its
 * lists; the race shows each decided once, not speed: an attempt gets 30 s, a route 60 s.
 */
const RACERS = 12;
const DYNAMODB_ATTEMPT_MS = 30_000;
const ROUTE_TIMEOUT_MS = 60_000;
const RACE_TIMEOUT_MS = 150_000;

beforeAll(async () => {
  // The default APPROVAL_TIMEOUT_MS (3000): the late callback answers past it.
  api = await startTestApi({
    sandboxSettlementDelayMs: SETTLEMENT_AFTER_THE_TESTS,
    routeTimeoutMs: ROUTE_TIMEOUT_MS,
    dynamodbRequestTimeoutMs: DYNAMODB_ATTEMPT_MS,
  });
  receiver = await WebhookReceiver.start();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  readonly = await api.token('sandbox-client-readonly');
  merchant = await merchantWithKey(api, tokenA, { availableBalance: '1000.00' });
});

afterAll(async () => {
  await receiver.stop();
  await api.stop();
});

const cents = (value: string): number => Math.round(Number(value) * 100);

async function balanceCents(accountId: string, token = tokenA): Promise<number> {
  const account = await api.request('GET', `/v1/accounts/${accountId}`, { token });
  expect(account.status).toBe(200);
  return cents(account.body.available_balance.value);
}

/** Sets client A's approval to call the receiver, and tells the receiver the secret to verify with. */
async function approvalOn(autoApproveOnError: boolean, token = tokenA): Promise<Record<string, any>> {
  const answer = await api.request('PUT', SETTINGS, {
    token,
    body: { callback_url: `${receiver.url}${CALLBACK}`, enabled: true, auto_approve_on_error: autoApproveOnError },
  });
  expect(answer.status).toBe(200);
  if (answer.body.secret) receiver.secrets.set(CALLBACK, [answer.body.secret]);
  return answer.body;
}

const payKey = (description: string, value: string, key = merchant.key, token = tokenA) =>
  api.request('POST', '/sandbox/payments/inbound', {
    token,
    body: { key, amount: { value, currency: 'COP' }, description },
  });

/** What the callback answers, chosen by the payment's description. */
const ANSWERS: Readonly<Record<string, Answer>> = {
  accepts: { status: 200, body: '{"accept":true}' },
  refuses: { status: 200, body: '{"accept":false}' },
  'answers late': { status: 200, body: '{"accept":true}', afterMs: 3_500 },
  'answers 500': { status: 500, body: '{"accept":true}' },
  'answers garbage': { status: 200, body: 'accept=yes' },
};
const answerFor = (event: Received['event']): Answer => ANSWERS[event.data['description']] ?? ANSWERS['refuses']!;

describe('settings', () => {
  it('404 before the first PUT; the first PUT alone shows the secret, GET never, a replay neither; stored sealed', async () => {
    const none = await api.request('GET', SETTINGS, { token: tokenB });
    expect(none.status).toBe(404);
    expect((await api.request('POST', `${SETTINGS}/rotate-secret`, { token: tokenB })).status).toBe(404);

    const body = { callback_url: `${receiver.url}/b`, enabled: false };
    const first = await api.request('PUT', SETTINGS, { token: tokenB, body });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      callback_url: body.callback_url,
      enabled: false,
      auto_approve_on_error: false,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
      created_at: expect.any(String),
      updated_at: first.body.created_at,
    });
    const again = await api.request('PUT', SETTINGS, {
      token: tokenB,
      body: { ...body, enabled: true, auto_approve_on_error: true },
    });
    expect(again.body).not.toHaveProperty('secret');
    expect(again.body).toMatchObject({ enabled: true, auto_approve_on_error: true, created_at: first.body.created_at });
    const read = await api.request('GET', SETTINGS, { token: tokenB });
    expect(read.body).toEqual(again.body);
    // Client A's settings are its own.
    expect((await api.request('GET', SETTINGS, { token: tokenA })).status).toBe(404);

    // Stored sealed: nothing of the secret (nor of its key) in any item of the table, the settings'
    // own included; the same PUT replayed under its Idempotency-Key answers without it.
    const secret = first.body.secret as string;
    const stored = JSON.stringify(await api.scan());
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice('whsec_'.length));
    const keyed = { token: tokenB, headers: { 'idempotency-key': 'approval-rotate-1' } };
    const rotated = await api.request('POST', `${SETTINGS}/rotate-secret`, keyed);
    const replayed = await api.request('POST', `${SETTINGS}/rotate-secret`, keyed);
    expect(rotated.body.secret).toMatch(/^whsec_/);
    const { secret: _shown, ...withoutSecret } = rotated.body;
    expect(replayed.body).toEqual(withoutSecret);
    expect(replayed.headers.get('idempotent-replay-withheld')).toBe('secret');
    expect(JSON.stringify(await api.scan())).not.toContain(rotated.body.secret as string);
  });

  it('refuses a callback URL a webhook could not have, and a reader (403)', async () => {
    const internal = await api.request('PUT', SETTINGS, {
      token: tokenA,
      body: { callback_url: 'http://10.0.0.1/approve', enabled: true },
    });
    expect(internal.status).toBe(400);
    expect(internal.body.errors).toEqual([{ field: 'callback_url', message: expect.stringContaining('http') }]);
    const reader = await api.request('PUT', SETTINGS, {
      token: readonly,
      body: { callback_url: `${receiver.url}${CALLBACK}`, enabled: true },
    });
    expect(reader.status).toBe(403);
    expect((await api.request('GET', SETTINGS, { token: tokenA })).status).toBe(404);
  });
});

describe.each([false, true])('auto_approve_on_error %s', (auto) => {
  beforeAll(async () => {
    await approvalOn(auto);
    receiver.behave(CALLBACK, answerFor);
  });

  const fallback = auto
    ? { status: 'SETTLED', approval: 'AUTO_APPROVED' }
    : { status: 'REJECTED', approval: 'AUTO_REJECTED', rejection_reason: 'APPROVAL_FAILED' };
  const cases: [string, Record<string, unknown>][] = [
    ['accepts', { status: 'SETTLED', approval: 'ACCEPTED' }],
    ['refuses', { status: 'REJECTED', approval: 'REFUSED', rejection_reason: 'APPROVAL_REFUSED' }],
    ['answers late', { ...fallback, approval_error: 'No answer within 3000 ms' }],
    ['answers 500', { ...fallback, approval_error: 'HTTP 500: not a 2xx answer' }],
    ['answers garbage', { ...fallback, approval_error: expect.stringMatching(/^Malformed answer/) }],
  ];

  it.each(cases)('the callback %s', async (description, expected) => {
    const before = await balanceCents(merchant.accountId);
    const asked = receiver.at(CALLBACK).length;
    const answer = await payKey(description, '100.00');
    expect(answer.status).toBe(200);
    const payment = answer.body;
    expect(payment).toMatchObject({ direction: 'INBOUND', amount: { value: '100.00', currency: 'COP' }, ...expected });
    if (!('approval_error' in expected)) expect(payment).not.toHaveProperty('approval_error');
    expect(payment.settled_at !== undefined).toBe(payment.status === 'SETTLED');

    // The decision is the payment's, as GET reads it, and the balance moved only for a SETTLED one.
    expect((await api.request('GET', `/v1/payments/${payment.id}`, { token: tokenA })).body).toEqual(payment);
    const credited = payment.status === 'SETTLED' ? 100_00 : 0;
    expect(await balanceCents(merchant.accountId)).toBe(before + credited);

    // The callback was asked once, with the payment PROCESSING, signed with the client's secret.
    const requests = receiver.at(CALLBACK).slice(asked);
    expect(requests).toHaveLength(1);
    const [request] = requests as [Received];
    expect(request.verifiedBy).toHaveLength(1);
    expect(request.event).toEqual({
      id: request.headers['webhook-id'],
      type: 'payment.inbound.approval_requested',
      created_at: expect.any(String),
      data: { ...payment, status: 'PROCESSING', updated_at: payment.created_at, ...withoutDecision },
    });
  });
});

/** The fields a decision adds, absent from the PROCESSING payment the callback is asked about. */
const withoutDecision = {
  approval: undefined,
  approval_error: undefined,
  rejection_reason: undefined,
  settled_at: undefined,
};

describe("a payment from one of our merchants (client B's) to another (client A's): the payee's approval decides it", () => {
  let payer: MerchantWithKey;
  beforeAll(async () => {
    await approvalOn(false);
    receiver.behave(CALLBACK, answerFor);
    payer = await merchantWithKey(api, tokenB, { availableBalance: '1000.00' });
  });

  /** client B pays client A's merchant's key: resolved, then paid, as any payment of a key. */
  async function payMerchant(description: string, value: string) {
    const resolution = await api.request('POST', '/v1/resolve-key', {
      token: tokenB,
      body: { customer_id: payer.customerId, key: merchant.key },
    });
    expect(resolution.status).toBe(200);
    return api.request('POST', '/v1/payments', {
      token: tokenB,
      body: {
        customer_id: payer.customerId,
        account_id: payer.accountId,
        resolution_id: resolution.body.id,
        amount: { value, currency: 'COP' },
        description,
      },
    });
  }

  it.each([
    ['accepts', { status: 'SETTLED' }, { status: 'SETTLED', approval: 'ACCEPTED' }],
    [
      'refuses',
      { status: 'REJECTED', rejection_reason: 'APPROVAL_REFUSED' },
      { status: 'REJECTED', approval: 'REFUSED', rejection_reason: 'APPROVAL_REFUSED' },
    ],
    [
      'answers late',
      { status: 'REJECTED', rejection_reason: 'APPROVAL_FAILED' },
      { status: 'REJECTED', approval: 'AUTO_REJECTED', rejection_reason: 'APPROVAL_FAILED' },
    ],
  ])(
    'the callback %s: the payer is answered so, the hold released when refused',
    async (description, payerSide, payeeSide) => {
      const [payerBefore, payeeBefore] = [
        await balanceCents(payer.accountId, tokenB),
        await balanceCents(merchant.accountId),
      ];
      const asked = receiver.at(CALLBACK).length;
      const paid = await payMerchant(description, '30.00');
      expect(paid.status).toBe(200);
      expect(paid.body).toMatchObject({ direction: 'OUTBOUND', ...payerSide });
      const settled = paid.body.status === 'SETTLED';
      expect(await balanceCents(payer.accountId, tokenB)).toBe(payerBefore - (settled ? 30_00 : 0));
      expect(await balanceCents(merchant.accountId)).toBe(payeeBefore + (settled ? 30_00 : 0));
      // The payee was asked once, about its INBOUND payment, PROCESSING, that the payer's payment made.
      const [request] = receiver.at(CALLBACK).slice(asked) as [Received];
      expect(receiver.at(CALLBACK).length - asked).toBe(1);
      const inbound = await api.request('GET', `/v1/payments/${request.event.data['id']}`, { token: tokenA });
      expect(inbound.body).toMatchObject({
        direction: 'INBOUND',
        amount: { value: '30.00' },
        description,
        ...payeeSide,
      });
      expect(inbound.body.counterparty.owner.business_name).toBe(payer.businessName);
      // The payer's events: its PENDING payment, then the payee's answer.
      const events = (await api.scan()).filter(
        (item) => item['entity'] === 'EVENT' && item['data']?.['id'] === paid.body.id,
      );
      expect(events.map((event) => event['type']).sort()).toEqual(
        ['payment.outbound.confirmed', settled ? 'payment.settled' : 'payment.rejected'].sort(),
      );
    },
  );
});

describe('with approval on', () => {
  beforeAll(async () => {
    await approvalOn(false);
    receiver.behave(CALLBACK, answerFor);
  });

  it(
    `${RACERS} concurrent inbound payments to one merchant: each decided once, the balance exact`,
    async () => {
      const target = await merchantWithKey(api, tokenA, { availableBalance: '0.00' });
      const amounts = Array.from({ length: RACERS }, (_, i) => `${10 + i}.${String(i).padStart(2, '0')}`);
      // Every third is refused, every fifth answered 500 (so rejected: auto_approve_on_error is off).
      const descriptionOf = (i: number) => (i % 3 === 0 ? 'refuses' : i % 5 === 0 ? 'answers 500' : 'accepts');
      const answers = await Promise.all(amounts.map((value, i) => payKey(descriptionOf(i), value, target.key)));
      expect(answers.map((a) => a.status)).toEqual(amounts.map(() => 200));
      const settled = answers.filter((a) => a.body.status === 'SETTLED');
      expect(answers.map((a) => a.body.approval)).toEqual(
        amounts.map(
          (_, i) => ({ refuses: 'REFUSED', 'answers 500': 'AUTO_REJECTED', accepts: 'ACCEPTED' })[descriptionOf(i)],
        ),
      );
      const expected = settled.reduce((sum, a) => sum + cents(a.body.amount.value), 0);
      expect(await balanceCents(target.accountId)).toBe(expected);
      expect(settled).toHaveLength(amounts.filter((_, i) => descriptionOf(i) === 'accepts').length);

      const listed = await api.request('GET', `/v1/payments?customer_id=${target.customerId}&page_size=100`, {
        token: tokenA,
      });
      expect(listed.body.pagination_info.total_elements).toBe(RACERS);
      expect(listed.body.payments.filter((p: any) => p.status === 'PROCESSING')).toEqual([]);
    },
    RACE_TIMEOUT_MS,
  );

  it('a DYNAMIC QR code is paid only by an accepted payment: refused, it stays ACTIVE', async () => {
    const created = await api.request('POST', '/v1/qrcodes', {
      token: tokenA,
      body: {
        customer_id: merchant.customerId,
        key_id: merchant.keyId,
        type: 'DYNAMIC',
        channel: 'POS',
        qr_code_reference: `A${Date.now() % 1_000_000}`,
        amount: { value: '55.00', currency: 'COP' },
        vat: { vat_type: 'FIXED', vat_value: '5.00', vat_base_value: '50.00' },
        inc: { inc_type: 'WALLET' },
        additional_info: { transaction_purpose: '00', terminal_label: 'CAJA01' },
      },
    });
    expect(created.text).toContain('"status":"ACTIVE"');
    const code = created.body;
    const before = await balanceCents(merchant.accountId);

    receiver.behave(CALLBACK, () => ANSWERS['refuses']!);
    const refused = await api.request('POST', `/sandbox/qrcodes/${code.id}/pay`, { token: tokenA, body: {} });
    expect(refused.body).toMatchObject({ status: 'REJECTED', approval: 'REFUSED', qr_code_id: code.id });
    expect((await api.request('GET', `/v1/qrcodes/${code.id}`, { token: tokenA })).body.status).toBe('ACTIVE');
    expect(await balanceCents(merchant.accountId)).toBe(before);

    receiver.behave(CALLBACK, () => ANSWERS['accepts']!);
    const paid = await api.request('POST', `/sandbox/qrcodes/${code.id}/pay`, { token: tokenA, body: {} });
    expect(paid.body).toMatchObject({ status: 'SETTLED', approval: 'ACCEPTED' });
    expect((await api.request('GET', `/v1/qrcodes/${code.id}`, { token: tokenA })).body.status).toBe('PAID');
    expect(await balanceCents(merchant.accountId)).toBe(before + 55_00);
    const again = await api.request('POST', `/sandbox/qrcodes/${code.id}/pay`, { token: tokenA, body: {} });
    expect(again.status).toBe(409);
    receiver.behave(CALLBACK, answerFor);
  });

  it('after a rotation the request carries two signatures, each verifying alone', async () => {
    const previous = receiver.secrets.get(CALLBACK)![0]!;
    const rotated = await api.request('POST', `${SETTINGS}/rotate-secret`, { token: tokenA });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(previous);
    receiver.secrets.set(CALLBACK, [previous, rotated.body.secret]);
    const asked = receiver.at(CALLBACK).length;
    expect((await payKey('accepts', '1.00')).body.approval).toBe('ACCEPTED');
    const [request] = receiver.at(CALLBACK).slice(asked) as [Received];
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(request.verifiedBy).toEqual([previous, rotated.body.secret]);
  });

  it("another client's key, an unknown key and a suspended one are 404 KEY_NOT_FOUND; nothing is asked", async () => {
    const other = await merchantWithKey(api, tokenB);
    const asked = receiver.at(CALLBACK).length;
    const foreign = await payKey('accepts', '5.00', other.key);
    expect(foreign.status).toBe(404);
    expect(foreign.body.code).toBe('KEY_NOT_FOUND');
    const unknown = await payKey('accepts', '5.00', { key_type: 'ALPHA', key_value: '@nadie404x' });
    // Another client's key is not told apart from an unknown one.
    const { request_id: _a, ...unknownProblem } = unknown.body;
    const { request_id: _b, ...foreignProblem } = foreign.body;
    expect(unknownProblem).toEqual(foreignProblem);
    const suspended = await merchantWithKey(api, tokenA);
    await api.request('PATCH', `/v1/keys/${suspended.keyId}/suspend`, { token: tokenA });
    expect((await payKey('accepts', '5.00', suspended.key)).status).toBe(404);
    expect(receiver.at(CALLBACK).length).toBe(asked);
  });

  it('with approval off again, a payment is SETTLED at once, NOT_REQUIRED, and the callback is not asked', async () => {
    const settings = await api.request('PUT', SETTINGS, {
      token: tokenA,
      body: { callback_url: `${receiver.url}${CALLBACK}`, enabled: false },
    });
    expect(settings.body.enabled).toBe(false);
    const asked = receiver.at(CALLBACK).length;
    const before = await balanceCents(merchant.accountId);
    const payment = (await payKey('refuses', '7.00')).body;
    expect(payment).toMatchObject({ status: 'SETTLED', approval: 'NOT_REQUIRED' });
    expect(await balanceCents(merchant.accountId)).toBe(before + 7_00);
    expect(receiver.at(CALLBACK).length).toBe(asked);
  });
});
