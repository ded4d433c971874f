/**
 * The network connector's contract (docs/network.md), outbound: the real local server settles through
 * the connector adapter production runs, against a fake sponsor bank on loopback (test/support/
 * fake-bank.ts). Signed transfer orders with a stable end_to_end_id; signed status callbacks applied
 * once (duplicates and out-of-order answers change nothing, an unknown id is 404); unsigned, badly
 * signed and stale callbacks refused; a status that arrives before the order is acknowledged; the
 * bank down or slow (the order sent again, the same, until it is taken). Inbound, the bank's signed
 * credits: refused unsigned, badly signed or stale; credited once by end_to_end_id however often and
 * however concurrently they are sent; decided by the merchant's inbound approval; a key of no merchant
 * of ours REJECTED KEY_NOT_FOUND; a QR code paid by its reference.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { jest } from '@jest/globals';
import { creditPaymentId } from '../../shared/domain/network-credits';
import { availableBalance } from '../support/accounts';
import { generateSigningKey, parseJwks, verifyRequest } from '../../shared/domain/message-signatures';
import { signedHeaders } from '../../shared/domain/webhook-signature';
import { FakeBank } from '../../tools/fake-bank';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey } from '../support/merchants';
import { answeredPayment } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory): another participant. */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const UNKNOWN = '7d7c5a1e-0000-4000-8000-000000000000';
const SWEEP_GRACE_MS = 3_000;

let api: TestApi;
let bank: FakeBank;
/** A key of the bank's key id that is not the bank's: what a forger signs with. */
const forgedKey = () => generateSigningKey(bank.publicKeys.keys[0]!.kid);
let token: string;
let tokenB: string;
let approvals: WebhookReceiver;

