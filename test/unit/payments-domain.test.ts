/**
 * The payment rules without DynamoDB: amounts, the payment object, the order of the checks of
 * POST /v1/payments (which answer wins when several apply), with the store's answers given, the
 * events each write carries, and the sandbox network's answers.
 */
import type { StoredAccount } from '../../shared/domain/accounts';
import type { StoredCustomer } from '../../shared/domain/customers';
import type { DirectoryEntry, StoredResolution } from '../../shared/domain/directory';
import { AppError } from '../../shared/domain/errors';
import type { StoredKey } from '../../shared/domain/keys';
import {
  payResolution,
  type PayResolutionDeps,
  type ResolutionPaymentRequest,
  type ResolutionPaymentResult,
  type ResolutionPaymentWrite,
} from '../../shared/domain/pay-resolution';
import { paymentAmountCents, publicPayment, type StoredPayment } from '../../shared/domain/payments';
import { sandboxNetwork } from '../../shared/domain/settlement';
import type { CreatePaymentRequest } from '../../shared/schemas/payments';

const NOW = '2026-11-22T03:00:00.000Z';
const LATER = '2026-11-22T03:00:01.000Z';

const customer = (id: string, tenant: string, status: 'ACTIVE' | 'INACTIVE' = 'ACTIVE') =>
  ({
    id,
    tenant,
    status,
    identification_type: 'NIT',
    identification_number: `9001234${id.slice(-2)}`,
    business_name: `Comercio ${id}`,
  }) as StoredCustomer;
const account = (id: string, customerId: string, tenant: string) =>
  ({
    id,
    tenant,
    customer_id: customerId,
    number: `0001002003${id.slice(-2)}`,
    type: 'ORDINARY',
    account_status: 'ACTIVE',
  }) as StoredAccount;

const OTHER_PARTICIPANT: DirectoryEntry = {
  key: { key_type: 'PHONE', key_value: '3001234567' },
  owner: { identification_type: 'CC', identification_number: '1020304050', type: 'PERSON', first_name: 'Ana' },
  participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
  account: { account_number: '4001002003', account_type: 'SAVINGS' },
  source: 'SANDBOX',
  status: 'ACTIVE',
  created_at: NOW,
  updated_at: NOW,
};
const OUR_KEY: DirectoryEntry = {
  ...OTHER_PARTICIPANT,
  key: { key_type: 'ALPHA', key_value: '@payee01' },
  owner: { identification_type: 'NIT', identification_number: '900123402', type: 'BUSINESS', business_name: 'B' },
  participant: { name: 'Banco Patrocinador S.A.', identification_number: '860000001' },
  source: 'API',
  key_id: 'key-02',
  tenant: 't2',
};

const resolution = (id: string, payee: DirectoryEntry, extra: Partial<StoredResolution> = {}): StoredResolution => ({
  id,
  customer_id: 'cust-01',
  resolved_at: NOW,
  key: payee.key,
  owner: payee.owner,
  participant: payee.participant,
  account: payee.account,
  tenant: 't1',
  payee,
  ...extra,
});

/** The world of these tests: a payer (t1), a payee merchant of ours (t2), and what the store answers. */
function world(answers: ResolutionPaymentResult[] = [{ written: true }]) {
  const customers = new Map([
    ['cust-01', customer('cust-01', 't1')],
    ['cust-03', customer('cust-03', 't1', 'INACTIVE')],
    ['cust-02', customer('cust-02', 't2')],
  ]);
  const accounts = new Map([
    ['acct-01', account('acct-01', 'cust-01', 't1')],
    ['acct-03', account('acct-03', 'cust-03', 't1')],
    ['acct-02', account('acct-02', 'cust-02', 't2')],
  ]);
  const resolutions = new Map([
    ['res-other', resolution('res-other', OTHER_PARTICIPANT)],
    ['res-ours', resolution('res-ours', OUR_KEY)],
    ['res-b', resolution('res-b', OTHER_PARTICIPANT, { tenant: 't2', customer_id: 'cust-02' })],
    ['res-used', resolution('res-used', OTHER_PARTICIPANT, { payment_id: 'pay-used' })],
  ]);
  const payments = new Map<string, StoredPayment>();
  const writes: ResolutionPaymentWrite[] = [];
  const scheduled: [string, number][] = [];
  const settledOwn: StoredPayment[] = [];
  let ids = 0;
  const deps: PayResolutionDeps = {
    resolutions: { get: async (id) => resolutions.get(id) },
    maxPaymentCents: 1_000_000_000,
    customers: { get: async (id) => customers.get(id) },
    accounts: { get: async (id) => accounts.get(id) },
    keys: { get: async (id) => (id === 'key-02' ? ({ id, account_id: 'acct-02' } as StoredKey) : undefined) },
    payments: {
      insert: async (write) => {
        writes.push(write);
        const answer = answers.shift() ?? { written: true };
        if (answer.written) for (const p of write.payments) payments.set(p.id, p);
        return answer;
      },
      get: async (id) => payments.get(id),
    },
    participant: { name: 'Banco Patrocinador S.A.', nit: '860000001' },
    settlement: {
      queue: {
        schedule: async (paymentId, delayMs) => {
          scheduled.push([paymentId, delayMs]);
        },
      },
      delayMs: 1000,
    },
    clock: { now: () => (writes.length ? LATER : NOW) },
    ids: { newId: () => `pay-${String(++ids).padStart(2, '0')}` },
    // The payee's decision (shared/domain/own-merchant-payments.ts, tested against DynamoDB Local): accepted.
    ownMerchants: {
      settle: async (payment) => {
        settledOwn.push(payment);
        return { ...payment, status: 'SETTLED', settled_at: LATER };
      },
      firstDecisionWait: { maxMs: 200, pollMs: 10 },
    },
  };
  return { deps, payments, writes, scheduled, settledOwn };
}

