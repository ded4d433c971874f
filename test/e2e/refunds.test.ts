/**
 * Refunds (issue 30) through the real local server with real tokens: an INBOUND payment refunded in
 * two parts and a third refused REFUND_EXCEEDS_REMAINING; the same of a payment from one of our own
 * merchants (another client's), each refund crediting the payer's account; an OUTBOUND payment refused
 * PAYMENT_NOT_REFUNDABLE; a .99 refund REJECTED by the sandbox network with its hold released; every
 * other refusal (no Idempotency-Key, another client's payment, the read-only client, the merchant's
 * funds); a replay; the list and its filters; the refund.* events signed, checked by the
 * `standardwebhooks` package; and the merchant's balance equal to the sum of its movements at every
 * step.
 */
import { randomUUID } from 'node:crypto';
import { availableBalance, walkAll } from '../support/accounts';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';
import { expectProblem } from '../support/problems';
import { answeredRefund, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const REFUND_EVENTS = ['refund.created', 'refund.settled', 'refund.rejected'];

let api: TestApi;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;
let readonly: string;

beforeAll(async () => {
  [api, receiver] = await Promise.all([
    startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS }),
    WebhookReceiver.start(),
  ]);
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  readonly = await api.token('sandbox-client-readonly');
});
afterAll(async () => {
  await api?.stop();
  await receiver?.stop();
});

const cop = (value: string) => ({ value, currency: 'COP' });

const refund = (paymentId: string, body: object, token = tokenA, key: string | null = randomUUID()) =>
  api.request('POST', `/v1/payments/${paymentId}/refunds`, {
    token,
    body,
    ...(key === null ? {} : { headers: { 'Idempotency-Key': key } }),
  });

/** A payment the sandbox shopper (Ana María, Banco Ejemplo) makes to the merchant's key: INBOUND, SETTLED. */
async function received(merchant: MerchantWithKey, value: string): Promise<Record<string, any>> {
  const answer = await api.request('POST', '/sandbox/payments/inbound', {
    token: tokenA,
    body: { key: merchant.key, amount: cop(value) },
  });
  expect([answer.status, answer.body.status, answer.body.refunded_amount]).toEqual([200, 'SETTLED', cop('0.00')]);
  return answer.body;
}

/** The refund once the network has answered it (polled as a client would). */
const answered = (refundId: string): Promise<ApiAnswer> => answeredRefund(api, tokenA, refundId);

/** The merchant pays `value` to Ana María at another participant (a resolution of her key). */
const payAna = async (merchant: MerchantWithKey, value: string) =>
  api.request('POST', '/v1/payments', {
    token: tokenA,
    body: {
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      resolution_id: await resolvedKey(api, tokenA, merchant.customerId, ANA_PHONE),
      amount: cop(value),
    },
  });

/** The account's available balance (read by its client, `token`), checked equal to the sum of its movements in the table. */
async function balance(accountId: string, token = tokenA): Promise<string> {
  const items = await api.scan();
  const account = items.find((item) => item['entity'] === 'BALANCE' && item['account_id'] === accountId)!;
  const movements = items.filter((item) => item['entity'] === 'MOVEMENT' && item['account_id'] === accountId);
  const sum = movements.reduce((total, movement) => total + Number(movement['amount_cents']), 0);
  expect(account['available_balance_cents']).toBe(sum);
  const shown = await availableBalance(api, token, accountId);
  expect(Math.round(Number(shown) * 100)).toBe(sum);
  return shown;
}

async function subscribed(): Promise<string> {
  const path = `/refunds-${randomUUID()}`;
  const answer = await api.request('POST', '/v1/webhooks', {
    token: tokenA,
    body: { url: `${receiver.url}${path}`, events: REFUND_EVENTS },
  });
  expect(answer.status).toBe(200);
  receiver.secrets.set(path, [answer.body.secret]);
  return path;
}

