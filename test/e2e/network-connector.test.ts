/**
 * The network connector's contract (docs/network.md), outbound: the real local server settles through
 * the connector adapter production runs, against a fake sponsor bank on loopback (test/support/
 * fake-bank.ts). Signed transfer orders with a stable end_to_end_id; signed status callbacks applied
 * once (duplicates and out-of-order answers change nothing, an unknown id is 404); unsigned, badly
 * signed and stale callbacks refused; a status that arrives before the order is acknowledged; the
 * bank down or slow (the order sent again, the same, until it is taken).
 */
import { availableBalance } from '../support/accounts';
import { FakeBank } from '../support/fake-bank';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey } from '../support/merchants';
import { answeredPayment } from '../support/settlement';

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory): another participant. */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const UNKNOWN = '7d7c5a1e-0000-4000-8000-000000000000';
const SWEEP_GRACE_MS = 3_000;
const OTHER_SECRET = `whsec_${Buffer.alloc(32, 1).toString('base64')}`;

let api: TestApi;
let bank: FakeBank;
let token: string;

beforeAll(async () => {
  bank = await FakeBank.start(() => api.runtime.networkSecret!);
  // The sweeper every second, for work 3 s late: what the queue gave up on is sent again soon. Behind
  // the local stage's edge, as deployed: its tokenless refusal must leave the bank's signed callbacks be.
  api = await startTestApi({
    network: { kind: 'connector', url: bank.url },
    edge: 'stage',
    sweepIntervalMs: 1_000,
    sweepGraceMs: SWEEP_GRACE_MS,
  });
  token = await api.token('sandbox-client-a');
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
});

/** A payment of `value` to Ana's key: PENDING, its amount held. Each test pays amounts of its own. */
async function pendingTransfer(value: string, balance = '500.00') {
  const payer = await merchantWithKey(api, token, { availableBalance: balance });
  const resolutionId = await resolvedKey(api, token, payer.customerId, ANA_PHONE);
  const answer = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: resolutionId,
      amount: { value, currency: 'COP' },
      description: 'Arriendo',
    },
  });
  expect([answer.status, answer.body.status]).toEqual([200, 'PENDING']);
  return { payer, payment: answer.body };
}

const read = (id: string) => api.request('GET', `/v1/payments/${id}`, { token });
const balanceOf = (accountId: string) => availableBalance(api, token, accountId);

