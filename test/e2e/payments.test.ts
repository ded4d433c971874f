/**
 * Payments (issue 7) through the real local server: paying a resolved key of another participant
 * (PENDING with its amount held, then SETTLED, or REJECTED for the sandbox's .99 amounts, by the
 * local settlement queue) and of our merchants (also another client's), balances read back, the
 * one-payment-per-resolution rule (replay, 409, 25 concurrent requests), every refusal
 * (400/403/404/409), REJECTED, lists, and the sandbox shopper paying QR codes (a DYNAMIC code once).
 */
import { accountNumbers, availableBalance, linkAccount, setStatus, walkAll } from '../support/accounts';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { expectProblem } from '../support/problems';
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';
import { answeredPayment, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '7d7c5a1e-0000-4000-8000-000000000000';
/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory). */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };

let api: TestApi;
let tokenA: string;
let tokenB: string;
let readonly: string;

beforeAll(async () => {
  // The race of 25 on one resolution (below) waits on DynamoDB Local's serial transactions past the
  // deployed 10 s route timeout on a loaded machine: it shows one payment, not speed.
  api = await startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS, routeTimeoutMs: 30_000 });
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  readonly = await api.token('sandbox-client-readonly');
});
afterAll(() => api.stop());

const resolve = (token: string, customerId: string, key: { key_type?: string; key_value: string }): Promise<string> =>
  resolvedKey(api, token, customerId, key);

const paymentBody = (payer: MerchantWithKey, resolutionId: string, value: string, extra = {}) => ({
  customer_id: payer.customerId,
  account_id: payer.accountId,
  resolution_id: resolutionId,
  amount: { value, currency: 'COP' },
  ...extra,
});

const pay = (token: string, body: unknown, headers?: Record<string, string>): Promise<ApiAnswer> =>
  api.request('POST', '/v1/payments', { token, body, ...(headers ? { headers } : {}) });

const balance = (token: string, accountId: string): Promise<string> => availableBalance(api, token, accountId);