describe('refunding an INBOUND payment', () => {
  it('in two parts, then a third refused REFUND_EXCEEDS_REMAINING; each refund settles; events signed', async () => {
    const path = await subscribed();
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '0.00' });
    const payment = await received(merchant, '100.00');
    expect(await balance(merchant.accountId)).toBe('100.00');

    const first = await refund(payment.id, { amount: cop('60.00'), reason: 'Producto devuelto' });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      id: expect.any(String),
      payment_id: payment.id,
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      amount: cop('60.00'),
      reason: 'Producto devuelto',
      status: 'PENDING',
      created_at: expect.any(String),
      updated_at: first.body.created_at,
    });
    // Held at once.
    expect(await balance(merchant.accountId)).toBe('40.00');
    // Without an amount: the rest.
    const second = await refund(payment.id, {});
    expect([second.status, second.body.amount]).toEqual([200, cop('40.00')]);
    expect(await balance(merchant.accountId)).toBe('0.00');
    const read = await api.request('GET', `/v1/payments/${payment.id}`, { token: tokenA });
    expect(read.body.refunded_amount).toEqual(cop('100.00'));

    expectProblem(await refund(payment.id, { amount: cop('0.01') }), 409, 'REFUND_EXCEEDS_REMAINING');
    expectProblem(await refund(payment.id, {}), 409, 'REFUND_EXCEEDS_REMAINING');

    const settled = await Promise.all([answered(first.body.id), answered(second.body.id)]);
    expect(settled.map((r) => r.body.status)).toEqual(['SETTLED', 'SETTLED']);
    expect(await balance(merchant.accountId)).toBe('0.00');

    await receiver.until(() => receiver.at(path).length >= 4, 20_000, 'four refund events');
    const events = receiver.at(path);
    expect(events.every((event) => event.verifiedBy.length === 1)).toBe(true);
    const byRefund = (id: string) =>
      events
        .filter((event) => event.event.data['id'] === id)
        .map((event) => event.event.type)
        .sort();
    expect(byRefund(first.body.id)).toEqual(['refund.created', 'refund.settled']);
    expect(byRefund(second.body.id)).toEqual(['refund.created', 'refund.settled']);
    const settledEvent = events.find((e) => e.event.type === 'refund.settled' && e.event.data['id'] === first.body.id);
    expect(settledEvent?.event.data).toEqual(settled[0]!.body);
  });

  it('a .99 refund is REJECTED by the sandbox network and its hold released; refunded_amount back down', async () => {
    const path = await subscribed();
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '5.00' });
    const payment = await received(merchant, '50.00');
    const rejected = await refund(payment.id, { amount: cop('10.99') });
    expect([rejected.status, rejected.body.status]).toEqual([200, 'PENDING']);
    expect(await balance(merchant.accountId)).toBe('44.01');

    const read = await answered(rejected.body.id);
    expect(read.body).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED' });
    expect(await balance(merchant.accountId)).toBe('55.00');
    const paymentNow = await api.request('GET', `/v1/payments/${payment.id}`, { token: tokenA });
    expect(paymentNow.body.refunded_amount).toEqual(cop('0.00'));
    await receiver.until(
      () => receiver.at(path).some((e) => e.event.type === 'refund.rejected'),
      20_000,
      'refund.rejected',
    );
    const event = receiver.at(path).find((e) => e.event.type === 'refund.rejected')!;
    expect(event.verifiedBy).toHaveLength(1);
    expect(event.event.data).toEqual(read.body);
  });

  it('replays under its Idempotency-Key; another body under it is 409; lists by payment, customer and status', async () => {
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '0.00' });
    const payment = await received(merchant, '30.00');
    const key = randomUUID();
    const first = await refund(payment.id, { amount: cop('10.00') }, tokenA, key);
    const again = await refund(payment.id, { amount: cop('10.00') }, tokenA, key);
    expect([again.status, again.headers.get('idempotent-replayed'), again.text]).toEqual([200, 'true', first.text]);
    expectProblem(await refund(payment.id, { amount: cop('11.00') }, tokenA, key), 409, 'IDEMPOTENCY_KEY_REUSED');
    expect(await balance(merchant.accountId)).toBe('20.00');

    const list = await api.request('GET', `/v1/refunds?payment_id=${payment.id}`, { token: tokenA });
    expect(list.status).toBe(200);
    expect(list.body.refunds.map((r: { id: string }) => r.id)).toEqual([first.body.id]);
    expect(list.body.pagination_info).toMatchObject({ total_elements: 1, current_page: 1 });
    const byCustomer = await api.request('GET', `/v1/refunds?customer_id=${merchant.customerId}&status=PENDING`, {
      token: tokenA,
    });
    expect(byCustomer.status).toBe(200);
    const other = await api.request('GET', `/v1/refunds?payment_id=${payment.id}`, { token: tokenB });
    expect(other.body.refunds).toEqual([]);
    expectProblem(await api.request('GET', `/v1/refunds/${first.body.id}`, { token: tokenB }), 403, 'FORBIDDEN');
    expectProblem(await api.request('GET', `/v1/refunds?status=DONE`, { token: tokenA }), 400, 'VALIDATION_FAILED');
  });
});