const request = (overrides: Partial<CreatePaymentRequest> = {}): ResolutionPaymentRequest => ({
  customer_id: 'cust-01',
  account_id: 'acct-01',
  resolution_id: 'res-other',
  amount: { value: '150.25', currency: 'COP' },
  ...overrides,
});

/** A payment as stored: the one `request()` makes. */
const stored = (overrides: Partial<StoredPayment> = {}): StoredPayment => ({
  id: 'pay-used',
  tenant: 't1',
  customer_id: 'cust-01',
  account_id: 'acct-01',
  direction: 'OUTBOUND',
  status: 'SETTLED',
  amount_cents: 15_025,
  resolution_id: 'res-other',
  counterparty: OTHER_PARTICIPANT,
  created_at: NOW,
  updated_at: NOW,
  ...overrides,
});

const failure = async (promise: Promise<unknown>): Promise<[string, Record<string, unknown>]> => {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  return [(error as AppError).code, (error as AppError).extensions];
};

describe('paymentAmountCents', () => {
  test.each([
    ['0.01', 1],
    ['15000.00', 1_500_000],
    ['9999999999999.99', 999_999_999_999_999],
  ])('%s is %i cents', (value, cents) => {
    expect(paymentAmountCents('amount.value', value)).toBe(cents);
  });

  test('zero is not an amount to pay', () => {
    expect(() => paymentAmountCents('amount.value', '0.00')).toThrow(
      expect.objectContaining({
        code: 'VALIDATION_FAILED',
        extensions: { errors: [{ field: 'amount.value', message: 'must be greater than 0.00' }] },
      }),
    );
  });
});

describe('publicPayment', () => {
  test('answers the fields in one order, leaving out the absent ones', () => {
    const stored: StoredPayment = {
      updated_at: NOW,
      created_at: NOW,
      counterparty: {
        account: { account_type: 'SAVINGS', account_number: '4001002003' },
        participant: { identification_number: '860000002', name: 'Banco Ejemplo' },
        owner: { type: 'PERSON', first_name: 'Ana', identification_number: '1020304050', identification_type: 'CC' },
      },
      amount_cents: 1_500_000,
      status: 'PENDING',
      direction: 'OUTBOUND',
      account_id: 'acct-01',
      customer_id: 'cust-01',
      tenant: 't1',
      id: 'pay-01',
    };
    expect(JSON.stringify(publicPayment(stored))).toBe(
      JSON.stringify({
        id: 'pay-01',
        status: 'PENDING',
        direction: 'OUTBOUND',
        customer_id: 'cust-01',
        account_id: 'acct-01',
        amount: { currency: 'COP', value: '15000.00' },
        counterparty: {
          owner: { identification_type: 'CC', identification_number: '1020304050', type: 'PERSON', first_name: 'Ana' },
          participant: { name: 'Banco Ejemplo', identification_number: '860000002' },
          account: { account_number: '4001002003', account_type: 'SAVINGS' },
        },
        created_at: NOW,
        updated_at: NOW,
      }),
    );
  });
});