describe('paying a key at another participant', () => {
  it('answers PENDING with the amount held, then the network settles it: SETTLED, read back the same', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '500.00' });
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const answer = await pay(tokenA, paymentBody(payer, resolutionId, '120.50', { description: 'Arriendo' }));
    expect(answer.status).toBe(200);
    const { id, created_at, updated_at, ...rest } = answer.body;
    expect(id).toMatch(UUID);
    expect([created_at, updated_at].every((t: string) => TIMESTAMP.test(t))).toBe(true);
    expect(updated_at).toBe(created_at);
    expect(rest).toEqual({
      status: 'PENDING',
      direction: 'OUTBOUND',
      customer_id: payer.customerId,
      account_id: payer.accountId,
      amount: { currency: 'COP', value: '120.50' },
      description: 'Arriendo',
      resolution_id: resolutionId,
      counterparty: {
        key: ANA_PHONE,
        owner: {
          identification_type: 'CC',
          identification_number: '1020304050',
          type: 'PERSON',
          first_name: 'Ana',
          second_name: 'María',
          first_last_name: 'Gómez',
          second_last_name: 'Pérez',
        },
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
        account: { account_number: '4001002003', account_type: 'SAVINGS' },
      },
    });
    // The hold: the available balance dropped with the answer, and stays down once it settles.
    expect(await balance(tokenA, payer.accountId)).toBe('379.50');

    const read = await answeredPayment(api, tokenA, id);
    const { settled_at } = read.body;
    expect(TIMESTAMP.test(settled_at) && settled_at >= created_at).toBe(true);
    expect(read.body).toEqual({ ...answer.body, status: 'SETTLED', updated_at: settled_at, settled_at });
    expect(await balance(tokenA, payer.accountId)).toBe('379.50');
    // The same request again answers the settled payment, and pays nothing more.
    const again = await pay(tokenA, paymentBody(payer, resolutionId, '120.50', { description: 'Arriendo' }));
    expect([again.status, again.text]).toEqual([200, read.text]);
    expectProblem(await api.request('GET', `/v1/payments/${id}`, { token: tokenB }), 403, 'FORBIDDEN');
    expectProblem(await api.request('GET', `/v1/payments/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
    // The read-only client reads payments (of its own: none here).
    expectProblem(await api.request('GET', `/v1/payments/${id}`, { token: readonly }), 403, 'FORBIDDEN');
  });

  it('an amount ending in .99 is REJECTED by the sandbox network, and the held amount comes back', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '50.00' });
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const answer = await pay(tokenA, paymentBody(payer, resolutionId, '10.99'));
    expect([answer.status, answer.body.status]).toEqual([200, 'PENDING']);
    expect(await balance(tokenA, payer.accountId)).toBe('39.01');
    const read = await answeredPayment(api, tokenA, answer.body.id);
    expect(read.body).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED' });
    expect(read.body.settled_at).toBeUndefined();
    expect(await balance(tokenA, payer.accountId)).toBe('50.00');
    // The resolution is used: the same request answers the rejected payment, and moves nothing.
    expect((await pay(tokenA, paymentBody(payer, resolutionId, '10.99'))).text).toBe(read.text);
    expect(await balance(tokenA, payer.accountId)).toBe('50.00');
  });
});

describe("the stage's maximum for one payment (MAX_PAYMENT_CENTS)", () => {
  it('10,000,000.00 is paid; a cent more is 400 AMOUNT_ABOVE_LIMIT, out or in, and nothing moves', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '20000000.00' });
    const above = await pay(
      tokenA,
      paymentBody(payer, await resolve(tokenA, payer.customerId, ANA_PHONE), '10000000.01'),
    );
    expectProblem(above, 400, 'AMOUNT_ABOVE_LIMIT');
    expect(above.body.max_amount).toEqual({ currency: 'COP', value: '10000000.00' });
    expect(await balance(tokenA, payer.accountId)).toBe('20000000.00');
    // The resolution was not used: the maximum itself is paid with it.
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const at = await pay(tokenA, paymentBody(payer, resolutionId, '10000000.00'));
    expect([at.status, at.body.status]).toEqual([200, 'PENDING']);
    expect(await balance(tokenA, payer.accountId)).toBe('10000000.00');

    // Inbound too: no credit above it.
    const inbound = await api.request('POST', '/sandbox/payments/inbound', {
      token: tokenA,
      body: { key: payer.key, amount: { value: '10000000.01', currency: 'COP' } },
    });
    expectProblem(inbound, 400, 'AMOUNT_ABOVE_LIMIT');
    expect(await balance(tokenA, payer.accountId)).toBe('10000000.00');
  });
});

describe('one payment per resolution', () => {
  it('the same request answers the same payment (no second debit); another body is 409', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '500.00' });
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const body = paymentBody(payer, resolutionId, '100.00');
    const first = await pay(tokenA, body);
    // Once the network has answered, every replay answers the payment as it is: the same bytes.
    const settled = await answeredPayment(api, tokenA, first.body.id);
    expect(settled.body).toMatchObject({ id: first.body.id, status: 'SETTLED' });
    const again = await pay(tokenA, body);
    expect([again.status, again.text]).toEqual([200, settled.text]);
    // With an Idempotency-Key too (the key's own replay, or the resolution's rule underneath it).
    const keyed = await pay(tokenA, body, { 'idempotency-key': `pay-${resolutionId}` });
    expect([keyed.status, keyed.text]).toEqual([200, settled.text]);
    expect(await balance(tokenA, payer.accountId)).toBe('400.00');

    for (const other of [
      paymentBody(payer, resolutionId, '100.01'),
      paymentBody(payer, resolutionId, '100.00', { description: 'otro' }),
    ]) {
      const conflict = await pay(tokenA, other);
      expectProblem(conflict, 409, 'RESOLUTION_ALREADY_USED');
      expect(conflict.body.payment_id).toBe(first.body.id);
    }
    expect(await balance(tokenA, payer.accountId)).toBe('400.00');
  });

  it('25 concurrent requests create one payment and one debit, and all answer it', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '1000.00' });
    const payee = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
    const resolutionId = await resolve(tokenA, payer.customerId, payee.key);
    const body = paymentBody(payer, resolutionId, '250.00');
    const answers = await Promise.all(Array.from({ length: 25 }, () => pay(tokenA, body)));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
    expect(new Set(answers.map((a) => a.text)).size).toBe(1);
    expect(await balance(tokenA, payer.accountId)).toBe('750.00');
    expect(await balance(tokenB, payee.accountId)).toBe('250.00');
    const sent = await api.request('GET', `/v1/payments?customer_id=${payer.customerId}`, { token: tokenA });
    expect(sent.body.payments.map((p: any) => p.id)).toEqual([answers[0]!.body.id]);
    const received = await api.request('GET', `/v1/payments?customer_id=${payee.customerId}`, { token: tokenB });
    expect(received.body.pagination_info.total_elements).toBe(1);
  }, 60_000);
});

describe("paying one of our merchants' keys", () => {
  it("credits the merchant's account once its approval takes it, within the request; each client sees its own side", async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '300.00' });
    const payee = await merchantWithKey(api, tokenB, { availableBalance: '10.00', businessName: 'Panadería Sur SAS' });
    const resolutionId = await resolve(tokenA, payer.customerId, payee.key);
    const outbound = await pay(tokenA, paymentBody(payer, resolutionId, '45.30', { description: 'Pan' }));
    expect(outbound.status).toBe(200);
    expect(outbound.body).toMatchObject({
      status: 'SETTLED',
      direction: 'OUTBOUND',
      counterparty: {
        key: payee.key,
        owner: { identification_type: 'NIT', identification_number: payee.nit, business_name: 'Panadería Sur SAS' },
        account: { account_type: 'ORDINARY' },
      },
    });
    expect(outbound.body.settled_at).toBe(outbound.body.updated_at);
    expect(await balance(tokenA, payer.accountId)).toBe('254.70');
    expect(await balance(tokenB, payee.accountId)).toBe('55.30');

    const inbound = await api.request('GET', `/v1/payments?direction=INBOUND&account_id=${payee.accountId}`, {
      token: tokenB,
    });
    expect(inbound.body.pagination_info.total_elements).toBe(1);
    const [record] = inbound.body.payments;
    expect(record).toMatchObject({
      status: 'SETTLED',
      direction: 'INBOUND',
      customer_id: payee.customerId,
      account_id: payee.accountId,
      amount: { currency: 'COP', value: '45.30' },
      description: 'Pan',
      counterparty: {
        owner: { identification_type: 'NIT', identification_number: payer.nit, type: 'BUSINESS' },
        participant: { identification_number: '860000001' },
      },
    });
    expect(record.id).not.toBe(outbound.body.id);
    expect(record.resolution_id).toBeUndefined();
    expectProblem(await api.request('GET', `/v1/payments/${record.id}`, { token: tokenA }), 403, 'FORBIDDEN');
    // The payer's client does not list the payee's record.
    const own = await api.request('GET', `/v1/payments?account_id=${payee.accountId}`, { token: tokenA });
    expect(own.body.payments).toEqual([]);
  });

  it('a merchant that is INACTIVE cannot receive: the payment is REJECTED and no money moves', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '300.00' });
    const payee = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
    const resolutionId = await resolve(tokenA, payer.customerId, payee.key);
    expect((await setStatus(api, tokenB, payee.customerId, 'INACTIVE')).status).toBe(200);
    const rejected = await pay(tokenA, paymentBody(payer, resolutionId, '10.00'));
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejection_reason: 'PAYEE_INACTIVE' });
    expect(rejected.body.settled_at).toBeUndefined();
    expect(await balance(tokenA, payer.accountId)).toBe('300.00');
    expect(await balance(tokenB, payee.accountId)).toBe('0.00');
    // The resolution is used; once the merchant is active again, a new resolution pays it.
    expectProblem(await pay(tokenA, paymentBody(payer, resolutionId, '11.00')), 409, 'RESOLUTION_ALREADY_USED');
    await setStatus(api, tokenB, payee.customerId, 'ACTIVE');
    const paid = await pay(tokenA, paymentBody(payer, await resolve(tokenA, payer.customerId, payee.key), '10.00'));
    expect(paid.body.status).toBe('SETTLED');
    expect(await balance(tokenB, payee.accountId)).toBe('10.00');
  });
});

describe('refusals', () => {
  it('400 for a body that breaks the schema', async () => {
    const payer = await merchantWithKey(api, tokenA);
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const valid = paymentBody(payer, resolutionId, '1.00');
    for (const [body, field] of [
      [{ ...valid, amount: { value: '0.00', currency: 'COP' } }, 'amount.value'],
      [{ ...valid, amount: { value: '1.5', currency: 'COP' } }, 'amount.value'],
      [{ ...valid, amount: { value: '10000000000000.00', currency: 'COP' } }, 'amount.value'],
      [{ ...valid, amount: { value: 1, currency: 'COP' } }, 'amount.value'],
      [{ ...valid, amount: { value: '1.00', currency: 'USD' } }, 'amount.currency'],
      [{ ...valid, amount: { value: '1.00' } }, 'amount.currency'],
      [{ ...valid, resolution_id: 'nope' }, 'resolution_id'],
      [{ ...valid, description: '' }, 'description'],
      [{ ...valid, tip: '1.00' }, 'tip'],
    ] as const) {
      const answer = await pay(tokenA, body);
      expectProblem(answer, 400, 'VALIDATION_FAILED');
      expect(answer.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    const { amount: _amount, ...noAmount } = valid;
    expectProblem(await pay(tokenA, noAmount), 400, 'VALIDATION_FAILED');
    // Nothing was paid: the resolution still pays.
    expect((await pay(tokenA, valid)).body.status).toBe('PENDING');
  });

  it('404/403/400 for the resolution, the customer and the account', async () => {
    const payer = await merchantWithKey(api, tokenA);
    const other = await merchantWithKey(api, tokenA);
    const stranger = await merchantWithKey(api, tokenB);
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const strangers = await resolve(tokenB, stranger.customerId, ANA_PHONE);
    const body = paymentBody(payer, resolutionId, '1.00');
    expectProblem(await pay(tokenA, { ...body, resolution_id: UNKNOWN }), 404, 'NOT_FOUND');
    expectProblem(await pay(tokenA, { ...body, resolution_id: strangers }), 403, 'FORBIDDEN');
    const otherCustomer = await pay(tokenA, { ...body, customer_id: other.customerId, account_id: other.accountId });
    expectProblem(otherCustomer, 400, 'VALIDATION_FAILED');
    expect(otherCustomer.body.errors).toEqual([{ field: 'resolution_id', message: expect.any(String) }]);
    expectProblem(await pay(tokenA, { ...body, account_id: UNKNOWN }), 404, 'NOT_FOUND');
    expectProblem(await pay(tokenA, { ...body, account_id: stranger.accountId }), 403, 'FORBIDDEN');
    const notTheCustomers = await pay(tokenA, { ...body, account_id: other.accountId });
    expectProblem(notTheCustomers, 400, 'VALIDATION_FAILED');
    expect(notTheCustomers.body.errors).toEqual([
      { field: 'account_id', message: 'is not an account of the customer' },
    ]);
    // Client B cannot pay with client A's resolution, even naming A's customer.
    expectProblem(await pay(tokenB, body), 403, 'FORBIDDEN');
    expect((await pay(tokenA, body)).status).toBe(200);
  });

  it('400 INSUFFICIENT_FUNDS writes nothing; the whole balance can be paid, not a cent more', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '80.00' });
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    const account = await api.request('GET', `/v1/accounts/${payer.accountId}`, { token: tokenA });
    expectProblem(await pay(tokenA, paymentBody(payer, resolutionId, '80.01')), 400, 'INSUFFICIENT_FUNDS');
    // No payment, and the account as it was (balance and updated_at); the resolution still pays.
    const payments = await api.request('GET', `/v1/payments?customer_id=${payer.customerId}`, { token: tokenA });
    expect(payments.body.payments).toEqual([]);
    expect((await api.request('GET', `/v1/accounts/${payer.accountId}`, { token: tokenA })).text).toBe(account.text);
    expect((await pay(tokenA, paymentBody(payer, resolutionId, '80.00'))).body.status).toBe('PENDING');
    expect(await balance(tokenA, payer.accountId)).toBe('0.00');
    expectProblem(
      await pay(tokenA, paymentBody(payer, await resolve(tokenA, payer.customerId, ANA_PHONE), '0.01')),
      400,
      'INSUFFICIENT_FUNDS',
    );
  });

  it('a payment moves the balance, not the account: its updated_at and its place in the lists by update stay', async () => {
    const payer = await merchantWithKey(api, tokenA, { availableBalance: '80.00' });
    const before = await api.request('GET', `/v1/accounts/${payer.accountId}`, { token: tokenA });
    const byUpdate = `/v1/accounts?customer_id=${payer.customerId}&order_key=updated_at&order_direction=desc`;
    const listed = await api.request('GET', byUpdate, { token: tokenA });
    const payment = await pay(tokenA, paymentBody(payer, await resolve(tokenA, payer.customerId, ANA_PHONE), '30.00'));
    expect(payment.status).toBe(200);
    const after = await api.request('GET', `/v1/accounts/${payer.accountId}`, { token: tokenA });
    expect(after.body.available_balance.value).toBe('50.00');
    // The balance is not a change of the account (docs/data-model.md): 16 write units a payment less.
    expect(after.body.updated_at).toBe(before.body.updated_at);
    const again = await api.request('GET', byUpdate, { token: tokenA });
    expect(again.body.accounts.map((a: { id: string }) => a.id)).toEqual(
      listed.body.accounts.map((a: { id: string }) => a.id),
    );
    expect(again.body.accounts[0].updated_at).toBe(listed.body.accounts[0].updated_at);
  });

  it('400 CUSTOMER_INACTIVE for an inactive payer; 400 for paying the account the key pays into', async () => {
    const payer = await merchantWithKey(api, tokenA);
    const toSelf = await resolve(tokenA, payer.customerId, payer.key);
    const own = await pay(tokenA, paymentBody(payer, toSelf, '1.00'));
    expectProblem(own, 400, 'VALIDATION_FAILED');
    expect(own.body.errors[0].field).toBe('account_id');
    // Another account of the same customer can receive through the key.
    const [number] = accountNumbers(1);
    await api.request('POST', '/sandbox/sponsor-bank/merchants', {
      token: tokenA,
      body: {
        identification_type: 'NIT',
        identification_number: payer.nit,
        business_name: payer.businessName,
        accounts: [number],
      },
    });
    const second = await linkAccount(api, tokenA, payer.customerId, number!);
    expect(second.status).toBe(200);
    const fromSecond = await pay(tokenA, { ...paymentBody(payer, toSelf, '1.00'), account_id: second.body.id });
    expect(fromSecond.body.status).toBe('SETTLED');

    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    await setStatus(api, tokenA, payer.customerId, 'INACTIVE');
    expectProblem(await pay(tokenA, paymentBody(payer, resolutionId, '1.00')), 400, 'CUSTOMER_INACTIVE');
  });

  it('403 INSUFFICIENT_SCOPE without breb/payments.write', async () => {
    const payer = await merchantWithKey(api, tokenA);
    const resolutionId = await resolve(tokenA, payer.customerId, ANA_PHONE);
    expectProblem(await pay(readonly, paymentBody(payer, resolutionId, '1.00')), 403, 'INSUFFICIENT_SCOPE');
    const readOnlyA = await api.token('sandbox-client-a', 'breb/payments.read');
    expectProblem(await pay(readOnlyA, paymentBody(payer, resolutionId, '1.00')), 403, 'INSUFFICIENT_SCOPE');
    expect((await api.request('GET', '/v1/payments', { token: readOnlyA })).status).toBe(200);
    const noPayments = await api.token('sandbox-client-a', 'breb/keys.read');
    expectProblem(await api.request('GET', '/v1/payments', { token: noPayments }), 403, 'INSUFFICIENT_SCOPE');
  });
});

describe('listing payments', () => {
  it('filters by customer_id, account_id, direction and status, with the shared pagination', async () => {
    // Client B's payments are only those of merchants created here (earlier tests' are other customers').
    const payer = await merchantWithKey(api, tokenB, { availableBalance: '100.00' });
    const payee = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
    const idle = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
    const ids: string[] = [];
    for (const [key, value] of [
      [ANA_PHONE, '1.00'],
      [payee.key, '2.00'],
      [ANA_PHONE, '3.00'],
    ] as const) {
      const answer = await pay(tokenB, paymentBody(payer, await resolve(tokenB, payer.customerId, key), value));
      ids.push(answer.body.id);
    }
    const toIdle = await resolve(tokenB, payer.customerId, idle.key);
    await setStatus(api, tokenB, idle.customerId, 'INACTIVE');
    const rejected = await pay(tokenB, paymentBody(payer, toIdle, '4.00'));
    expect(rejected.body.status).toBe('REJECTED');
    // The payments to the other participant settle a moment later.
    for (const id of ids) expect((await answeredPayment(api, tokenB, id)).body.status).toBe('SETTLED');

    const list = async (query: Record<string, string>) =>
      (await walkAll(api, tokenB, '/v1/payments', 'payments', { page_size: 2, ...query })).items.map((p: any) => p.id);
    const outbound = await list({ customer_id: payer.customerId });
    expect(outbound).toEqual([...ids, rejected.body.id]);
    expect(await list({ customer_id: payer.customerId, order_direction: 'desc' })).toEqual([...outbound].reverse());
    const inbound = await list({ customer_id: payee.customerId });
    expect(inbound).toHaveLength(1);
    expect(await list({ account_id: payee.accountId, direction: 'INBOUND' })).toEqual(inbound);
    expect(await list({ account_id: payer.accountId, direction: 'INBOUND' })).toEqual([]);
    expect(await list({ customer_id: payer.customerId, status: 'REJECTED' })).toEqual([rejected.body.id]);
    expect(await list({ customer_id: payer.customerId, status: 'SETTLED', direction: 'OUTBOUND' })).toEqual(ids);
    expect(await list({ qr_code_reference: 'CO.COM.RBM.TRXIDPNONE1' })).toEqual([]);

    const page = await api.request('GET', `/v1/payments?customer_id=${payer.customerId}&page_size=3`, {
      token: tokenB,
    });
    expect(page.body.pagination_info).toMatchObject({ total_elements: 4, total_pages: 2, current_page: 1 });
    const read = await api.request('GET', `/v1/payments/${ids[1]}`, { token: tokenB });
    expect(page.body.payments[1]).toEqual(read.body);
  });

  it('rejects bad filters (400)', async () => {
    for (const query of [
      '?direction=SIDEWAYS',
      '?status=DONE',
      '?customer_id=nope',
      '?qr_code_reference=a%20b',
      '?unknown=1',
      '?page_size=101',
    ]) {
      expectProblem(await api.request('GET', `/v1/payments${query}`, { token: tokenA }), 400, 'VALIDATION_FAILED');
    }
  });
});

describe('the sandbox shopper paying a QR code', () => {
  let reference = 0;
  async function qrCode(token: string, merchant: MerchantWithKey, extra: Record<string, unknown>): Promise<string> {
    const answer = await api.request('POST', '/v1/qrcodes', {
      token,
      body: {
        key_id: merchant.keyId,
        customer_id: merchant.customerId,
        channel: 'POS',
        qr_code_reference: `QR${process.pid % 10000}X${++reference}`,
        ...extra,
      },
    });
    if (answer.status !== 200) throw new Error(`QR code not created: ${answer.status} ${answer.text}`);
    return answer.body.id;
  }
  const dynamicCode = {
    type: 'DYNAMIC',
    amount: { value: '119000.00', currency: 'COP' },
    vat: { vat_type: 'FIXED', vat_value: '19000.00', vat_base_value: '100000.00' },
    inc: { inc_type: 'WALLET' },
    additional_info: { transaction_purpose: '00', terminal_label: 'CAJA01' },
  };
  const payCode = (token: string, id: string, body: Record<string, unknown> = {}) =>
    api.request('POST', `/sandbox/qrcodes/${id}/pay`, { token, body });

  it('a DYNAMIC code: credits the merchant, records the INBOUND payment with its reference, then PAID', async () => {
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '1000.00' });
    const id = await qrCode(tokenA, merchant, dynamicCode);
    const code = await api.request('GET', `/v1/qrcodes/${id}`, { token: tokenA });
    const paid = await payCode(tokenA, id);
    expect(paid.status).toBe(200);
    expect(paid.body).toMatchObject({
      status: 'SETTLED',
      direction: 'INBOUND',
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      amount: { currency: 'COP', value: '119000.00' },
      qr_code_id: id,
      qr_code_reference: code.body.qr_code_reference,
      counterparty: {
        // The shopper as its bank names it in the simulator's credit (docs/network.md, "Credits").
        owner: { identification_type: 'CC', identification_number: '1020304050', name: 'Ana María Gómez Pérez' },
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
      },
    });
    expect(code.body.qr_code_reference).toMatch(/^CO\.COM\.RBM\.TRXIDPQR/);
    expect(await balance(tokenA, merchant.accountId)).toBe('120000.00');
    const after = await api.request('GET', `/v1/qrcodes/${id}`, { token: tokenA });
    expect(after.body.status).toBe('PAID');
    expect(
      (await api.request('GET', '/v1/qrcodes?status=PAID', { token: tokenA })).body.qr_codes.map((c: any) => c.id),
    ).toContain(id);

    const again = await payCode(tokenA, id);
    expectProblem(again, 409, 'QR_CODE_STATUS_CONFLICT');
    expect(again.body.qr_code_status).toBe('PAID');
    expect(await balance(tokenA, merchant.accountId)).toBe('120000.00');
    expectProblem(await api.request('DELETE', `/v1/qrcodes/${id}`, { token: tokenA }), 409, 'QR_CODE_STATUS_CONFLICT');

    const byReference = await api.request(
      'GET',
      `/v1/payments?qr_code_reference=${encodeURIComponent(code.body.qr_code_reference)}`,
      { token: tokenA },
    );
    expect(byReference.body.payments).toEqual([paid.body]);
    expect((await api.request('GET', `/v1/payments/${paid.body.id}`, { token: tokenA })).text).toBe(paid.text);
  });

  it('a static code is paid many times: what the payer types, plus the tip the payer chooses', async () => {
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '0.00' });
    const id = await qrCode(tokenA, merchant, { type: 'STATIC', tip: { tip_type: 'REQUEST' } });
    const first = await payCode(tokenA, id, { amount: { value: '30000.00', currency: 'COP' } });
    const second = await payCode(tokenA, id, {
      amount: { value: '12000.00', currency: 'COP' },
      tip: { value: '1200.00', currency: 'COP' },
    });
    expect([first.status, first.body.amount.value, first.body.tip]).toEqual([200, '30000.00', undefined]);
    expect([second.status, second.body.amount.value, second.body.tip]).toEqual([
      200,
      '13200.00',
      { currency: 'COP', value: '1200.00' },
    ]);
    expect(await balance(tokenA, merchant.accountId)).toBe('43200.00');
    expect((await api.request('GET', `/v1/qrcodes/${id}`, { token: tokenA })).body.status).toBe('ACTIVE');
  });

  it('refuses what the code does not allow (400), another client (403), unknown (404), deleted (409)', async () => {
    const merchant = await merchantWithKey(api, tokenA);
    const dynamic = await qrCode(tokenA, merchant, dynamicCode);
    const fixed = await qrCode(tokenA, merchant, { type: 'STATIC', tip: { tip_type: 'FIXED', tip_value: '500.00' } });
    const amount = { value: '10.00', currency: 'COP' };
    for (const [id, body, field] of [
      [dynamic, { amount }, 'amount'],
      [fixed, {}, 'amount'],
      [fixed, { amount, tip: amount }, 'tip'],
      [fixed, { amount: { value: '10', currency: 'COP' } }, 'amount.value'],
      [fixed, { amount, payer: 'x' }, 'payer'],
    ] as const) {
      const answer = await payCode(tokenA, id, body);
      expectProblem(answer, 400, 'VALIDATION_FAILED');
      expect(answer.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expectProblem(await payCode(tokenB, dynamic), 403, 'FORBIDDEN');
    expectProblem(await payCode(tokenA, UNKNOWN), 404, 'NOT_FOUND');
    // The code's FIXED tip is added to what a static code's payer types.
    expect((await payCode(tokenA, fixed, { amount })).body.amount.value).toBe('510.00');

    expect((await api.request('DELETE', `/v1/qrcodes/${dynamic}`, { token: tokenA })).status).toBe(200);
    const deleted = await payCode(tokenA, dynamic);
    expectProblem(deleted, 409, 'QR_CODE_STATUS_CONFLICT');
    expect(deleted.body.qr_code_status).toBe('DELETED');
  });

  it('10 concurrent payments of a DYNAMIC code: one is paid, nine are 409, one credit', async () => {
    const merchant = await merchantWithKey(api, tokenA, { availableBalance: '0.00' });
    const id = await qrCode(tokenA, merchant, dynamicCode);
    const answers = await Promise.all(Array.from({ length: 10 }, () => payCode(tokenA, id)));
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array(9).fill(409)]);
    expect(await balance(tokenA, merchant.accountId)).toBe('119000.00');
  }, 60_000);
});
