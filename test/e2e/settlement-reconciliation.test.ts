/**
 * Reconciliation with the sponsor bank (docs/reconciliation.md, "Against the bank"), in connector
 * mode as deployed: the fake bank PUTs a Bogotá day's settlement file, signed, on the real local
 * server; the worker matches it with the day's credits, payments and refunds; each client reads its
 * day and its breaks with its own token (one of each break kind; another client sees none of them),
 * hears `reconciliation.completed`, and a day sent again replaces the first file's results. A credit
 * the bank took back is matched with our reversal of it.
 */
import { randomUUID } from 'node:crypto';
import { colombiaDay } from '../../shared/calendar/colombia-days';
import { endToEndIdOf } from '../../shared/domain/transfer-orders';
import { FakeBank, type NetworkAnswer } from '../../tools/fake-bank';
import { startTestApi, type ApiAnswer, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory): another participant. */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };

let api: TestApi;
let bank: FakeBank;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;
/** The Bogotá day every transfer of the file settles on: today's. */
let today: string;

/** Waits until the Bogotá day is not about to end, so the test's transfers and file share one day. */
async function awayFromMidnight(): Promise<void> {
  const msToMidnight = () => {
    const bogota = Date.now() - 5 * 3_600_000;
    return 86_400_000 - (bogota % 86_400_000);
  };
  if (msToMidnight() < 120_000) await new Promise((done) => setTimeout(done, msToMidnight() + 1_000));
}

beforeAll(async () => {
  await awayFromMidnight();
  bank = await FakeBank.start(() => api.url);
  [api, receiver] = await Promise.all([
    startTestApi({ network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) } }),
    WebhookReceiver.start(),
  ]);
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  today = colombiaDay(new Date().toISOString());
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
  await receiver.stop();
});

let sequence = 0;
/** An end_to_end_id no other transfer of this run has. */
const e2e = () => `E2ER${process.pid}T${Date.now()}N${++sequence}`;

/** A shopper's bank credits `value` to the merchant's key: an INBOUND payment, SETTLED. */
async function credited(merchant: MerchantWithKey, value: string): Promise<{ e2e: string; paymentId: string }> {
  const endToEndId = e2e();
  const answer = await bank.credit(api.url, {
    end_to_end_id: endToEndId,
    amount: { value, currency: 'COP' },
    creditor: { key: merchant.key },
    debtor: {
      name: 'Ana María Gómez Pérez',
      participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
    },
  });
  expect(answer.body).toMatchObject({ status: 'ACCEPTED' });
  return { e2e: endToEndId, paymentId: answer.body.payment_id };
}

const line = (endToEndId: string, direction: 'CREDIT' | 'DEBIT', value: string, accountNumber: string) => ({
  end_to_end_id: endToEndId,
  direction,
  amount: { value, currency: 'COP' },
  account_number: accountNumber,
  settled_at: new Date().toISOString(),
});

const cop = (value: string) => ({ value, currency: 'COP' });
const dayOf = (token: string, date = today) => api.request('GET', `/v1/settlement-reconciliations/${date}`, { token });
const breaksOf = (token: string, query = '', date = today) =>
  api.request('GET', `/v1/settlement-reconciliations/${date}/breaks${query}`, { token });

/** The day as the client reads it once its file is matched (no longer PENDING). */
async function reconciled(token: string): Promise<ApiAnswer> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const answer = await dayOf(token);
    expect(answer.status).toBe(200);
    if (answer.body.status !== 'PENDING') return answer;
    if (Date.now() > deadline) throw new Error('The reconciliation stayed PENDING');
    await new Promise((done) => setTimeout(done, 200));
  }
}

const sendFile = async (lines: readonly Record<string, unknown>[]): Promise<NetworkAnswer> => {
  const answer = await bank.settlementFile(api.url, today, lines);
  expect(answer.status).toBe(202);
  return answer;
};