describe('transfer orders out', () => {
  it('a signed transfer.requested order with a stable end_to_end_id; PENDING until the network answers', async () => {
    const { payer, payment } = await pendingTransfer('120.50');
    const [order] = await bank.ordersFor(payment.id);
    expect(order!.signed).toBe(true);
    expect(order!.body).toEqual({
      type: 'transfer.requested',
      transfer_id: payment.id,
      end_to_end_id: expect.stringMatching(/^[A-Za-z0-9]{1,35}$/),
      amount: { currency: 'COP', value: '120.50' },
      debtor: {
        customer_id: payer.customerId,
        account_id: payer.accountId,
        participant: { name: 'Banco Patrocinador S.A.', identification_number: '860000001' },
      },
      creditor: payment.counterparty,
      description: 'Arriendo',
      created_at: payment.created_at,
    });
    // Taken (202), the payment waits for the network: no simulator answers it.
    await new Promise((done) => setTimeout(done, 1500));
    expect((await read(payment.id)).body.status).toBe('PENDING');
    expect(await balanceOf(payer.accountId)).toBe('379.50');

    const settled = await bank.callBack(api.url, payment.id, { status: 'SETTLED' });
    expect(settled).toEqual({
      status: 200,
      body: { transfer_id: payment.id, end_to_end_id: order!.body.end_to_end_id, status: 'SETTLED', applied: true },
    });
    const after = await read(payment.id);
    expect(after.body).toMatchObject({ status: 'SETTLED', settled_at: expect.any(String) });
    expect(await balanceOf(payer.accountId)).toBe('379.50');
  });

  it('a status for a transfer already answered is answered again without a change, whatever it says', async () => {
    const { payer, payment } = await pendingTransfer('80.00', '100.00');
    await bank.ordersFor(payment.id);
    const rejected = await bank.callBack(api.url, payment.id, { status: 'REJECTED', reason: 'Cuenta cerrada' });
    expect(rejected.body).toMatchObject({ status: 'REJECTED', applied: true });
    const once = await read(payment.id);
    expect(once.body).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED' });
    // The hold comes back once.
    expect(await balanceOf(payer.accountId)).toBe('100.00');

    for (const status of [{ status: 'REJECTED' }, { status: 'SETTLED' }]) {
      const again = await bank.callBack(api.url, payment.id, status);
      expect(again).toEqual({ status: 200, body: { ...rejected.body, applied: false } });
    }
    expect((await read(payment.id)).text).toBe(once.text);
    expect(await balanceOf(payer.accountId)).toBe('100.00');
  });

  it('10 racing callbacks, half SETTLED and half REJECTED: one is applied, the money moves at most once', async () => {
    const { payer, payment } = await pendingTransfer('60.00', '100.00');
    await bank.ordersFor(payment.id);
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        bank.callBack(api.url, payment.id, { status: i % 2 === 0 ? 'SETTLED' : 'REJECTED' }),
      ),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
    expect(answers.filter((answer) => answer.body.applied)).toHaveLength(1);
    const final = (await read(payment.id)).body.status;
    // Every answer tells the one status that holds.
    expect(new Set(answers.map((answer) => answer.body.status))).toEqual(new Set([final]));
    expect(await balanceOf(payer.accountId)).toBe(final === 'SETTLED' ? '40.00' : '100.00');
  });

  it('a status that arrives before the order is acknowledged is applied, and the late 202 changes nothing', async () => {
    let early: { status: number; body: any } | undefined;
    bank.plans.set('45.00', [
      {
        status: 202,
        before: async (order) => {
          early = await bank.callBack(api.url, order.body.transfer_id, { status: 'SETTLED' });
        },
      },
    ]);
    const { payment } = await pendingTransfer('45.00');
    const answered = await answeredPayment(api, token, payment.id);
    expect(answered.body.status).toBe('SETTLED');
    expect(early).toMatchObject({ status: 200, body: { status: 'SETTLED', applied: true } });
  });

  it('an unknown transfer is 404; a payment that never went to the network is no transfer', async () => {
    const unknown = await bank.callBack(api.url, UNKNOWN, { status: 'SETTLED' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);

    // A payment to one of our own merchants is settled between our accounts: the network never saw it.
    const payer = await merchantWithKey(api, token, { availableBalance: '20.00' });
    const payee = await merchantWithKey(api, token);
    const own = await api.request('POST', '/v1/payments', {
      token,
      body: {
        customer_id: payer.customerId,
        account_id: payer.accountId,
        resolution_id: await resolvedKey(api, token, payer.customerId, payee.key),
        amount: { value: '5.00', currency: 'COP' },
      },
    });
    expect(own.status).toBe(200);
    const before = await read(own.body.id);
    const refused = await bank.callBack(api.url, own.body.id, { status: 'REJECTED' });
    expect([refused.status, refused.body.code]).toEqual([404, 'NOT_FOUND']);
    expect((await read(own.body.id)).text).toBe(before.text);
  });

  it('unsigned, badly signed and stale callbacks are 401 and change nothing; a bad body is 400', async () => {
    const { payer, payment } = await pendingTransfer('30.00', '30.00');
    await bank.ordersFor(payment.id);
    for (const signing of [{ unsigned: true }, { secret: OTHER_SECRET }, { ageSeconds: 301 }]) {
      const refused = await bank.callBack(api.url, payment.id, { status: 'REJECTED' }, signing);
      expect([refused.status, refused.body.code]).toEqual([401, 'NETWORK_SIGNATURE_INVALID']);
      expect([refused.headers.get('x-content-type-options'), refused.headers.get('cache-control')]).toEqual([
        'nosniff',
        'no-store',
      ]);
    }
    expect((await read(payment.id)).body.status).toBe('PENDING');
    expect(await balanceOf(payer.accountId)).toBe('0.00');
    const invalid = await bank.callBack(api.url, payment.id, { status: 'PAID' });
    expect([invalid.status, invalid.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    // A timestamp within the 5 minutes is heard.
    const recent = await bank.callBack(api.url, payment.id, { status: 'SETTLED' }, { ageSeconds: 290 });
    expect(recent.body).toMatchObject({ status: 'SETTLED', applied: true });
    expect([recent.headers.get('x-content-type-options'), recent.headers.get('cache-control')]).toEqual([
      'nosniff',
      'no-store',
    ]);
  });

  it.each([
    ['down (503)', '10.00', { status: 503 }],
    ['slow (no answer within 5 s)', '11.00', { status: 202, delayMs: 6_000 }],
  ])(
    'the bank %s: the payment stays PENDING and held, and the same order is sent again until taken',
    async (_, value, first) => {
      bank.plans.set(value, [first]);
      const { payer, payment } = await pendingTransfer(value, value);
      const [failed, retried] = await bank.ordersFor(payment.id, 2, 20_000);
      expect((await read(payment.id)).body.status).toBe('PENDING');
      expect(await balanceOf(payer.accountId)).toBe('0.00');
      // The same transfer to the bank: same message id, same end_to_end_id, same order.
      expect(retried!.headers['webhook-id']).toBe(failed!.headers['webhook-id']);
      expect(retried!.raw).toBe(failed!.raw);
      expect(retried!.signed).toBe(true);
      const settled = await bank.callBack(api.url, payment.id, { status: 'SETTLED' });
      expect(settled.body).toMatchObject({ status: 'SETTLED', applied: true });
    },
    40_000,
  );

  it("the bank down past the queue's retries: the sweeper sends the same order again, and it settles", async () => {
    // The queue hands a failed job 3 times in all (infra/local/local-queue.ts), then gives it up.
    bank.plans.set('12.00', [{ status: 503 }, { status: 503 }, { status: 503 }]);
    const { payer, payment } = await pendingTransfer('12.00', '12.00');
    const orders = await bank.ordersFor(payment.id, 4, 30_000);
    // The fourth came from the sweeper: the payment was due past its grace.
    const sentAt = (order: (typeof orders)[number]) => Number(order.headers['webhook-timestamp']) * 1000;
    expect(sentAt(orders[3]!)).toBeGreaterThanOrEqual(Date.parse(payment.created_at) + SWEEP_GRACE_MS - 1_000);
    expect(new Set(orders.map((order) => order.raw)).size).toBe(1);
    expect(new Set(orders.map((order) => order.headers['webhook-id'])).size).toBe(1);
    expect(await balanceOf(payer.accountId)).toBe('0.00');
    const settled = await bank.callBack(api.url, payment.id, { status: 'SETTLED' });
    expect(settled.body).toMatchObject({ status: 'SETTLED', applied: true });
    expect((await read(payment.id)).body.status).toBe('SETTLED');
  }, 40_000);
});
