/**
 * Returns (docs/network.md, "Returns"; docs/refunds.md): a refund of a payment that came from the
 * network goes back as a RETURN order naming the original credit (`original_end_to_end_id`) and a
 * creditor without an account. Through the real local server in connector mode against the fake bank
 * (tools/fake-bank.ts), which checks every order against the schema our API publishes
 * (`GET /network/openapi.json`), routes a return to the debtor of the credit it sent, refuses one of a
 * credit it never sent, and answers on our status route.
 */
import { FakeBank } from '../../tools/fake-bank';
import { PublishedOrderSchema } from '../../tools/fake-bank-orders';
import { availableBalance } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey } from '../support/merchants';
import { answeredRefund } from '../support/settlement';

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory): another participant. */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const ANA_AS_DEBTOR = {
  name: 'Ana María Gómez Pérez',
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  identification_type: 'CC',
  identification_number: '1020304050',
};

let api: TestApi;
let bank: FakeBank;
let token: string;

beforeAll(async () => {
  bank = await FakeBank.start(() => api.url);
  api = await startTestApi({
    network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
    sweepIntervalMs: 1_000,
    sweepGraceMs: 3_000,
  });
  token = await api.token('sandbox-client-a');
});
afterEach(() => {
  // Every order of every test, as the schema our API publishes describes it.
  expect(bank.invalidOrders.map(({ order, errors }) => [order.body.transfer_id, errors])).toEqual([]);
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
});

let sequence = 0;
/** A credit of `value` from Ana at Banco Ejemplo to `key`, under an end_to_end_id of its own. */
const creditOf = (key: object, value: string) => ({
  end_to_end_id: `RET${process.pid}T${Date.now()}N${++sequence}`,
  amount: { value, currency: 'COP' },
  creditor: { key },
  debtor: ANA_AS_DEBTOR,
  description: 'Almuerzo',
});

const refund = (paymentId: string, value: string, key: string) =>
  api.request('POST', `/v1/payments/${paymentId}/refunds`, {
    token,
    headers: { 'Idempotency-Key': key },
    body: { amount: { value, currency: 'COP' }, reason: 'Producto devuelto' },
  });

const balanceOf = (accountId: string) => availableBalance(api, token, accountId);

it("a refund of a network credit is a RETURN of it, routed by the bank to the credit's debtor, and settles", async () => {
  const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
  const sent = creditOf(payee.key, '40.00');
  const credited = await bank.credit(api.url, sent);
  expect(credited.body).toEqual({ status: 'ACCEPTED', payment_id: expect.any(String) });

  const asked = await refund(credited.body.payment_id, '15.00', `ret-${sent.end_to_end_id}`);
  expect([asked.status, asked.body.status]).toEqual([200, 'PENDING']);
  // Taken: no 400 for its schema, no 422 for its original.
  const { order, status } = await bank.answeredOrder(asked.body.id);
  expect([status, order.signed]).toEqual([202, true]);
  expect(order.body).toEqual({
    type: 'transfer.requested',
    kind: 'RETURN',
    transfer_id: asked.body.id,
    end_to_end_id: expect.stringMatching(/^[A-Za-z0-9]{1,35}$/),
    original_end_to_end_id: sent.end_to_end_id,
    amount: { value: '15.00', currency: 'COP' },
    debtor: {
      customer_id: payee.customerId,
      account_id: payee.accountId,
      participant: { name: 'Banco Patrocinador S.A.', identification_number: '860000001' },
    },
    // The payer as its bank named it in the credit: no account, the network routes by the credit.
    creditor: {
      owner: { identification_type: 'CC', identification_number: '1020304050', name: 'Ana María Gómez Pérez' },
      participant: ANA_AS_DEBTOR.participant,
    },
    description: 'Producto devuelto',
    created_at: asked.body.created_at,
  });
  // Routed back to the credit's debtor.
  expect(bank.returnOf(asked.body.id)).toMatchObject({
    original: { end_to_end_id: sent.end_to_end_id },
    to: ANA_AS_DEBTOR,
    amount: { value: '15.00', currency: 'COP' },
  });
  expect(await balanceOf(payee.accountId)).toBe('25.00');

  const settled = await bank.callBack(api.url, asked.body.id, { status: 'SETTLED' });
  expect(settled.body).toMatchObject({ transfer_id: asked.body.id, status: 'SETTLED', applied: true });
  expect((await api.request('GET', `/v1/refunds/${asked.body.id}`, { token })).body.status).toBe('SETTLED');
  expect(await balanceOf(payee.accountId)).toBe('25.00');
}, 30_000);