/** What the file of the day is about: A's merchant's transfers of each kind, and B's one credit. */
interface Day {
  readonly merchantA: MerchantWithKey;
  readonly merchantB: MerchantWithKey;
  readonly matched: { e2e: string; paymentId: string };
  readonly mismatched: { e2e: string; paymentId: string };
  readonly unlisted: { e2e: string; paymentId: string };
  readonly refund: { id: string; e2e: string };
  readonly pending: { id: string; e2e: string };
  readonly ofB: { e2e: string; paymentId: string };
  /** A credit the bank took 20.00 of back (a reversal): its DEBIT matched with our reversal. */
  readonly takenBack: { e2e: string; paymentId: string };
  readonly unknownE2e: string;
}
let day: Day;

describe('before a file', () => {
  it('a day the bank sent no file for is NOT_RECEIVED, with no breaks', async () => {
    const answer = await dayOf(tokenA);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      date: today,
      status: 'NOT_RECEIVED',
      matched: { count: 0, amount: cop('0.00') },
      breaks: { count: 0 },
    });
    const breaks = await breaksOf(tokenA);
    expect([breaks.status, breaks.body.breaks, breaks.body.pagination_info.total_elements]).toEqual([200, [], 0]);
  });

  it('a date that is no day, or a day to come, is 400 on date', async () => {
    for (const date of ['2026-02-30', 'yesterday', '2999-01-01']) {
      const answer = await dayOf(tokenA, date);
      expect([answer.status, answer.body.code, answer.body.errors?.[0]?.field]).toEqual([
        400,
        'VALIDATION_FAILED',
        'date',
      ]);
    }
  });
});