describe("refunding a payment from one of our own merchants (another client's)", () => {
  it("credits the payer's account: in two parts, then a third refused REFUND_EXCEEDS_REMAINING", async () => {
    // Merchant A (client A) pays merchant B (client B) through B's key: B's INBOUND payment.
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '100.00' });
    const payee = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
    const paid = await api.request('POST', '/v1/payments', {
      token: tokenA,
      body: {
        customer_id: payer.customerId,
        account_id: payer.accountId,
        resolution_id: await resolvedKey(api, tokenA, payer.customerId, payee.key),
        amount: cop('50.00'),
      },
    });
    expect(paid.body.status).toBe('SETTLED');
    const inbound = await api.request('GET', `/v1/payments?customer_id=${payee.customerId}&direction=INBOUND`, {
      token: tokenB,
    });
    const [record] = inbound.body.payments;
    expect(record).toMatchObject({ status: 'SETTLED', refunded_amount: cop('0.00') });
    // The payer's account, kept for a refund, is never shown.
    expect(record).not.toHaveProperty('own_payer');
    const balances = async () => [await balance(payer.accountId, tokenA), await balance(payee.accountId, tokenB)];
    expect(await balances()).toEqual(['50.00', '50.00']);

    // .99: the sandbox network would reject it; a refund to our merchant does not go there.
    const first = await refund(record.id, { amount: cop('20.99') }, tokenB);
    expect(first.body).toMatchObject({ status: 'PENDING', account_id: payee.accountId, amount: cop('20.99') });
    expect(await balances()).toEqual(['50.00', '29.01']);
    expect((await answeredRefund(api, tokenB, first.body.id)).body).toMatchObject({ status: 'SETTLED' });
    expect(await balances()).toEqual(['70.99', '29.01']);

    const rest = await refund(record.id, {}, tokenB);
    expect(rest.body).toMatchObject({ status: 'PENDING', amount: cop('29.01') });
    expect((await answeredRefund(api, tokenB, rest.body.id)).body).toMatchObject({ status: 'SETTLED' });
    expect(await balances()).toEqual(['100.00', '0.00']);
    expectProblem(await refund(record.id, { amount: cop('0.01') }, tokenB), 409, 'REFUND_EXCEEDS_REMAINING');
    const read = await api.request('GET', `/v1/payments/${record.id}`, { token: tokenB });
    expect(read.body.refunded_amount).toEqual(cop('50.00'));

    // The payer's ledger: its payment's debit, then each refund's credit naming its own payment.
    const { items: movements } = await walkAll(api, tokenA, `/v1/accounts/${payer.accountId}/movements`, 'movements');
    const credits = movements.filter((movement) => movement['kind'] === 'REFUND');
    expect(credits.map((m) => [m['amount'].value, m['refund_id'], m['payment_id']]).sort()).toEqual(
      [
        ['20.99', first.body.id, paid.body.id],
        ['29.01', rest.body.id, paid.body.id],
      ].sort(),
    );
  });
});