beforeAll(async () => {
  bank = await FakeBank.start(() => api.url);
  // The sweeper every second, for work 3 s late: what the queue gave up on is sent again soon. Behind
  // the local stage's edge, as deployed: its tokenless refusal must leave the bank's signed callbacks be.
  api = await startTestApi({
    network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
    edge: 'stage',
    sweepIntervalMs: 1_000,
    sweepGraceMs: SWEEP_GRACE_MS,
  });
  token = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  approvals = await WebhookReceiver.start();
});
afterEach(() => {
  // Every order of every test, as the schema our API publishes describes it (the bank refuses others).
  expect(bank.invalidOrders.map(({ order, errors }) => [order.body.transfer_id, errors])).toEqual([]);
});
afterAll(async () => {
  await api.stop();
  await bank.stop();
  await approvals.stop();
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
      kind: 'TRANSFER',
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
    // The callback's answer, held as it is sent: the payment may read SETTLED before the answer arrives.
    let early: Promise<{ status: number; body: any }> | undefined;
    bank.plans.set('45.00', [
      {
        status: 202,
        before: async (order) => {
          early = bank.callBack(api.url, order.body.transfer_id, { status: 'SETTLED' });
          await early;
        },
      },
    ]);
    const { payment } = await pendingTransfer('45.00');
    const answered = await answeredPayment(api, token, payment.id);
    expect(answered.body.status).toBe('SETTLED');
    expect(await early).toMatchObject({ status: 200, body: { status: 'SETTLED', applied: true } });
  });

  it('a callback names its transfer: replayed onto another, or with another end-to-end id, 422', async () => {
    const first = await pendingTransfer('61.00');
    const second = await pendingTransfer('62.00');
    const [order] = await bank.ordersFor(first.payment.id);
    await bank.ordersFor(second.payment.id);
    // The first transfer's callback, as signed for it, sent on the second's path.
    const replayed = await bank.callBack(api.url, second.payment.id, {
      transfer_id: first.payment.id,
      end_to_end_id: order!.body.end_to_end_id,
      status: 'REJECTED',
    });
    expect([replayed.status, replayed.body.code]).toEqual([422, 'TRANSFER_MISMATCH']);
    const otherEndToEnd = await bank.callBack(api.url, second.payment.id, {
      end_to_end_id: order!.body.end_to_end_id,
      status: 'REJECTED',
    });
    expect([otherEndToEnd.status, otherEndToEnd.body.code]).toEqual([422, 'TRANSFER_MISMATCH']);
    expect((await read(second.payment.id)).body.status).toBe('PENDING');
    // Its own ids, in capitals, are its own.
    const own = await bank.callBack(api.url, first.payment.id, {
      transfer_id: first.payment.id.toUpperCase(),
      end_to_end_id: order!.body.end_to_end_id.toUpperCase(),
      status: 'SETTLED',
    });
    expect(own.body).toMatchObject({ status: 'SETTLED', applied: true });
  });

  it('an unknown transfer is 404; a payment that never went to the network is no transfer', async () => {
    const unknown = await bank.callBack(api.url, UNKNOWN, { status: 'SETTLED' });
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    // A signed callback whose id is no id of ours, however long, names nothing (DynamoDB would refuse
    // a key that long: a 500).
    for (const id of ['x'.repeat(2_100), 'not-an-id']) {
      const odd = await bank.callBack(api.url, id, { status: 'SETTLED' });
      expect([odd.status, odd.body.code]).toEqual([404, 'NOT_FOUND']);
    }

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
    for (const signing of [{ unsigned: true }, { key: forgedKey() }, { ageSeconds: 301 }]) {
      const refused = await bank.callBack(api.url, payment.id, { status: 'REJECTED' }, signing);
      expect([refused.status, refused.body.code]).toEqual([401, 'NETWORK_SIGNATURE_INVALID']);
      // One answer for every refusal: which check failed is our log's, not the caller's.
      expect(refused.body.detail).toBe('The request is not signed by the network connector');
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
      expect(retried!.nonce).toBe(failed!.nonce);
      expect(retried!.raw).toBe(failed!.raw);
      expect(retried!.signed).toBe(true);
      const settled = await bank.callBack(api.url, payment.id, { status: 'SETTLED' });
      expect(settled.body).toMatchObject({ status: 'SETTLED', applied: true });
    },
    40_000,
  );

  it('an order the connector refuses for good (a 4xx) ends REJECTED NETWORK_REFUSED_ORDER, its hold given back', async () => {
    bank.plans.set('14.00', [{ status: 422 }]);
    const { payer, payment } = await pendingTransfer('14.00', '14.00');
    const answered = await answeredPayment(api, token, payment.id);
    expect(answered.body).toMatchObject({ status: 'REJECTED', rejection_reason: 'NETWORK_REFUSED_ORDER' });
    expect(await balanceOf(payer.accountId)).toBe('14.00');
    expect(bank.orders.filter((order) => order.body.transfer_id === payment.id)).toHaveLength(1);
  });

  it('a 429 or a 408 is not final: the same order goes again and settles', async () => {
    bank.plans.set('15.00', [{ status: 429 }, { status: 408 }]);
    const { payment } = await pendingTransfer('15.00', '15.00');
    await bank.ordersFor(payment.id, 3, 20_000);
    const settled = await bank.callBack(api.url, payment.id, { status: 'SETTLED' });
    expect(settled.body).toMatchObject({ status: 'SETTLED', applied: true });
  }, 30_000);

  it("the bank down past the queue's retries: the sweeper sends the same order again, and it settles", async () => {
    // The queue hands a failed job 3 times in all (infra/local/local-queue.ts), then gives it up.
    bank.plans.set('12.00', [{ status: 503 }, { status: 503 }, { status: 503 }]);
    const { payer, payment } = await pendingTransfer('12.00', '12.00');
    const orders = await bank.ordersFor(payment.id, 4, 30_000);
    // The fourth came from the sweeper: the payment was due past its grace.
    const sentAt = (order: (typeof orders)[number]) => order.created! * 1000;
    expect(sentAt(orders[3]!)).toBeGreaterThanOrEqual(Date.parse(payment.created_at) + SWEEP_GRACE_MS - 1_000);
    expect(new Set(orders.map((order) => order.raw)).size).toBe(1);
    expect(new Set(orders.map((order) => order.nonce)).size).toBe(1);
    expect(await balanceOf(payer.accountId)).toBe('0.00');
    const settled = await bank.callBack(api.url, payment.id, { status: 'SETTLED' });
    expect(settled.body).toMatchObject({ status: 'SETTLED', applied: true });
    expect((await read(payment.id)).body.status).toBe('SETTLED');
  }, 40_000);
});