describe("a day's file", () => {
  beforeAll(async () => {
    const hook = await api.request('POST', '/v1/webhooks', {
      token: tokenA,
      body: { url: `${receiver.url}/reconciliations-a`, events: ['reconciliation.completed'] },
    });
    expect(hook.status).toBe(200);
    receiver.secrets.set('/reconciliations-a', [hook.body.secret]);

    const merchantA = await merchantWithKey(api, tokenA, { availableBalance: '500.00' });
    const merchantB = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
    const matched = await credited(merchantA, '25.00');
    const mismatched = await credited(merchantA, '30.00');
    const unlisted = await credited(merchantA, '12.00');
    const ofB = await credited(merchantB, '40.00');
    const takenBack = await credited(merchantA, '50.00');
    const reversed = await bank.reverse(api.url, takenBack.e2e, {
      reversal_id: `R${process.pid}T${Date.now()}`,
      amount: cop('20.00'),
      reason: 'Fraude',
    });
    expect(reversed.status).toBe(200);

    // A refund of the first credit, which the bank settles: a DEBIT of the merchant's account.
    const refunded = await api.request('POST', `/v1/payments/${matched.paymentId}/refunds`, {
      token: tokenA,
      headers: { 'idempotency-key': randomUUID() },
      body: { amount: cop('5.00') },
    });
    expect([refunded.status, refunded.body.status]).toEqual([200, 'PENDING']);
    await bank.ordersFor(refunded.body.id);
    expect((await bank.callBack(api.url, refunded.body.id, { status: 'SETTLED' })).status).toBe(200);

    // A payment to another participant the network has not answered: PENDING here, settled at the bank.
    const resolutionId = await resolvedKey(api, tokenA, merchantA.customerId, ANA_PHONE);
    const paid = await api.request('POST', '/v1/payments', {
      token: tokenA,
      body: {
        customer_id: merchantA.customerId,
        account_id: merchantA.accountId,
        resolution_id: resolutionId,
        amount: cop('70.00'),
      },
    });
    expect([paid.status, paid.body.status]).toEqual([200, 'PENDING']);
    await bank.ordersFor(paid.body.id);

    day = {
      merchantA,
      merchantB,
      matched,
      mismatched,
      unlisted,
      refund: { id: refunded.body.id, e2e: endToEndIdOf(refunded.body.id) },
      pending: { id: paid.body.id, e2e: endToEndIdOf(paid.body.id) },
      ofB,
      takenBack,
      unknownE2e: e2e(),
    };
  });

  it('one of each break kind: the day BREAKS, with its matches added up and each break on its side', async () => {
    const { merchantA, merchantB } = day;
    const sent = await sendFile([
      line(day.matched.e2e, 'CREDIT', '25.00', merchantA.accountNumber),
      line(day.refund.e2e, 'DEBIT', '5.00', merchantA.accountNumber),
      // The bank credited 31.00 where we credited 30.00.
      line(day.mismatched.e2e, 'CREDIT', '31.00', merchantA.accountNumber),
      // A credit the bank made that we never received.
      line(day.unknownE2e, 'CREDIT', '9.00', merchantA.accountNumber),
      // Our payment the bank settled while we still wait for its answer.
      line(day.pending.e2e, 'DEBIT', '70.00', merchantA.accountNumber),
      line(day.ofB.e2e, 'CREDIT', '40.00', merchantB.accountNumber),
      // A credit, and the bank taking 20.00 of it back in two lines: our one reversal of it.
      line(day.takenBack.e2e, 'CREDIT', '50.00', merchantA.accountNumber),
      line(day.takenBack.e2e, 'DEBIT', '15.00', merchantA.accountNumber),
      line(day.takenBack.e2e, 'DEBIT', '5.00', merchantA.accountNumber),
      // (the 12.00 credit is not listed: missing at the bank)
    ]);
    expect(sent.body).toEqual({ date: today, status: 'PENDING', line_count: 9, received_at: expect.any(String) });

    const answer = await reconciled(tokenA);
    expect(answer.body).toEqual({
      date: today,
      status: 'BREAKS',
      // The credit and refund (25.00, 5.00), the credit and its reversal (50.00, 20.00).
      matched: { count: 4, amount: cop('100.00') },
      breaks: { count: 4 },
    });
    const breaks = await breaksOf(tokenA, '?page_size=10');
    expect(breaks.status).toBe(200);
    expect(breaks.body.pagination_info).toMatchObject({ total_elements: 4, total_pages: 1, current_page: 1 });
    const byKind = Object.fromEntries(
      (breaks.body.breaks as Record<string, unknown>[]).map(({ id: _id, created_at: _at, ...rest }) => [
        rest['kind'],
        rest,
      ]),
    );
    expect(byKind).toEqual({
      AMOUNT_MISMATCH: {
        kind: 'AMOUNT_MISMATCH',
        end_to_end_id: day.mismatched.e2e,
        direction: 'CREDIT',
        payment_id: day.mismatched.paymentId,
        account_id: merchantA.accountId,
        amount_here: cop('30.00'),
        amount_at_bank: cop('31.00'),
      },
      MISSING_AT_BANK: {
        kind: 'MISSING_AT_BANK',
        end_to_end_id: day.unlisted.e2e,
        direction: 'CREDIT',
        payment_id: day.unlisted.paymentId,
        account_id: merchantA.accountId,
        amount_here: cop('12.00'),
      },
      MISSING_HERE: {
        kind: 'MISSING_HERE',
        end_to_end_id: day.unknownE2e,
        direction: 'CREDIT',
        account_id: merchantA.accountId,
        amount_at_bank: cop('9.00'),
      },
      STATUS_MISMATCH: {
        kind: 'STATUS_MISMATCH',
        end_to_end_id: day.pending.e2e,
        direction: 'DEBIT',
        payment_id: day.pending.id,
        account_id: merchantA.accountId,
        amount_here: cop('70.00'),
        amount_at_bank: cop('70.00'),
      },
    });
  });

  it("another client reads its own day only: none of the first client's breaks", async () => {
    const answer = await reconciled(tokenB);
    expect(answer.body).toEqual({
      date: today,
      status: 'MATCHED',
      matched: { count: 1, amount: cop('40.00') },
      breaks: { count: 0 },
    });
    const breaks = await breaksOf(tokenB);
    expect([breaks.body.breaks, breaks.body.pagination_info.total_elements]).toEqual([[], 0]);
    // Nor does the first client see anything of the second's.
    const ofA = (await breaksOf(tokenA)).body.breaks as { account_id: string }[];
    expect(ofA.filter((b) => b.account_id === day.merchantB.accountId)).toEqual([]);
  });

  it('reconciliation.completed reaches the subscribed webhook, signed, with the day as GET answers it', async () => {
    const path = '/reconciliations-a';
    await receiver.until(() => receiver.at(path).some((r) => r.event.type === 'reconciliation.completed'));
    const [delivered] = receiver.at(path);
    expect(delivered!.verifiedBy).toHaveLength(1);
    expect(delivered!.event.data).toEqual((await dayOf(tokenA)).body);
  });

  it('the day sent again replaces the first file: its breaks gone, each client told its new day', async () => {
    const { merchantA } = day;
    await sendFile([
      line(day.matched.e2e, 'CREDIT', '25.00', merchantA.accountNumber),
      line(day.refund.e2e, 'DEBIT', '5.00', merchantA.accountNumber),
      line(day.mismatched.e2e, 'CREDIT', '30.00', merchantA.accountNumber),
      line(day.unlisted.e2e, 'CREDIT', '12.00', merchantA.accountNumber),
      line(day.takenBack.e2e, 'CREDIT', '50.00', merchantA.accountNumber),
      // The bank now lists 25.00 taken back where we took back 20.00.
      line(day.takenBack.e2e, 'DEBIT', '25.00', merchantA.accountNumber),
      // B's credit left out this time: B's day now has a break.
    ]);
    const answerA = await reconciled(tokenA);
    expect(answerA.body).toEqual({
      date: today,
      status: 'BREAKS',
      matched: { count: 5, amount: cop('122.00') },
      breaks: { count: 1 },
    });
    // The first file's four breaks are gone; the one left is the new file's.
    const breaksA = await breaksOf(tokenA);
    expect(breaksA.body.pagination_info.total_elements).toBe(1);
    expect(breaksA.body.breaks).toEqual([
      {
        id: expect.any(String),
        kind: 'AMOUNT_MISMATCH',
        end_to_end_id: day.takenBack.e2e,
        direction: 'DEBIT',
        payment_id: day.takenBack.paymentId,
        account_id: merchantA.accountId,
        amount_here: cop('20.00'),
        amount_at_bank: cop('25.00'),
        created_at: expect.any(String),
      },
    ]);

    const answerB = await reconciled(tokenB);
    expect(answerB.body).toMatchObject({ status: 'BREAKS', matched: { count: 0 }, breaks: { count: 1 } });
    const breaksB = await breaksOf(tokenB);
    expect(breaksB.body.breaks).toEqual([
      expect.objectContaining({
        kind: 'MISSING_AT_BANK',
        end_to_end_id: day.ofB.e2e,
        payment_id: day.ofB.paymentId,
        account_id: day.merchantB.accountId,
        amount_here: cop('40.00'),
      }),
    ]);
    // A's second event: its day as it is now.
    await receiver.until(() => receiver.at('/reconciliations-a').length >= 2);
    expect(receiver.at('/reconciliations-a').map((r) => r.event.data['breaks'])).toEqual([{ count: 4 }, { count: 1 }]);
  });
});

