/**
 * Transfers that always end (docs/network.md, "Inquiry"), in connector mode against the fake bank: a
 * transfer whose callback is lost is asked for once it is older than TRANSFER_INQUIRY_AFTER_MS, by the
 * sweeper's restart, signed; the bank's answer is applied as its callback would have been (settled,
 * or rejected with the hold given back); a bank that knows nothing of it gets the same order again.
 * Past TRANSFER_REVIEW_AFTER_MS a transfer still unanswered goes to review, its amount held, until an
 * operator applies the bank's confirmed answer (npm run ops:transfer-status), audited.
 */
import { FakeBank } from '../../tools/fake-bank';
import { applyAsOperator, parseArguments } from '../../tools/ops-transfer-status';
import { availableBalance } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey } from '../support/merchants';

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory): another participant. */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const INQUIRY_AFTER_MS = 2_000;
const REVIEW_AFTER_MS = 4_000;
const TIMEOUT_MS = 40_000;

let api: TestApi;
let bank: FakeBank;
let token: string;

beforeAll(async () => {
  bank = await FakeBank.start(() => api.url);
  // The sweeper every second, for work a second late: a transfer older than 2 s is asked for.
  api = await startTestApi({
    network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
    sweepIntervalMs: 1_000,
    sweepGraceMs: 1_000,
    transferInquiryAfterMs: INQUIRY_AFTER_MS,
    transferReviewAfterMs: REVIEW_AFTER_MS,
  });
  token = await api.token('sandbox-client-a');
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
});

async function pendingTransfer(value: string) {
  const payer = await merchantWithKey(api, token, { availableBalance: value });
  const resolutionId = await resolvedKey(api, token, payer.customerId, ANA_PHONE);
  const answer = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: resolutionId,
      amount: { value, currency: 'COP' },
    },
  });
  expect([answer.status, answer.body.status]).toEqual([200, 'PENDING']);
  // Taken: the bank knows it once it has answered (it checks the order first), which a test may undo.
  const { order, status } = await bank.answeredOrder(answer.body.id);
  expect(status).toBe(202);
  return { payer, payment: answer.body, order };
}

/** The payment once it is no longer PENDING (polled; the sweeper runs every second). */
async function ended(id: string): Promise<Record<string, unknown>> {
  const deadline = Date.now() + TIMEOUT_MS - 5_000;
  for (;;) {
    const payment = (await api.request('GET', `/v1/payments/${id}`, { token })).body;
    if (payment.status !== 'PENDING' || Date.now() > deadline) return payment;
    await new Promise((wake) => setTimeout(wake, 250));
  }
}

describe('a transfer whose callback is lost', () => {
  it(
    'is asked for, signed, and ends SETTLED as the bank says',
    async () => {
      const { payer, payment, order } = await pendingTransfer('71.00');
      bank.answerSilently(payment.id, 'SETTLED');
      expect(await ended(payment.id)).toMatchObject({ status: 'SETTLED', settled_at: expect.any(String) });
      const asked = bank.inquiries.filter((inquiry) =>
        inquiry.headers['signature-input']?.includes(`inquiry_${order.body.end_to_end_id}`),
      );
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.every((inquiry) => inquiry.signed)).toBe(true);
      expect(await availableBalance(api, token, payer.accountId)).toBe('0.00');
    },
    TIMEOUT_MS,
  );

  it(
    'ends REJECTED as the bank says, its hold given back once',
    async () => {
      const { payer, payment } = await pendingTransfer('72.00');
      expect(await availableBalance(api, token, payer.accountId)).toBe('0.00');
      bank.answerSilently(payment.id, 'REJECTED');
      expect(await ended(payment.id)).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED' });
      expect(await availableBalance(api, token, payer.accountId)).toBe('72.00');
      // The late callback changes nothing more.
      const late = await bank.callBack(api.url, payment.id, { status: 'REJECTED' });
      expect(late.body).toMatchObject({ status: 'REJECTED', applied: false });
      expect(await availableBalance(api, token, payer.accountId)).toBe('72.00');
    },
    TIMEOUT_MS,
  );

  it(
    'stays PENDING, its amount held and its order not sent again, while the bank says PENDING',
    async () => {
      const { payer, payment } = await pendingTransfer('73.00');
      const asked = () =>
        bank.inquiries.filter((i) => i.headers['signature-input']?.includes(payment.id.slice(0, 8))).length;
      const deadline = Date.now() + 15_000;
      while (asked() < 2 && Date.now() < deadline) await new Promise((wake) => setTimeout(wake, 250));
      expect(asked()).toBeGreaterThanOrEqual(2);
      const ordersNow = bank.orders.filter((o) => o.body['transfer_id'] === payment.id).length;
      await new Promise((wake) => setTimeout(wake, 2_500));
      // Past the inquiry's wait, the sweeper asks; it does not send the order the bank holds again.
      expect(bank.orders.filter((o) => o.body['transfer_id'] === payment.id).length).toBe(ordersNow);
      expect((await api.request('GET', `/v1/payments/${payment.id}`, { token })).body.status).toBe('PENDING');
      expect(await availableBalance(api, token, payer.accountId)).toBe('0.00');
      bank.answerSilently(payment.id, 'SETTLED');
      expect((await ended(payment.id)).status).toBe('SETTLED');
    },
    TIMEOUT_MS,
  );

  it(
    'a bank that knows nothing of it gets the same order again, then answers',
    async () => {
      const { payment, order } = await pendingTransfer('74.00');
      bank.forget(payment.id);
      const before = bank.orders.filter((o) => o.body['transfer_id'] === payment.id).length;
      const again = await bank.ordersFor(payment.id, before + 1, 20_000);
      expect(again.at(-1)!.raw).toBe(order.raw);
      expect(again.at(-1)!.nonce).toBe(order.nonce);
      const settled = await bank.callBack(api.url, payment.id, { status: 'SETTLED' });
      expect(settled.body).toMatchObject({ status: 'SETTLED', applied: true });
    },
    TIMEOUT_MS,
  );
});