describe('signatures, both ways (RFC 9421, Ed25519)', () => {
  it('our orders verify with the keys GET /network/v1/keys publishes, and not once changed in transit', async () => {
    const published = await fetch(`${api.url}/network/v1/keys`);
    expect(published.status).toBe(200);
    const keys = parseJwks(await published.text());
    const { payment } = await pendingTransfer('63.00');
    const [order] = await bank.ordersFor(payment.id);
    expect(order!.headers['signature-input']).toMatch(
      /^sig1=\("@method" "@target-uri" "content-digest" "content-type"\);created=\d+;keyid="[^"]+";nonce="[^"]+";alg="ed25519"$/,
    );
    const sent = { method: 'POST', targetUri: `${bank.url}/v1/transfers`, headers: order!.headers, body: order!.raw };
    const now = Math.floor(Date.now() / 1000);
    expect(verifyRequest(sent, keys, now)).toMatchObject({ valid: true, nonce: order!.nonce });
    const tampered = order!.raw.replace('"63.00"', '"6300.00"');
    expect(verifyRequest({ ...sent, body: tampered }, keys, now)).toMatchObject({ valid: false });
    expect(verifyRequest({ ...sent, targetUri: `${bank.url}/v1/transfers?to=elsewhere` }, keys, now)).toMatchObject({
      valid: false,
    });
  });

  it("the bank's requests: a key it does not publish, a changed body, or the simulator's secret are 401", async () => {
    const { payment } = await pendingTransfer('64.00');
    await bank.ordersFor(payment.id);
    const refusals = [
      await bank.callBack(api.url, payment.id, { status: 'REJECTED' }, { key: generateSigningKey('unknown-kid') }),
      await bank.callBack(
        api.url,
        payment.id,
        { status: 'REJECTED' },
        { tamper: (raw) => raw.replace('REJECTED', 'SETTLED') },
      ),
    ];
    for (const refused of refusals)
      expect([refused.status, refused.body.code]).toEqual([401, 'NETWORK_SIGNATURE_INVALID']);
    expect((await read(payment.id)).body.status).toBe('PENDING');
    // The Standard Webhooks signature with the stage's own secret is the in-process simulator's only: no
    // production stage takes it, since none has the sandbox. Here (a local stage with its sandbox) it
    // is the simulator's, and only with that secret.
    const body = JSON.stringify({ transfer_id: payment.id, end_to_end_id: 'E0', status: 'REJECTED' });
    const forged = await fetch(`${api.url}/network/v1/transfers/${payment.id}/status`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signedHeaders('msg_1', Math.floor(Date.now() / 1000), body, [
          `whsec_${Buffer.alloc(32, 9).toString('base64')}`,
        ]),
      },
      body,
    });
    expect(forged.status).toBe(401);
  });
});

