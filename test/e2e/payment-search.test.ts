/**
 * Finding a payment through GET /v1/payments (docs/payments.md, "Finding a payment"), through the
 * local server: by its code's reference (its start, any case), its description, the other side's
 * names (accents or none) and document, its id, and its exact amount; alone, together and with the
 * other filters, the list's total counting what it finds.
 */
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';
import { expectProblem } from '../support/problems';
import { answeredPayment, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';

let api: TestApi;
let token: string;
let tienda: MerchantWithKey;
let ferreteria: MerchantWithKey;
/** The test's payments, by what they are. */
const made: Record<'mostrador' | 'arriendo' | 'harinaSent' | 'harinaReceived', string> = {
  mostrador: '',
  arriendo: '',
  harinaSent: '',
  harinaReceived: '',
};

async function ok(answer: Promise<{ status: number; body: Record<string, any>; text: string }>) {
  const { status, body, text } = await answer;
  if (status !== 200) throw new Error(`${status} ${text}`);
  return body;
}

beforeAll(async () => {
  api = await startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS });
  token = await api.token('sandbox-client-a');
  tienda = await merchantWithKey(api, token, { businessName: 'Tienda La Esperanza SAS' });
  ferreteria = await merchantWithKey(api, token, {
    businessName: 'Ferretería Central SAS',
    availableBalance: '1000.00',
  });
  // Ana María Gómez Pérez (the sandbox's shopper) pays the Tienda's code MOSTRADOR1.
  const code = await ok(
    api.request('POST', '/v1/qrcodes', {
      token,
      body: {
        key_id: tienda.keyId,
        customer_id: tienda.customerId,
        type: 'STATIC',
        channel: 'POS',
        qr_code_reference: 'MOSTRADOR1',
        amount: { value: '58000.00', currency: 'COP' },
        vat: { vat_type: 'FIXED', vat_value: '0.00', vat_base_value: '58000.00' },
        inc: { inc_type: 'FIXED', inc_value: '0.00' },
      },
    }),
  );
  made.mostrador = (await ok(api.request('POST', `/sandbox/qrcodes/${code.id}/pay`, { token, body: {} }))).id;
  // She pays the Ferretería's rent too.
  made.arriendo = (
    await ok(
      api.request('POST', '/sandbox/payments/inbound', {
        token,
        body: { key: ferreteria.key, amount: { value: '12.50', currency: 'COP' }, description: 'Pago de arriendo' },
      }),
    )
  ).id;
  // The Ferretería pays the Tienda: its OUTBOUND payment, and the Tienda's INBOUND record of it.
  const sent = await ok(
    api.request('POST', '/v1/payments', {
      token,
      body: {
        customer_id: ferreteria.customerId,
        account_id: ferreteria.accountId,
        resolution_id: await resolvedKey(api, token, ferreteria.customerId, tienda.key),
        amount: { value: '7.25', currency: 'COP' },
        description: 'Harina de trigo',
      },
    }),
  );
  made.harinaSent = sent.id;
  expect((await answeredPayment(api, token, sent.id)).body['status']).toBe('SETTLED');
  const received = await ok(
    api.request('GET', `/v1/payments?customer_id=${tienda.customerId}&direction=INBOUND`, { token }),
  );
  made.harinaReceived = (received.payments as { id: string; amount: { value: string } }[]).find(
    (p) => p.amount.value === '7.25',
  )!.id;
}, 60_000);

afterAll(() => api.stop());

/** The ids a query finds, sorted, after checking the total counts them. */
async function found(query: Record<string, string>): Promise<string[]> {
  const page = await ok(
    api.request('GET', `/v1/payments?${new URLSearchParams({ page_size: '100', ...query })}`, { token }),
  );
  const ids = (page.payments as { id: string }[]).map((p) => p.id).sort();
  expect(page.pagination_info.total_elements).toBe(ids.length);
  return ids;
}
const sorted = (...ids: string[]) => [...ids].sort();

describe('GET /v1/payments: search and amount', () => {
  test("a code's reference by its start, in any case", async () => {
    expect(await found({ search: 'mOsTr' })).toEqual([made.mostrador]);
    expect(await found({ search: 'MOSTRADOR1' })).toEqual([made.mostrador]);
    expect(await found({ search: 'ostrador' })).toEqual([]);
  });

  test("the other side's names, with or without accents, and their document", async () => {
    const ana = sorted(made.mostrador, made.arriendo);
    expect(await found({ search: 'María Gómez' })).toEqual(ana);
    expect(await found({ search: 'maria GOMEZ' })).toEqual(ana);
    expect(await found({ search: '1020304050' })).toEqual(ana);
    // The Tienda's record of the Ferretería's payment names the Ferretería; the Ferretería's names the Tienda.
    expect(await found({ search: 'ferreteria' })).toEqual([made.harinaReceived]);
    expect(await found({ search: 'esperanza' })).toEqual([made.harinaSent]);
  });

  test('the description, every word typed', async () => {
    expect(await found({ search: 'arriendo' })).toEqual([made.arriendo]);
    expect(await found({ search: 'pago arriendo' })).toEqual([made.arriendo]);
    expect(await found({ search: 'pago harina' })).toEqual([]);
    expect(await found({ search: 'harina trigo', direction: 'OUTBOUND' })).toEqual([made.harinaSent]);
  });

  test('its id, whole', async () => {
    expect(await found({ search: made.arriendo.toUpperCase() })).toEqual([made.arriendo]);
  });

  test('the exact amount, alone or with a search and the other filters', async () => {
    expect(await found({ amount: '58000.00' })).toEqual([made.mostrador]);
    expect(await found({ amount: '12.50', search: 'arriendo' })).toEqual([made.arriendo]);
    expect(await found({ amount: '12.50', search: 'harina' })).toEqual([]);
    expect(await found({ amount: '7.25', customer_id: tienda.customerId })).toEqual([made.harinaReceived]);
    expect(await found({ search: 'ana', customer_id: tienda.customerId })).toEqual([made.mostrador]);
  });

  test('a bad amount or an empty search is refused', async () => {
    const ask = (query: string) => api.request('GET', `/v1/payments?${query}`, { token });
    expectProblem(await ask('amount=58000'), 400, 'VALIDATION_FAILED', 'no decimals');
    expectProblem(await ask('search='), 400, 'VALIDATION_FAILED', 'empty search');
    expectProblem(await ask(`search=${'a'.repeat(101)}`), 400, 'VALIDATION_FAILED', 'too long');
  });
});