describe('refusals', () => {
  it('an OUTBOUND payment is PAYMENT_NOT_REFUNDABLE', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '100.00' });
    const payment = await payAna(payer, '20.00');
    expect(payment.status).toBe(200);
    expect(payment.body).not.toHaveProperty('refunded_amount');
    expectProblem(await refund(payment.body.id, {}), 409, 'PAYMENT_NOT_REFUNDABLE');
    expect(await balance(payer.accountId)).toBe('80.00');
  });

  it("no Idempotency-Key: 400; another client's payment or an unknown one: 404; the read-only client: 403", async () => {
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '0.00' });
    const payment = await received(merchant, '10.00');
    expectProblem(await refund(payment.id, {}, tokenA, null), 400, 'IDEMPOTENCY_KEY_REQUIRED');
    expectProblem(await refund(payment.id, {}, tokenB), 404, 'NOT_FOUND');
    expectProblem(await refund(randomUUID(), {}), 404, 'NOT_FOUND');
    expectProblem(await refund(payment.id, {}, readonly), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(await refund(payment.id, { amount: cop('0.00') }), 400, 'VALIDATION_FAILED');
    expectProblem(await refund(payment.id, { reason: 'x'.repeat(141) }), 400, 'VALIDATION_FAILED');
    expect(await balance(merchant.accountId)).toBe('10.00');
  });

  it("the merchant's available balance must cover the refund: 409 INSUFFICIENT_FUNDS (a payment's is 400)", async () => {
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '0.00' });
    const payment = await received(merchant, '40.00');
    // The merchant paid most of it on.
    expect((await payAna(merchant, '35.00')).status).toBe(200);
    expectProblem(await refund(payment.id, {}), 409, 'INSUFFICIENT_FUNDS');
    // The same balance refuses a payment 400, as payments always have.
    expectProblem(await payAna(merchant, '5.01'), 400, 'INSUFFICIENT_FUNDS');
    expect(await balance(merchant.accountId)).toBe('5.00');
    expect((await refund(payment.id, { amount: cop('5.00') })).status).toBe(200);
    expect(await balance(merchant.accountId)).toBe('0.00');
  });

  it("an INACTIVE merchant sends no money out: 409 CUSTOMER_INACTIVE (a payment's is 400), nothing written", async () => {
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '0.00' });
    const payment = await received(merchant, '30.00');
    const status = async (value: 'ACTIVE' | 'INACTIVE') =>
      expect(
        (await api.request('PATCH', `/v1/customers/${merchant.customerId}`, { token: tokenA, body: { status: value } }))
          .status,
      ).toBe(200);
    await status('INACTIVE');
    const key = randomUUID();
    expectProblem(await refund(payment.id, {}, tokenA, key), 409, 'CUSTOMER_INACTIVE');
    // The same state refuses a payment 400, as payments always have.
    expectProblem(await payAna(merchant, '1.00'), 400, 'CUSTOMER_INACTIVE');
    expect(await balance(merchant.accountId)).toBe('30.00');
    const { items } = await walkAll(api, tokenA, '/v1/refunds', 'refunds', { payment_id: payment.id });
    expect(items).toEqual([]);
    // Active again: the refused request's key answers its refusal again, as any answered key does; a
    // new request refunds.
    await status('ACTIVE');
    expectProblem(await refund(payment.id, {}, tokenA, key), 409, 'CUSTOMER_INACTIVE');
    const made = await refund(payment.id, { amount: cop('10.00') });
    expect(made.status).toBe(200);
    expect(await balance(merchant.accountId)).toBe('20.00');
  });
});