describe('credits in', () => {
  let sequence = 0;
  /** An end_to_end_id no other credit of this run has. */
  const e2e = () => `E2E${process.pid}T${Date.now()}N${++sequence}`;
  const credit = (key: object, value: string, extra: Record<string, unknown> = {}) => ({
    end_to_end_id: e2e(),
    amount: { value, currency: 'COP' },
    creditor: { key },
    debtor: {
      name: 'Ana María Gómez Pérez',
      participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
      identification_type: 'CC',
      identification_number: '1020304050',
    },
    ...extra,
  });
  const inboundOf = async (accountId: string, readWith = token) =>
    (await api.request('GET', `/v1/payments?account_id=${accountId}&direction=INBOUND`, { token: readWith })).body
      .payments as Record<string, any>[];

  it('a signed credit is accepted once however often it is sent: one INBOUND payment, credited once', async () => {
    const payee = await merchantWithKey(api, token, { availableBalance: '10.00' });
    const sent = credit(payee.key, '25.00', { description: 'Almuerzo' });
    const first = await bank.credit(api.url, sent);
    expect(first.status).toBe(200);
    expect(first.body).toEqual({ status: 'ACCEPTED', payment_id: expect.any(String) });
    for (let copy = 0; copy < 3; copy += 1) expect(await bank.credit(api.url, sent)).toMatchObject(first);
    expect(await balanceOf(payee.accountId)).toBe('35.00');
    const inbound = await inboundOf(payee.accountId);
    expect(inbound.map((payment) => payment.id)).toEqual([first.body.payment_id]);
    // The payer as its bank named it: no account, no person-or-business type; the decision recorded.
    expect(inbound[0]).toMatchObject({
      status: 'SETTLED',
      approval: 'NOT_REQUIRED',
      end_to_end_id: sent.end_to_end_id,
      description: 'Almuerzo',
      amount: { value: '25.00', currency: 'COP' },
      counterparty: {
        owner: { identification_type: 'CC', identification_number: '1020304050', name: 'Ana María Gómez Pérez' },
        participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
      },
    });
    expect(inbound[0]!['counterparty'].account).toBeUndefined();
  });

  it('10 racing copies of one credit credit once, and all answer the one payment', async () => {
    const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
    const sent = credit(payee.key, '7.00');
    // A copy the gateway answered 503 (on a loaded machine one outlasted the route's 10 s, while the
    // copies' transactions met on the one account) is sent again, as the network sends it again.
    const sendUntilAnswered = async () => {
      let answer = await bank.credit(api.url, sent);
      for (let resent = 0; answer.status === 503 && resent < 3; resent += 1) {
        await sleep(1_000);
        answer = await bank.credit(api.url, sent);
      }
      return answer;
    };
    const answers = await Promise.all(Array.from({ length: 10 }, sendUntilAnswered));
    expect(new Set(answers.map((answer) => answer.status))).toEqual(new Set([200]));
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body))).size).toBe(1);
    expect(answers[0]!.body.status).toBe('ACCEPTED');
    expect(await balanceOf(payee.accountId)).toBe('7.00');
    expect(await inboundOf(payee.accountId)).toHaveLength(1);
  });

  it('unsigned, badly signed and stale credits are 401 and credit nothing; a bad body is 400 problem+json', async () => {
    const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
    const sent = credit(payee.key, '5.00');
    for (const signing of [{ unsigned: true }, { key: forgedKey() }, { ageSeconds: 301 }]) {
      const refused = await bank.credit(api.url, sent, signing);
      expect([refused.status, refused.body.code]).toEqual([401, 'NETWORK_SIGNATURE_INVALID']);
    }
    expect(await balanceOf(payee.accountId)).toBe('0.00');
    expect(await inboundOf(payee.accountId)).toHaveLength(0);
    for (const bad of [
      { ...sent, end_to_end_id: 'not-letters-and-digits' },
      { ...sent, amount: { value: '5', currency: 'COP' } },
      { ...sent, debtor: { name: 'Ana' } },
      { ...sent, surprise: true },
    ]) {
      const invalid = await bank.credit(api.url, bad);
      expect([invalid.status, invalid.body.code]).toEqual([400, 'VALIDATION_FAILED']);
      expect(invalid.headers.get('content-type')).toContain('application/problem+json');
    }
    const malformed = await bank.credit(api.url, '{"end_to_end_id":');
    expect([malformed.status, malformed.body.code]).toEqual([400, 'MALFORMED_JSON']);
    // Still nothing: then the same credit, well signed, is taken.
    expect(await balanceOf(payee.accountId)).toBe('0.00');
    expect((await bank.credit(api.url, sent)).body.status).toBe('ACCEPTED');
  });

  it('a key of no merchant of ours: REJECTED KEY_NOT_FOUND, nothing written', async () => {
    for (const key of [ANA_PHONE, { key_type: 'ALPHA', key_value: '@nobodyhasthis' }]) {
      const answer = await bank.credit(api.url, credit(key, '3.00'));
      expect([answer.status, answer.body]).toEqual([200, { status: 'REJECTED', reason: 'KEY_NOT_FOUND' }]);
    }
  });

  it("a refused credit's copy is refused again, even once the merchant could take it; a new credit is taken", async () => {
    const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
    const keyAction = async (action: 'suspend' | 'activate') =>
      expect((await api.request('PATCH', `/v1/keys/${payee.keyId}/${action}`, { token })).status).toBe(200);
    await keyAction('suspend');
    const sent = credit(payee.key, '9.00');
    const refused = await bank.credit(api.url, sent);
    expect([refused.status, refused.body]).toEqual([200, { status: 'REJECTED', reason: 'KEY_NOT_FOUND' }]);
    await keyAction('activate');
    // The network told the payer's bank no: a copy of that transfer cannot now credit the merchant.
    expect(await bank.credit(api.url, sent)).toMatchObject({ status: 200, body: refused.body });
    expect(await balanceOf(payee.accountId)).toBe('0.00');
    expect((await bank.credit(api.url, credit(payee.key, '9.00'))).body.status).toBe('ACCEPTED');
    expect(await balanceOf(payee.accountId)).toBe('9.00');
  });

  it('a copy of another amount, creditor or debtor is 409 END_TO_END_ID_REUSED and credits nothing', async () => {
    const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
    const other = await merchantWithKey(api, token, { availableBalance: '0.00' });
    const sent = credit(payee.key, '25.00');
    const first = await bank.credit(api.url, sent);
    expect(first.body.status).toBe('ACCEPTED');
    for (const copy of [
      { ...sent, amount: { value: '25.01', currency: 'COP' } },
      { ...sent, creditor: { key: other.key } },
      { ...sent, debtor: { ...sent.debtor, name: 'Otra Persona' } },
    ]) {
      const answer = await bank.credit(api.url, copy);
      expect([answer.status, answer.body.code]).toEqual([409, 'END_TO_END_ID_REUSED']);
      expect(answer.headers.get('content-type')).toContain('application/problem+json');
    }
    // The same credit written in another order of fields, and a description of its own, is a copy.
    const reordered = { debtor: { ...sent.debtor }, creditor: sent.creditor, amount: sent.amount };
    const copy = await bank.credit(api.url, { ...reordered, end_to_end_id: sent.end_to_end_id, description: 'x' });
    expect([copy.status, copy.body]).toEqual([200, first.body]);
    // A refusal's copy too: its id names one transfer.
    const unknown = credit(ANA_PHONE, '3.00');
    expect((await bank.credit(api.url, unknown)).body).toEqual({ status: 'REJECTED', reason: 'KEY_NOT_FOUND' });
    const reusedRefusal = await bank.credit(api.url, { ...unknown, creditor: { key: payee.key } });
    expect([reusedRefusal.status, reusedRefusal.body.code]).toEqual([409, 'END_TO_END_ID_REUSED']);
    expect(await balanceOf(payee.accountId)).toBe('25.00');
    expect(await balanceOf(other.accountId)).toBe('0.00');
    expect(await inboundOf(payee.accountId)).toHaveLength(1);
  });

  it("the merchant's approval decides: refused is REJECTED with nothing credited, and a copy answers the same", async () => {
    const payee = await merchantWithKey(api, tokenB, { availableBalance: '0.00' });
    const settings = await api.request('PUT', '/v1/settings/inbound-approval', {
      token: tokenB,
      body: { callback_url: `${approvals.url}/b`, enabled: true, auto_approve_on_error: false },
    });
    expect(settings.status).toBe(200);
    // Accepts what is described "yes", after a second: long enough for copies to arrive meanwhile.
    approvals.behave('/b', (event) => ({
      status: 200,
      body: JSON.stringify({ accept: event.data.description === 'yes' }),
      afterMs: 1_000,
    }));
    const refused = credit(payee.key, '4.00', { description: 'no' });
    const answer = await bank.credit(api.url, refused);
    expect(answer.body).toEqual({ status: 'REJECTED', reason: 'APPROVAL_REFUSED', payment_id: expect.any(String) });
    expect(await bank.credit(api.url, refused)).toMatchObject(answer);

    // Copies sent while the first is still deciding wait for its decision: one callback, one credit.
    const accepted = credit(payee.key, '6.00', { description: 'yes' });
    const asked = approvals.at('/b').length;
    const firstCopy = bank.credit(api.url, accepted);
    await sleep(300);
    // A copy of another amount while the first is deciding: no answer is kept yet, its payment says.
    const [differing, ...copies] = await Promise.all([
      bank.credit(api.url, { ...accepted, amount: { value: '60.00', currency: 'COP' } }),
      firstCopy,
      ...Array.from({ length: 4 }, () => bank.credit(api.url, accepted)),
    ]);
    expect([differing!.status, differing!.body.code]).toEqual([409, 'END_TO_END_ID_REUSED']);
    expect(new Set(copies.map((copy) => JSON.stringify([copy.status, copy.body])))).toEqual(
      new Set([JSON.stringify([200, { status: 'ACCEPTED', payment_id: copies[0]!.body.payment_id }])]),
    );
    expect(approvals.at('/b').length - asked).toBe(1);
    expect(await availableBalance(api, tokenB, payee.accountId)).toBe('6.00');
    const decided = await inboundOf(payee.accountId, tokenB);
    expect(decided.map((payment) => [payment.amount.value, payment.status, payment.approval]).sort()).toEqual([
      ['4.00', 'REJECTED', 'REFUSED'],
      ['6.00', 'SETTLED', 'ACCEPTED'],
    ]);
  });

  it("a QR code's credit pays that code: a DYNAMIC one once, then REJECTED QR_CODE_NOT_PAYABLE", async () => {
    const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
    const created = await api.request('POST', '/v1/qrcodes', {
      token,
      body: {
        type: 'DYNAMIC',
        key_id: payee.keyId,
        customer_id: payee.customerId,
        channel: 'POS',
        qr_code_reference: `NET${process.pid % 10000}X${++sequence}`,
        amount: { value: '50.00', currency: 'COP' },
        vat: { vat_type: 'FIXED', vat_value: '8.00', vat_base_value: '42.00' },
        inc: { inc_type: 'WALLET' },
        additional_info: { transaction_purpose: '00', terminal_label: 'CAJA01' },
      },
    });
    expect(created.status === 200 ? '' : created.text).toBe('');
    const reference = created.body.qr_code_reference as string;
    const wrongAmount = await bank.credit(api.url, credit(payee.key, '49.00', { qr_code_reference: reference }));
    expect(wrongAmount.body).toEqual({ status: 'REJECTED', reason: 'AMOUNT_MISMATCH' });
    const unknown = await bank.credit(api.url, credit(payee.key, '50.00', { qr_code_reference: `${reference}9` }));
    expect(unknown.body).toEqual({ status: 'REJECTED', reason: 'QR_CODE_NOT_FOUND' });
    const paid = await bank.credit(api.url, credit(payee.key, '50.00', { qr_code_reference: reference }));
    expect(paid.body.status).toBe('ACCEPTED');
    const payment = await read(paid.body.payment_id);
    expect(payment.body).toMatchObject({ qr_code_id: created.body.id, qr_code_reference: reference });
    expect((await api.request('GET', `/v1/qrcodes/${created.body.id}`, { token })).body.status).toBe('PAID');
    const again = await bank.credit(api.url, credit(payee.key, '50.00', { qr_code_reference: reference }));
    expect(again.body).toEqual({ status: 'REJECTED', reason: 'QR_CODE_NOT_PAYABLE' });
    expect(await balanceOf(payee.accountId)).toBe('50.00');
  });

  it("the sandbox's inbound and QR payments are credits through this route: the payment's id follows from its end_to_end_id", async () => {
    const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
    const byKey = await api.request('POST', '/sandbox/payments/inbound', {
      token,
      body: { key: payee.key, amount: { value: '9.00', currency: 'COP' } },
    });
    const code = await api.request('POST', '/v1/qrcodes', {
      token,
      body: {
        type: 'STATIC',
        key_id: payee.keyId,
        customer_id: payee.customerId,
        channel: 'POS',
        qr_code_reference: `SBQ${process.pid % 10000}X${++sequence}`,
      },
    });
    const byCode = await api.request('POST', `/sandbox/qrcodes/${code.body.id}/pay`, {
      token,
      body: { amount: { value: '1.00', currency: 'COP' } },
    });
    for (const paid of [byKey, byCode]) {
      expect([paid.status, paid.body.status]).toEqual([200, 'SETTLED']);
      expect(paid.body.end_to_end_id).toMatch(/^SBX[0-9a-f]{32}$/);
      expect(paid.body.id).toBe(creditPaymentId(paid.body.end_to_end_id));
      // The network sending that credit again meets the simulator's: the same payment, nothing more credited.
      const again = await bank.credit(
        api.url,
        credit(payee.key, paid.body.amount.value, { end_to_end_id: paid.body.end_to_end_id }),
      );
      expect(again.body).toEqual({ status: 'ACCEPTED', payment_id: paid.body.id });
    }
    expect(byCode.body.qr_code_reference).toBe(code.body.qr_code_reference);
    expect(await balanceOf(payee.accountId)).toBe('10.00');
  });

  it("GET /network/openapi.json needs no token and describes the network's routes; the clients' document has none", async () => {
    // Fetched as the bank's integrator would: no token (and outside the clients' contract checks).
    const answer = await fetch(`${api.url}/network/openapi.json`);
    expect([answer.status, answer.headers.get('content-type')]).toEqual([200, 'application/json']);
    const network = { body: (await answer.json()) as Record<string, any> };
    expect(Object.keys(network.body.paths)).toEqual([
      '/network/v1/transfers/{id}/status',
      '/network/v1/credits',
      '/network/v1/credits/{end_to_end_id}/reversals',
      '/network/v1/merchants/{identification_type}/{identification_number}',
      '/network/v1/settlement-files/{date}',
      '/network/v1/keys',
    ]);
    expect(network.body.paths['/network/v1/credits'].post.requestBody.content['application/json'].schema).toEqual({
      $ref: '#/components/schemas/CreditRequest',
    });
    const clients = await api.request('GET', '/openapi.json');
    expect(Object.keys(clients.body.paths).filter((path) => path.startsWith('/network/'))).toEqual([]);
  });
});