it("a payment's order is a TRANSFER, its creditor's account named, valid as published", async () => {
  const payer = await merchantWithKey(api, token, { availableBalance: '20.00' });
  const paid = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: await resolvedKey(api, token, payer.customerId, ANA_PHONE),
      amount: { value: '20.00', currency: 'COP' },
    },
  });
  const { order, status } = await bank.answeredOrder(paid.body.id);
  expect(status).toBe(202);
  expect(order.body).toMatchObject({ kind: 'TRANSFER', creditor: paid.body.counterparty });
  expect(order.body.creditor.account).toEqual(expect.objectContaining({ account_number: expect.any(String) }));
  expect(order.body.original_end_to_end_id).toBeUndefined();
  expect(bank.returnOf(paid.body.id)).toBeUndefined();
});

it('a return of a credit the bank never sent is refused: the refund ends REJECTED NETWORK_REFUSED_ORDER', async () => {
  // The sandbox's simulator credited it, not this bank: the bank knows no such original.
  const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
  const simulated = await api.request('POST', '/sandbox/payments/inbound', {
    token,
    body: { key: payee.key, amount: { value: '9.00', currency: 'COP' } },
  });
  expect([simulated.status, simulated.body.status]).toEqual([200, 'SETTLED']);
  const asked = await refund(simulated.body.id, '9.00', `ret-${simulated.body.id}`);
  const { order, status } = await bank.answeredOrder(asked.body.id);
  expect([status, order.body.kind, order.body.original_end_to_end_id]).toEqual([
    422,
    'RETURN',
    simulated.body.end_to_end_id,
  ]);
  const answered = await answeredRefund(api, token, asked.body.id);
  expect(answered.body).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REFUSED_ORDER' });
  expect(bank.returnOf(asked.body.id)).toBeUndefined();
  // The hold given back; the refund's order was refused once, not sent again.
  expect(await balanceOf(payee.accountId)).toBe('9.00');
  expect(bank.orders.filter((received) => received.body.transfer_id === asked.body.id)).toHaveLength(1);
}, 30_000);

it('partial refunds of one credit are each a return of it, routed to its debtor', async () => {
  const payee = await merchantWithKey(api, token, { availableBalance: '100.00' });
  const sent = creditOf(payee.key, '10.00');
  const credited = await bank.credit(api.url, sent);
  const first = await refund(credited.body.payment_id, '6.00', `ret-a-${sent.end_to_end_id}`);
  expect((await bank.answeredOrder(first.body.id)).status).toBe(202);
  expect(bank.returnOf(first.body.id)).toMatchObject({ original: { end_to_end_id: sent.end_to_end_id } });
  // What is left of the payment, 4.00 of its 10.00: the bank routes that too.
  const rest = await refund(credited.body.payment_id, '4.00', `ret-b-${sent.end_to_end_id}`);
  expect((await bank.answeredOrder(rest.body.id)).status).toBe(202);
  expect(bank.returnOf(rest.body.id)).toMatchObject({ original: { end_to_end_id: sent.end_to_end_id } });
}, 30_000);

it("the order our API sent before returns, a refund's order without kind nor account, is not the published schema's", async () => {
  const schema = new PublishedOrderSchema(() => api.url);
  const before = {
    type: 'transfer.requested',
    transfer_id: '3b8c1f6e-6f7a-4c59-9a51-000000000004',
    end_to_end_id: 'E3b8c1f6e6f7a4c599a51000000000004',
    amount: { value: '15.00', currency: 'COP' },
    debtor: {
      customer_id: '1b8c1f6e-6f7a-4c59-9a51-000000000002',
      account_id: '2b8c1f6e-6f7a-4c59-9a51-000000000003',
      participant: { name: 'Banco Patrocinador S.A.', identification_number: '860000001' },
    },
    creditor: {
      owner: { identification_type: 'CC', identification_number: '1020304050', name: 'Ana María Gómez Pérez' },
      participant: ANA_AS_DEBTOR.participant,
    },
    created_at: '2026-01-01T00:00:00.000Z',
  };
  expect(await schema.problems(before)).not.toEqual([]);
  expect(await schema.problems({ ...before, kind: 'RETURN', original_end_to_end_id: 'E2E1' })).toEqual([]);
  expect(await schema.problems({ ...before, kind: 'TRANSFER' })).not.toEqual([]);
});