describe('a transfer the network leaves unanswered past the review wait', () => {
  it(
    'gains review NO_NETWORK_ANSWER, its amount held; an operator applies the bank’s answer once, audited',
    async () => {
      const { payer, payment } = await pendingTransfer('75.00');
      const deadline = Date.now() + 20_000;
      let read = (await api.request('GET', `/v1/payments/${payment.id}`, { token })).body;
      while (!read.review && Date.now() < deadline) {
        await new Promise((wake) => setTimeout(wake, 250));
        read = (await api.request('GET', `/v1/payments/${payment.id}`, { token })).body;
      }
      expect(read).toMatchObject({
        status: 'PENDING',
        review: { since: expect.any(String), reason: 'NO_NETWORK_ANSWER' },
      });
      expect(Date.parse(read.review.since) - Date.parse(payment.created_at)).toBeGreaterThanOrEqual(REVIEW_AFTER_MS);
      expect(await availableBalance(api, token, payer.accountId)).toBe('0.00');

      // The command refuses a call without evidence.
      expect(() => parseArguments([payment.id, 'REJECTED'])).toThrow(/--evidence/);
      const request = parseArguments([payment.id, 'REJECTED', '--evidence', 'Banco Ejemplo ticket 4711: AC04']);
      const applied = await applyAsOperator(request, 'alicia');
      expect([applied.kind, applied.applied, applied.transfer.status]).toEqual(['payment', true, 'REJECTED']);
      const answered = (await api.request('GET', `/v1/payments/${payment.id}`, { token })).body;
      expect(answered).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED', review: read.review });
      expect(await availableBalance(api, token, payer.accountId)).toBe('75.00');

      // The client's own payment.created aside: the operator's answer.
      const answers = `/v1/audit-events?resource_type=PAYMENT&resource_id=${payment.id}&action=payment.answered`;
      const trail = await api.request('GET', answers, { token });
      expect(trail.body.audit_events).toEqual([
        expect.objectContaining({
          action: 'payment.answered',
          actor: 'operator:alicia',
          evidence: 'Banco Ejemplo ticket 4711: AC04',
          before: { status: 'PENDING' },
          after: expect.objectContaining({ status: 'REJECTED', rejection_reason: 'NETWORK_REJECTED' }),
        }),
      ]);

      // Once only: again, nothing changes and nothing more is audited.
      const again = await applyAsOperator(request, 'alicia');
      expect([again.applied, again.transfer.status]).toEqual([false, 'REJECTED']);
      expect(await availableBalance(api, token, payer.accountId)).toBe('75.00');
      const trailAgain = await api.request('GET', answers, { token });
      expect(trailAgain.body.audit_events).toHaveLength(1);
    },
    TIMEOUT_MS,
  );
});