describe('payResolution', () => {
  test('to another participant: writes PENDING with its hold and its event, answers it, schedules its settlement', async () => {
    const { deps, writes, scheduled } = world();
    const payment = await payResolution(deps, 't1', request({ description: 'Pedido 7' }));
    expect(writes).toEqual([
      {
        resolutionId: 'res-other',
        payerCustomerId: 'cust-01',
        payments: [expect.objectContaining({ id: 'pay-01', status: 'PENDING', direction: 'OUTBOUND' })],
        moves: [{ accountId: 'acct-01', paymentId: 'pay-01', amountCents: -15_025 }],
        events: [{ id: 'pay-02', tenant: 't1', type: 'payment.outbound.confirmed', created_at: NOW, data: payment }],
        // Due when the network should have answered (the settlement delay after it was made): a lost
        // settlement job is found by the sweeper then.
        workDueAt: { 'pay-01': new Date(Date.parse(NOW) + 1000).toISOString() },
      },
    ]);
    expect(scheduled).toEqual([['pay-01', 1000]]);
    expect(payment).toMatchObject({
      id: 'pay-01',
      status: 'PENDING',
      description: 'Pedido 7',
      resolution_id: 'res-other',
      created_at: NOW,
      counterparty: { key: OTHER_PARTICIPANT.key, participant: OTHER_PARTICIPANT.participant },
    });
    expect(payment.settled_at).toBeUndefined();
  });

  test("to our merchant: written PENDING with the debit only, then answered by the payee's approval within the request", async () => {
    const { deps, writes, scheduled, settledOwn } = world();
    const payment = await payResolution(deps, 't1', request({ resolution_id: 'res-ours' }));
    expect(writes).toHaveLength(1);
    expect(writes[0]).toMatchObject({
      resolutionId: 'res-ours',
      payerCustomerId: 'cust-01',
      moves: [{ accountId: 'acct-01', paymentId: 'pay-01', amountCents: -15_025 }],
      // The settlement job's due time is the payee's decision's deadline: the sweeper's backstop.
      workDueAt: { 'pay-01': new Date(Date.parse(NOW) + 30_000).toISOString() },
    });
    expect(writes[0]!.payments).toEqual([expect.objectContaining({ id: 'pay-01', status: 'PENDING' })]);
    expect(writes[0]!.events.map(({ tenant, type }) => [tenant, type])).toEqual([['t1', 'payment.outbound.confirmed']]);
    // Its job queued before the payee is asked: should the request die, the payment is still answered.
    expect(scheduled).toEqual([['pay-01', 30_000]]);
    expect(settledOwn.map((p) => [p.id, p.status])).toEqual([['pay-01', 'PENDING']]);
    expect(payment).toMatchObject({ id: 'pay-01', status: 'SETTLED' });
  });

  test("a copy meeting a PENDING payment to our merchant answers the first request's decision, waiting for it", async () => {
    const used = { written: false, reason: 'resolution_used', paymentId: 'pay-winner' } as const;
    const { deps, payments, settledOwn } = world([used]);
    const pending = stored({ id: 'pay-winner', status: 'PENDING', resolution_id: 'res-ours', counterparty: OUR_KEY });
    payments.set('pay-winner', pending);
    // The first request's decision lands while the copy waits.
    setTimeout(() => payments.set('pay-winner', { ...pending, status: 'SETTLED', settled_at: LATER }), 50);
    const copy = await payResolution(deps, 't1', request({ resolution_id: 'res-ours' }));
    expect(copy).toMatchObject({ id: 'pay-winner', status: 'SETTLED' });
    expect(settledOwn).toEqual([]);
  });

  test('a copy still meeting it PENDING once the wait is over decides it itself (the first request died)', async () => {
    const used = { written: false, reason: 'resolution_used', paymentId: 'pay-winner' } as const;
    const { deps, payments, settledOwn } = world([used]);
    payments.set(
      'pay-winner',
      stored({ id: 'pay-winner', status: 'PENDING', resolution_id: 'res-ours', counterparty: OUR_KEY }),
    );
    const started = Date.now();
    const copy = await payResolution(deps, 't1', request({ resolution_id: 'res-ours' }));
    expect(Date.now() - started).toBeGreaterThanOrEqual(190);
    expect(copy).toMatchObject({ id: 'pay-winner', status: 'SETTLED' });
    expect(settledOwn.map((p) => p.id)).toEqual(['pay-winner']);
  });

  test('a resolution used meanwhile: the same request answers the winner, another is 409', async () => {
    const used = { written: false, reason: 'resolution_used', paymentId: 'pay-winner' } as const;
    const { deps, payments } = world([used, used]);
    payments.set('pay-winner', stored({ id: 'pay-winner' }));
    expect((await payResolution(deps, 't1', request())).id).toBe('pay-winner');
    const other = request({ amount: { value: '1.00', currency: 'COP' } });
    expect(await failure(payResolution(deps, 't1', other))).toEqual([
      'RESOLUTION_ALREADY_USED',
      { payment_id: 'pay-winner' },
    ]);
  });

  test.each<[string, Partial<CreatePaymentRequest>, string, string?]>([
    ['an unknown resolution', { resolution_id: 'res-none' }, 'NOT_FOUND'],
    ["another client's resolution", { resolution_id: 'res-b' }, 'FORBIDDEN'],
    ["another customer's resolution", { customer_id: 'cust-03', account_id: 'acct-03' }, 'VALIDATION_FAILED'],
    ['an unknown account', { account_id: 'acct-none' }, 'NOT_FOUND'],
    ["another client's account", { account_id: 'acct-02' }, 'FORBIDDEN'],
    ['an account of another customer', { account_id: 'acct-03' }, 'VALIDATION_FAILED'],
    [
      'a zero amount, checked first',
      { resolution_id: 'res-none', amount: { value: '0.00', currency: 'COP' } },
      'VALIDATION_FAILED',
    ],
  ])('%s', async (_what, overrides, code) => {
    const { deps, writes } = world();
    expect((await failure(payResolution(deps, 't1', request(overrides))))[0]).toBe(code);
    expect(writes).toEqual([]);
  });

  test('an inactive payer customer: 400 CUSTOMER_INACTIVE, checked before the account', async () => {
    const { deps, writes } = world();
    const inactive = resolution('res-03', OTHER_PARTICIPANT, { customer_id: 'cust-03' });
    deps.resolutions.get = async (id) => (id === 'res-03' ? inactive : undefined);
    expect(
      (
        await failure(
          payResolution(
            deps,
            't1',
            request({ customer_id: 'cust-03', account_id: 'acct-02', resolution_id: 'res-03' }),
          ),
        )
      )[0],
    ).toBe('CUSTOMER_INACTIVE');
    expect(writes).toEqual([]);
  });

  test('paying the account the key pays into is refused (a payment needs two accounts)', async () => {
    const { deps } = world();
    const own = resolution('res-own', { ...OUR_KEY, tenant: 't1' });
    deps.resolutions.get = async () => own;
    deps.keys.get = async (id) => ({ id, account_id: 'acct-01' }) as StoredKey;
    const [code, extensions] = await failure(payResolution(deps, 't1', request({ resolution_id: 'res-own' })));
    expect(code).toBe('VALIDATION_FAILED');
    expect(extensions['errors']).toEqual([{ field: 'account_id', message: expect.stringContaining('pays into') }]);
  });

  test.each<[ResolutionPaymentResult, string]>([
    [{ written: false, reason: 'insufficient_funds' }, 'INSUFFICIENT_FUNDS'],
    [{ written: false, reason: 'payer_inactive' }, 'CUSTOMER_INACTIVE'],
  ])('the write refused (%j): %s', async (answer, code) => {
    const { deps } = world([answer]);
    expect((await failure(payResolution(deps, 't1', request())))[0]).toBe(code);
  });

  test('a used resolution answers its payment without writing, scheduling its settlement again if PENDING', async () => {
    const { deps, payments, writes, scheduled } = world();
    payments.set('pay-used', stored({ status: 'PENDING', resolution_id: 'res-used' }));
    const answer = await payResolution(deps, 't1', request({ resolution_id: 'res-used' }));
    expect([answer.id, answer.status, writes, scheduled]).toEqual(['pay-used', 'PENDING', [], [['pay-used', 1000]]]);
    payments.set('pay-used', stored({ status: 'SETTLED', resolution_id: 'res-used' }));
    await payResolution(deps, 't1', request({ resolution_id: 'res-used' }));
    expect(scheduled).toHaveLength(1);
  });
});

describe('the sandbox network', () => {
  test.each([
    [10_99, { status: 'REJECTED', reason: 'NETWORK_REJECTED' }],
    [99, { status: 'REJECTED', reason: 'NETWORK_REJECTED' }],
    [10_98, { status: 'SETTLED' }],
    [99_00, { status: 'SETTLED' }],
    [1, { status: 'SETTLED' }],
  ])('answers a payment of %i cents %j (amounts ending in .99 are its magic value)', async (cents, answer) => {
    await expect(sandboxNetwork.answer(stored({ amount_cents: cents }))).resolves.toEqual(answer);
  });
});
