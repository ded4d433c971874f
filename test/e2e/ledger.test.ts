/**
 * GET /v1/accounts/{id}/movements and GET /v1/accounts/{id}/statements/{date} through the real local
 * server with real tokens (docs/reconciliation.md): a fresh account's movements add up to its balance,
 * today's statement ties out and closes at the balance, another client's account is 404.
 */
import { walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { expectProblem } from '../support/problems';
import { merchantWithKey, resolvedKey } from '../support/merchants';
import { answeredPayment, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory). */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };

let api: TestApi;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  api = await startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS });
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
});
afterAll(() => api.stop());

const cents = (value: string): number => Math.round(Number(value) * 100);
/** Today in Colombia (UTC-5 all year). */
const colombiaToday = (): string => new Date(Date.now() - 5 * 60 * 60 * 1000).toISOString().slice(0, 10);

it("a fresh account's movements add up to its balance; today's statement ties out and closes at it", async () => {
  const merchant = await merchantWithKey(api, tokenA, { availableBalance: '500.00' });
  const paid = await api.request('POST', '/v1/payments', {
    token: tokenA,
    body: {
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      resolution_id: await resolvedKey(api, tokenA, merchant.customerId, ANA_PHONE),
      amount: { value: '120.50', currency: 'COP' },
    },
  });
  expect(paid.status).toBe(200);
  // .99: the sandbox network rejects it, and its hold comes back as a movement of its own.
  const rejected = await api.request('POST', '/v1/payments', {
    token: tokenA,
    body: {
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      resolution_id: await resolvedKey(api, tokenA, merchant.customerId, ANA_PHONE),
      amount: { value: '10.99', currency: 'COP' },
    },
  });
  await answeredPayment(api, tokenA, paid.body.id);
  await answeredPayment(api, tokenA, rejected.body.id);
  const received = await api.request('POST', '/sandbox/payments/inbound', {
    token: tokenA,
    body: { key: merchant.key, amount: { value: '75.25', currency: 'COP' } },
  });
  expect(received.status).toBe(200);

  const { items: movements } = await walkAll(api, tokenA, `/v1/accounts/${merchant.accountId}/movements`, 'movements', {
    page_size: 2,
  });
  expect(movements.map((m) => [m.kind, m.amount.value])).toEqual([
    ['OPENING_BALANCE', '500.00'],
    ['PAYMENT', '-120.50'],
    ['PAYMENT', '-10.99'],
    ['HOLD_RELEASE', '10.99'],
    ['PAYMENT', '75.25'],
  ]);
  expect(movements[1]!.payment_id).toBe(paid.body.id);
  expect(new Set(movements.map((m) => m.id)).size).toBe(5);
  const account = await api.request('GET', `/v1/accounts/${merchant.accountId}`, { token: tokenA });
  const balance = cents(account.body.available_balance.value);
  expect(movements.reduce((sum, m) => sum + cents(m.amount.value), 0)).toBe(balance);

  const today = colombiaToday();
  const statement = await api.request('GET', `/v1/accounts/${merchant.accountId}/statements/${today}`, {
    token: tokenA,
  });
  expect(statement.status).toBe(200);
  expect(statement.body).toEqual({
    account_id: merchant.accountId,
    date: today,
    opening_balance: { currency: 'COP', value: '0.00' },
    closing_balance: account.body.available_balance,
    credits: { count: 3, amount: { currency: 'COP', value: '586.24' } },
    debits: { count: 2, amount: { currency: 'COP', value: '131.49' } },
  });
  const { opening_balance, credits, debits, closing_balance } = statement.body;
  expect(cents(opening_balance.value) + cents(credits.amount.value) - cents(debits.amount.value)).toBe(
    cents(closing_balance.value),
  );
  // Today's date filter lists the same movements.
  const { items: todays } = await walkAll(api, tokenA, `/v1/accounts/${merchant.accountId}/movements`, 'movements', {
    created_from: new Date(Date.parse(`${today}T05:00:00.000Z`)).toISOString(),
  });
  expect(todays).toHaveLength(5);
});

it("another client's account is 404 for both; a date that is no day, or a day to come, is 400", async () => {
  const merchant = await merchantWithKey(api, tokenA, { availableBalance: '10.00' });
  for (const path of [
    `/v1/accounts/${merchant.accountId}/movements`,
    `/v1/accounts/${merchant.accountId}/statements/${colombiaToday()}`,
  ]) {
    expectProblem(await api.request('GET', path, { token: tokenB }), 404, 'NOT_FOUND');
  }
  for (const date of ['2026-02-30', 'yesterday', '2999-01-01']) {
    const answer = await api.request('GET', `/v1/accounts/${merchant.accountId}/statements/${date}`, { token: tokenA });
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(answer.body.errors[0].field).toBe('date');
  }
  const unordered = await api.request('GET', `/v1/accounts/${merchant.accountId}/movements?order_key=updated_at`, {
    token: tokenA,
  });
  expectProblem(unordered, 400, 'VALIDATION_FAILED');
});