/**
 * What `act` publishes as CloudWatch metrics (the local runtime's functions run in this process; their
 * metrics, silent outside Lambda, are turned on meanwhile): its EMF lines, parsed.
 */
async function emfLinesOf<T>(act: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  const written: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = jest
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk, ...rest) =>
      String(chunk).includes('"_aws"') ? written.push(String(chunk)) > 0 : write(chunk, ...(rest as [])),
    );
  const disabled = process.env['POWERTOOLS_METRICS_DISABLED'];
  process.env['POWERTOOLS_METRICS_DISABLED'] = 'false';
  try {
    return { result: await act(), lines: written.map((line) => JSON.parse(line) as Record<string, unknown>) };
  } finally {
    if (disabled === undefined) delete process.env['POWERTOOLS_METRICS_DISABLED'];
    else process.env['POWERTOOLS_METRICS_DISABLED'] = disabled;
    spy.mockRestore();
  }
}

describe('reversals: the bank takes back a credit', () => {
  const reversal = (id: string, value: string) => ({
    reversal_id: id,
    amount: { value, currency: 'COP' },
    reason: 'Fraude reportada por el banco del pagador',
  });

  it('in full, below zero if need be; once per reversal_id; never beyond what is left; payment.reversed', async () => {
    const hook = await api.request('POST', '/v1/webhooks', {
      token,
      body: { url: `${approvals.url}/reversed`, events: ['payment.reversed'], delivery_mode: 'ONCE' },
    });
    expect(hook.status).toBe(200);
    const payee = await merchantWithKey(api, token, { availableBalance: '0.00' });
    const endToEndId = `REV${process.pid}T${Date.now()}`;
    const credited = await bank.credit(api.url, {
      end_to_end_id: endToEndId,
      amount: { value: '50.00', currency: 'COP' },
      creditor: { key: payee.key },
      debtor: { name: 'Ana', participant: { name: 'Banco Ejemplo', identification_number: '860000002' } },
    });
    expect(credited.body.status).toBe('ACCEPTED');
    const paymentId: string = credited.body.payment_id;
    // The merchant spends 30.00 of it before the bank finds the fraud.
    const resolutionId = await resolvedKey(api, token, payee.customerId, ANA_PHONE);
    const spent = await api.request('POST', '/v1/payments', {
      token,
      body: {
        customer_id: payee.customerId,
        account_id: payee.accountId,
        resolution_id: resolutionId,
        amount: { value: '30.00', currency: 'COP' },
      },
    });
    expect(spent.status).toBe(200);

    const unknown = await bank.reverse(api.url, 'E2E0NOTOURS', reversal(`R${Date.now()}A`, '1.00'));
    expect([unknown.status, unknown.body.code]).toEqual([404, 'NOT_FOUND']);
    const beyond = await bank.reverse(api.url, endToEndId, reversal(`R${Date.now()}B`, '50.01'));
    expect([beyond.status, beyond.body.code, beyond.body.remaining]).toEqual([
      409,
      'REVERSAL_EXCEEDS_PAYMENT',
      { value: '50.00', currency: 'COP' },
    ]);

    const id = `R${Date.now()}C`;
    // The reversal that takes the account below zero is counted with the service dimension alone, the
    // metric the NegativeBalances alarm reads (a route's own metrics carry its route and status too).
    const { result: taken, lines } = await emfLinesOf(() => bank.reverse(api.url, endToEndId, reversal(id, '50.00')));
    expect(
      lines
        .filter((line) => 'NegativeBalances' in line)
        .map(
          (line) => (line['_aws'] as { CloudWatchMetrics: { Dimensions: unknown }[] }).CloudWatchMetrics[0]!.Dimensions,
        ),
    ).toEqual([[['service']]]);
    expect([taken.status, taken.body]).toEqual([
      200,
      {
        reversal_id: id,
        end_to_end_id: endToEndId,
        payment_id: paymentId,
        amount: { value: '50.00', currency: 'COP' },
        reversed_amount: { value: '50.00', currency: 'COP' },
      },
    ]);
    // A copy (a retry of the bank's) is answered the same and takes nothing more; the id is the reversal's.
    expect(await bank.reverse(api.url, endToEndId, reversal(id, '50.00'))).toMatchObject({
      status: 200,
      body: taken.body,
    });
    const reused = await bank.reverse(api.url, endToEndId, reversal(id, '10.00'));
    expect([reused.status, reused.body.code]).toEqual([409, 'REVERSAL_ID_REUSED']);
    const again = await bank.reverse(api.url, endToEndId, reversal(`R${Date.now()}D`, '0.01'));
    expect([again.status, again.body.code]).toEqual([409, 'REVERSAL_EXCEEDS_PAYMENT']);

    expect(await availableBalance(api, token, payee.accountId)).toBe('-30.00');
    const payment = await api.request('GET', `/v1/payments/${paymentId}`, { token });
    expect(payment.body).toMatchObject({
      status: 'SETTLED',
      reversed_amount: { value: '50.00', currency: 'COP' },
      refunded_amount: { value: '0.00', currency: 'COP' },
    });
    // Nothing is left to refund: the bank took it all back.
    const refund = await api.request('POST', `/v1/payments/${paymentId}/refunds`, {
      token,
      headers: { 'idempotency-key': `rev-refund-${Date.now()}` },
      body: { amount: { value: '1.00', currency: 'COP' } },
    });
    expect([refund.status, refund.body.code]).toEqual([409, 'REFUND_EXCEEDS_REMAINING']);
    const movements = await api.request('GET', `/v1/accounts/${payee.accountId}/movements`, { token });
    expect(movements.body.movements.filter((m: any) => m.kind === 'REVERSAL')).toEqual([
      expect.objectContaining({ amount: { value: '-50.00', currency: 'COP' }, payment_id: paymentId }),
    ]);
    await approvals.until(() => approvals.at('/reversed').length > 0);
    const events = approvals.at('/reversed');
    expect(events.map((r) => [r.event.type, r.event.data['id']])).toEqual([['payment.reversed', paymentId]]);
    expect(events[0]!.event.data).toEqual(payment.body);
    // Listed and counted with the client's other events (GET /v1/events), as its webhooks carry it.
    const listed = await api.request('GET', '/v1/events?type=payment.reversed', { token });
    expect(listed.body.events.map((e: any) => e.id)).toContain(events[0]!.event.id);
    expect(listed.body.pagination_info.total_elements).toBe(listed.body.events.length);
  });

  it('a refund and a reversal of one payment at once never take back more than it', async () => {
    const payee = await merchantWithKey(api, token, { availableBalance: '100.00' });
    const endToEndId = `REV${process.pid}T${Date.now()}R`;
    const credited = await bank.credit(api.url, {
      end_to_end_id: endToEndId,
      amount: { value: '20.00', currency: 'COP' },
      creditor: { key: payee.key },
      debtor: { name: 'Ana', participant: { name: 'Banco Ejemplo', identification_number: '860000002' } },
    });
    const paymentId: string = credited.body.payment_id;
    const [refund, reversed] = await Promise.all([
      api.request('POST', `/v1/payments/${paymentId}/refunds`, {
        token,
        headers: { 'idempotency-key': `race-refund-${Date.now()}` },
        body: { amount: { value: '15.00', currency: 'COP' } },
      }),
      bank.reverse(api.url, endToEndId, reversal(`R${Date.now()}E`, '15.00')),
    ]);
    // One of them, not both: 15.00 and 15.00 of 20.00.
    expect([refund.status, reversed.status].sort()).toEqual([200, 409]);
    const payment = (await api.request('GET', `/v1/payments/${paymentId}`, { token })).body;
    const taken = ['refunded_amount', 'reversed_amount'].map((field) => Number(payment[field]?.value ?? 0));
    expect(taken.reduce((a, b) => a + b)).toBe(15);
  });
});