describe('the route the bank calls', () => {
  it('refuses an unsigned file (401), another media type (415), a bad line (400 naming it) and a day to come', async () => {
    const good = [line(e2e(), 'CREDIT', '1.00', '500000000001')];
    const unsigned = await bank.settlementFile(api.url, today, good, { unsigned: true });
    expect([unsigned.status, unsigned.body.code]).toEqual([401, 'NETWORK_SIGNATURE_INVALID']);
    const asJson = await bank.settlementFile(api.url, today, good, {}, 'application/json');
    expect([asJson.status, asJson.body.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    const bad = await bank.settlementFile(api.url, today, [
      ...good,
      { ...good[0]!, amount: { value: '1', currency: 'COP' } },
    ]);
    expect([bad.status, bad.body.code]).toEqual([400, 'VALIDATION_FAILED']);
    expect(bad.body.errors).toEqual([expect.objectContaining({ field: '2.amount.value' })]);
    const notJson = await bank.settlementFile(api.url, today, `${JSON.stringify(good[0])}\n{"end_to_end_id":\n`);
    expect([notJson.status, notJson.body.code, notJson.body.detail]).toEqual([
      400,
      'MALFORMED_JSON',
      'Line 2 is not JSON',
    ]);
    const future = await bank.settlementFile(api.url, '2999-01-01', good);
    expect([future.status, future.body.errors?.[0]?.field]).toEqual([400, 'date']);
  });
});
