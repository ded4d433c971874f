/**
 * GET /v1/payment-totals through the local server: the figures kept at write time equal the payments
 * the API lists, by Bogotá day, direction and status, for the tenant and for each merchant; an answer
 * moves a payment's figures from PENDING to what it became; a period is checked before it is read.
 */
import { colombiaDay } from '../../shared/calendar/colombia-days';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import { expectProblem } from '../support/problems';
import { answeredPayment, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';

let api: TestApi;
let token: string;
let first: MerchantWithKey;
let second: MerchantWithKey;
/** The Bogotá day the test's payments were made on (read off their created_at). */
let day: string;

type Figures = Record<string, Record<string, { count: number; amount: { value: string } }>>;

const totals = async (query: Record<string, string>) => {
  const answer = await api.request('GET', `/v1/payment-totals?${new URLSearchParams(query)}`, { token });
  expect(answer.status).toBe(200);
  return answer.body as { totals: Figures; days: ({ date: string } & Figures)[] };
};

/** The non-zero figures of an answer part, as `direction status: count amount`. */
const nonZero = (figures: Figures): string[] =>
  Object.entries(figures)
    .filter(([name]) => name !== 'date')
    .flatMap(([direction, statuses]) =>
      Object.entries(statuses)
        .filter(([, figure]) => figure.count !== 0 || figure.amount.value !== '0.00')
        .map(([status, figure]) => `${direction} ${status}: ${figure.count} ${figure.amount.value}`),
    );

async function received(merchant: MerchantWithKey, value: string): Promise<string> {
  const answer = await api.request('POST', '/sandbox/payments/inbound', {
    token,
    body: { key: merchant.key, amount: { value, currency: 'COP' } },
  });
  expect(answer.status).toBe(200);
  return answer.body['created_at'] as string;
}

/** A payment from the merchant to the sandbox's Ana María, once the network answered it. */
async function sent(merchant: MerchantWithKey, value: string): Promise<string> {
  const resolution = await api.request('POST', '/v1/resolve-key', {
    token,
    body: { customer_id: merchant.customerId, key: { key_type: 'PHONE', key_value: '3001234567' } },
  });
  const payment = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      resolution_id: resolution.body['id'],
      amount: { value, currency: 'COP' },
    },
  });
  expect(payment.status).toBe(200);
  const answered = await answeredPayment(api, token, payment.body['id'] as string);
  expect(answered.body['status']).toBe(value.endsWith('.99') ? 'REJECTED' : 'SETTLED');
  return payment.body['created_at'] as string;
}

beforeAll(async () => {
  api = await startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS });
  token = await api.token('sandbox-client-a');
  first = await merchantWithKey(api, token, { availableBalance: '1000.00' });
  second = await merchantWithKey(api, token, { availableBalance: '1000.00' });
  const made = [
    await received(first, '30.00'),
    await received(second, '12.50'),
    await sent(first, '10.00'),
    // The sandbox's network rejects every amount ending in .99.
    await sent(first, '5.99'),
  ];
  day = colombiaDay(made[0]!);
  if (made.some((at) => colombiaDay(at) !== day))
    throw new Error('The payments straddled midnight in Bogotá: run again');
}, 60_000);

afterAll(() => api.stop());

describe('GET /v1/payment-totals', () => {
  test("the tenant's day: received and sent by status, the answers moved out of PENDING", async () => {
    const answer = await totals({ from: day, to: day });
    expect(answer.days.map((d) => d.date)).toEqual([day]);
    const expected = ['received settled: 2 42.50', 'sent settled: 1 10.00', 'sent rejected: 1 5.99'];
    expect(nonZero(answer.days[0]!).sort()).toEqual(expected.sort());
    expect(nonZero(answer.totals).sort()).toEqual(expected.sort());
  });

  test("each merchant's day holds its own payments only", async () => {
    const ofFirst = await totals({ from: day, to: day, customer_id: first.customerId });
    expect(nonZero(ofFirst.totals).sort()).toEqual(
      ['received settled: 1 30.00', 'sent settled: 1 10.00', 'sent rejected: 1 5.99'].sort(),
    );
    const ofSecond = await totals({ from: day, to: day, customer_id: second.customerId.toUpperCase() });
    expect(nonZero(ofSecond.totals)).toEqual(['received settled: 1 12.50']);
  });

  test('equal the payments the list answers, status by status', async () => {
    const list = await api.request('GET', '/v1/payments?page_size=100', { token });
    const fromList = new Map<string, { count: number; cents: number }>();
    for (const payment of list.body['payments'] as { direction: string; status: string; amount: { value: string } }[]) {
      const name = `${payment.direction === 'INBOUND' ? 'received' : 'sent'} ${payment.status.toLowerCase()}`;
      const before = fromList.get(name) ?? { count: 0, cents: 0 };
      fromList.set(name, {
        count: before.count + 1,
        cents: before.cents + Math.round(Number(payment.amount.value) * 100),
      });
    }
    const listed = [...fromList].map(([name, { count, cents }]) => `${name}: ${count} ${(cents / 100).toFixed(2)}`);
    expect(nonZero((await totals({ from: day, to: day })).totals).sort()).toEqual(listed.sort());
  });

  test('every day of the period, the days without payments as zeros', async () => {
    const from = new Date(Date.parse(`${day}T00:00:00Z`) - 2 * 86_400_000).toISOString().slice(0, 10);
    const answer = await totals({ from, to: day });
    expect(answer.days.map((d) => d.date)).toEqual([from, answer.days[1]!.date, day]);
    expect(nonZero(answer.days[0]!)).toEqual([]);
    expect(nonZero(answer.days[1]!)).toEqual([]);
    expect(answer.days[0]!['received']!['settled']).toEqual({ count: 0, amount: { currency: 'COP', value: '0.00' } });
  });

  test('a period is checked: its order, its length, its start, its days', async () => {
    const ask = (query: Record<string, string>) =>
      api.request('GET', `/v1/payment-totals?${new URLSearchParams(query)}`, { token });
    expectProblem(await ask({ from: day, to: '2020-01-01' }), 400, 'VALIDATION_FAILED', 'to before from');
    expectProblem(await ask({ from: '2026-01-01', to: '2026-04-03' }), 400, 'VALIDATION_FAILED', '93 days');
    expectProblem(await ask({ from: '2999-01-01', to: '2999-01-02' }), 400, 'VALIDATION_FAILED', 'days to come');
    expectProblem(await ask({ from: '2026-02-30', to: '2026-03-01' }), 400, 'VALIDATION_FAILED', 'no such day');
    expectProblem(await ask({ from: day }), 400, 'VALIDATION_FAILED', 'no end');
    expect((await ask({ from: '2026-01-01', to: '2026-04-02' })).status).toBe(200);
  });
});
