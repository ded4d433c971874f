/**
 * The stage's networkLimits (docs/network.md, "Limits"): the most one credit from the network may
 * carry, and the most the network may credit one merchant in a Bogotá day. Through the real local
 * server in connector mode, credits signed by the fake bank (tools/fake-bank.ts): here COP 100.00 a
 * credit and COP 250.00 a merchant a day.
 */
import { FakeBank } from '../../tools/fake-bank';
import { availableBalance } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey } from '../support/merchants';
import { WebhookReceiver } from '../support/webhook-receiver';

let api: TestApi;
let bank: FakeBank;
let approvals: WebhookReceiver;
let token: string;

beforeAll(async () => {
  bank = await FakeBank.start(() => api.url);
  api = await startTestApi({
    network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
    networkLimits: { perCreditCents: 100_00, perMerchantPerDayCents: 250_00 },
  });
  token = await api.token('sandbox-client-a');
  approvals = await WebhookReceiver.start();
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
  await approvals.stop();
});

let sequence = 0;
const credit = (key: object, value: string, description = 'Almuerzo') =>
  bank.credit(api.url, {
    end_to_end_id: `LIM${process.pid}T${Date.now()}N${++sequence}`,
    amount: { value, currency: 'COP' },
    creditor: { key },
    debtor: { name: 'Ana', participant: { name: 'Banco Ejemplo', identification_number: '860000002' } },
    description,
  });
const statusOf = async (answer: Promise<{ body: any }>) => {
  const { body } = await answer;
  return body.status === 'ACCEPTED' ? 'ACCEPTED' : `REJECTED ${body.reason}`;
};

it("a credit over the per-credit cap, or past the merchant's room for the day, is REJECTED and credits nothing", async () => {
  const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
  const other = await merchantWithKey(api, token, { availableBalance: '0.00' });
  expect(await statusOf(credit(payee.key, '100.01'))).toBe('REJECTED AMOUNT_ABOVE_LIMIT');
  expect(await statusOf(credit(payee.key, '100.00'))).toBe('ACCEPTED');
  expect(await statusOf(credit(payee.key, '100.00'))).toBe('ACCEPTED');
  expect(await statusOf(credit(payee.key, '50.01'))).toBe('REJECTED DAILY_LIMIT_REACHED');
  expect(await statusOf(credit(payee.key, '50.00'))).toBe('ACCEPTED');
  expect(await statusOf(credit(payee.key, '0.01'))).toBe('REJECTED DAILY_LIMIT_REACHED');
  expect(await availableBalance(api, token, payee.accountId)).toBe('250.00');
  // Each merchant has its own room.
  expect(await statusOf(credit(other.key, '100.00'))).toBe('ACCEPTED');
});

it("a credit the merchant refuses gives its room back; racing credits never pass the day's cap", async () => {
  const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
  const settings = await api.request('PUT', '/v1/settings/inbound-approval', {
    token,
    body: { callback_url: `${approvals.url}/a`, enabled: true, auto_approve_on_error: false },
  });
  expect(settings.status).toBe(200);
  approvals.behave('/a', (event) => ({
    status: 200,
    body: JSON.stringify({ accept: event.data.description !== 'no' }),
  }));
  expect(await statusOf(credit(payee.key, '100.00', 'no'))).toBe('REJECTED APPROVAL_REFUSED');
  expect(await statusOf(credit(payee.key, '100.00', 'no'))).toBe('REJECTED APPROVAL_REFUSED');

  // 10 credits of 30.00 at once: 8 fit in 250.00, whatever their order.
  const raced = await Promise.all(Array.from({ length: 10 }, () => statusOf(credit(payee.key, '30.00'))));
  expect(raced.filter((status) => status === 'ACCEPTED')).toHaveLength(8);
  expect(raced.filter((status) => status === 'REJECTED DAILY_LIMIT_REACHED')).toHaveLength(2);
  expect(await availableBalance(api, token, payee.accountId)).toBe('240.00');
  await api.request('PUT', '/v1/settings/inbound-approval', {
    token,
    body: { callback_url: `${approvals.url}/a`, enabled: false, auto_approve_on_error: false },
  });
});
