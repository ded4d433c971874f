/**
 * Payment QR codes (issue 5) through the real local server with real tokens: a dynamic code against
 * a payload written out by hand, static and hybrid codes, every image read back by an independent
 * reader, every 400/403/404/409 path, deletion, lists and the decoder.
 */
import { createHmac } from 'node:crypto';
import { crc16Hex } from '../../shared/qr/crc';
import { parseTlv } from '../../shared/qr/tlv';
import { queryString, setStatus } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { expectProblem, fieldsOf } from '../support/problems';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import { BREB_EXAMPLE, PIX_EXAMPLE, readQrPng } from '../support/qr-fixtures';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const UNKNOWN = '7d7c5a1e-0000-4000-8000-000000000000';

let api: TestApi;
let tokenA: string;
let tokenB: string;
let readonly: string;
let merchant: MerchantWithKey;

beforeAll(async () => {
  api = await startTestApi();
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
  readonly = await api.token('sandbox-client-readonly');
  merchant = await merchantWithKey(api, tokenA);
});
afterAll(() => api.stop());

let referenceCounter = 0;
/** A reference no other test of this file uses: letters and digits, no P. */
const reference = (): string => `R${process.pid % 100000}X${++referenceCounter}`;

const staticBody = (of: MerchantWithKey, extra: Record<string, unknown> = {}) => ({
  key_id: of.keyId,
  customer_id: of.customerId,
  type: 'STATIC',
  channel: 'POS',
  qr_code_reference: reference(),
  ...extra,
});

const dynamicBody = (of: MerchantWithKey, extra: Record<string, unknown> = {}) =>
  staticBody(of, {
    type: 'DYNAMIC',
    amount: { value: '119000.00', currency: 'COP' },
    vat: { vat_type: 'FIXED', vat_value: '19000.00', vat_base_value: '100000.00' },
    inc: { inc_type: 'WALLET' },
    additional_info: { transaction_purpose: '00', terminal_label: 'CAJA01' },
    ...extra,
  });

const create = (body: Record<string, unknown>, token = tokenA, headers: Record<string, string> = {}) =>
  api.request('POST', '/v1/qrcodes', { token, body, headers });

/** The signing key the local runtime gave the QR routes (the same process runs them). */
const signingKey = (): string => JSON.parse(process.env['QR_SIGNING_SECRET']!).current;

const scanned = (base64: string): string => readQrPng(Buffer.from(base64, 'base64')).text;

describe('a dynamic code', () => {
  test('is the payload written out by hand from the tag table, signed and with its CRC', async () => {
    const golden = await merchantWithKey(api, tokenA, { businessName: 'Panadería Ñandú Feliz del Norte SAS' });
    const key = await api.request('POST', '/v1/keys', {
      token: tokenA,
      body: { account_id: golden.accountId, key: { key_type: 'ALPHA', key_value: '@tiendagolden' } },
    });
    expect(key.status).toBe(200);

    const answer = await create(
      dynamicBody(golden, {
        key_id: key.body.id,
        qr_code_reference: 'FAC2024001',
        tip: { tip_type: 'REQUEST' },
        additional_info: {
          transaction_purpose: '00',
          terminal_label: 'CAJA01',
          invoice_number: 'F-001',
          customer_info: 'EMAIL',
          channel_presentation: '400',
        },
      }),
    );
    expect(answer.status).toBe(200);

    const nit = golden.nit;
    const signed = [
      '000201',
      '010212',
      '2635' + '0014CO.COM.RBM.LLA' + '0413@tiendagolden',
      '4925' + '0014CO.COM.RBM.RED' + '0103RBM',
      '52045411',
      '5303170',
      '5409119000.00',
      '550201',
      '5802CO',
      '5925Panaderia Nandu Feliz del',
      '6006Bogota',
      '6106110111',
      '6250' + '0105F-001' + '0706CAJA01' + '080200' + '0901E' + `1009${nit}` + '1103400',
      '6445' + '0002ES' + '0125Panaderia Nandu Feliz del' + '0206Bogota',
      '8027' + '0016CO.COM.RBM.CANAL' + '0103POS',
      '8125' + '0015CO.COM.RBM.CIVA' + '010202',
      '8230' + '0014CO.COM.RBM.IVA' + '010819000.00',
      '8332' + '0015CO.COM.RBM.BASE' + '0109100000.00',
      '8425' + '0015CO.COM.RBM.CINC' + '010201',
      '9035' + '0016CO.COM.RBM.TRXID' + '0111PFAC2024001',
    ].join('');
    const signature = createHmac('sha256', signingKey()).update(signed).digest('hex');
    const withSignature = `${signed}9186${'0014CO.COM.RBM.SEC'}0164${signature}6304`;
    expect(answer.body['qr_code_data']).toBe(`${withSignature}${crc16Hex(withSignature)}`);
    expect(scanned(answer.body['qr_code_image'])).toBe(answer.body['qr_code_data']);

    expect(answer.body).toEqual({
      id: expect.stringMatching(UUID),
      status: 'ACTIVE',
      type: 'DYNAMIC',
      channel: 'POS',
      customer_id: golden.customerId,
      account_id: golden.accountId,
      key_id: key.body.id,
      key: { key_type: 'ALPHA', key_value: '@tiendagolden' },
      qr_code_data: expect.any(String),
      qr_code_image: expect.any(String),
      qr_code_reference: 'CO.COM.RBM.TRXIDPFAC2024001',
      acquirer_network_identifier: 'RBM',
      merchant: {
        merchant_category_code: '5411',
        merchant_country: 'CO',
        merchant_name: 'Panadería Ñandú Feliz del Norte SAS',
        merchant_city: 'Bogotá',
        merchant_post_code: '110111',
      },
      additional_info: {
        transaction_purpose: '00',
        terminal_label: 'CAJA01',
        invoice_number: 'F-001',
        customer_info: 'EMAIL',
        channel_presentation: '400',
      },
      vat: { vat_type: 'FIXED', vat_value: '19000.00', vat_base_value: '100000.00' },
      inc: { inc_type: 'WALLET' },
      tip: { tip_type: 'REQUEST' },
      amount: { value: '119000.00', currency: 'COP' },
      created_at: expect.stringMatching(TIMESTAMP),
      updated_at: answer.body['created_at'],
    });
  });

  test.each([
    ['amount', { amount: undefined }, ['amount']],
    ['additional_info', { additional_info: undefined }, ['additional_info']],
    [
      'its purpose and terminal label',
      { additional_info: { invoice_number: 'F1' } },
      ['additional_info.terminal_label', 'additional_info.transaction_purpose'],
    ],
  ])('needs %s (400 naming each field)', async (_what, change, fields) => {
    const answer = await create(dynamicBody(merchant, change));
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(answer)).toEqual(fields);
  });
});

describe('a static code', () => {
  test('without an amount: code 11, no tag 54, signed; its image reads back as its payload', async () => {
    const answer = await create(staticBody(merchant));
    expect(answer.status).toBe(200);
    const data: string = answer.body['qr_code_data'];
    expect(data.startsWith('000201010211')).toBe(true);
    expect(parseTlv(data).map((field) => field.id)).not.toContain('54');
    expect(answer.body).not.toHaveProperty('amount');
    expect(answer.body).not.toHaveProperty('additional_info');
    expect(scanned(answer.body['qr_code_image'])).toBe(data);

    const decoded = await api.request('POST', '/v1/qrcodes/decode', { token: tokenA, body: { qr_code_data: data } });
    expect(decoded.status).toBe(200);
    expect(decoded.body).toMatchObject({
      type: 'STATIC',
      key: merchant.key,
      amount: null,
      qr_code_reference: answer.body['qr_code_reference'],
      crc_valid: true,
      signature_valid: true,
      acquirer_matches: true,
    });
  });

  test('with an amount is a hybrid code, and then needs vat and inc', async () => {
    const missing = await create(staticBody(merchant, { amount: { value: '5000.00' } }));
    expectProblem(missing, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(missing)).toEqual(['inc', 'vat']);

    const hybrid = await create(
      staticBody(merchant, {
        amount: { value: '5000.00' },
        vat: { vat_type: 'PERCENTAGE', vat_value: '19.00000', vat_base_value: '4201.68' },
        inc: { inc_type: 'FIXED', inc_value: '0.00' },
        tip: { tip_type: 'PERCENTAGE', tip_percentage: '10.00000' },
      }),
    );
    expect(hybrid.status).toBe(200);
    const data: string = hybrid.body['qr_code_data'];
    expect(data.startsWith('000201010211')).toBe(true);
    expect(data).toContain('54075000.00');
    expect(data).toContain('550203' + '570810.00000');
    expect(hybrid.body['amount']).toEqual({ value: '5000.00', currency: 'COP' });
    expect(scanned(hybrid.body['qr_code_image'])).toBe(data);
  });

  test('any key of the customer serves, and another merchant may use the same reference', async () => {
    const other = await merchantWithKey(api, tokenA);
    const first = await create(staticBody(merchant, { qr_code_reference: 'SHARED1' }));
    const second = await create(staticBody(other, { qr_code_reference: 'SHARED1' }));
    expect([first.status, second.status]).toEqual([200, 200]);
  });
});

describe('400: rules of the request', () => {
  test.each<[string, Record<string, unknown>, string[]]>([
    ['a reference with the letter P', { qr_code_reference: 'ABCP1' }, ['qr_code_reference']],
    ['a reference with a lower-case p', { qr_code_reference: 'abcp1' }, ['qr_code_reference']],
    ['a reference with a symbol', { qr_code_reference: 'AB-1' }, ['qr_code_reference']],
    ['a reference of 18 characters', { qr_code_reference: 'A'.repeat(18) }, ['qr_code_reference']],
    ['an unknown channel', { channel: 'KIOSK' }, ['channel']],
    ['an unknown type', { type: 'HYBRID' }, ['type']],
    ['an amount in USD', { amount: { value: '10.00', currency: 'USD' } }, ['amount.currency']],
    [
      'a purpose in words',
      { additional_info: { transaction_purpose: 'Compras' } },
      ['additional_info.transaction_purpose'],
    ],
    [
      'a label of 26 characters',
      { additional_info: { terminal_label: 'T'.repeat(26) } },
      ['additional_info.terminal_label'],
    ],
    ['a label with accents', { additional_info: { store_label: 'Café' } }, ['additional_info.store_label']],
    [
      'a channel presentation out of the tables',
      { additional_info: { channel_presentation: '840' } },
      ['additional_info.channel_presentation'],
    ],
    [
      'a customer_info outside the codes',
      { additional_info: { customer_info: 'X' } },
      ['additional_info.customer_info'],
    ],
    ['an unknown field', { colour: 'red' }, ['colour']],
  ])('%s', async (_what, change, fields) => {
    const answer = await create(staticBody(merchant, change));
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(answer)).toEqual(fields);
  });

  test.each<[string, Record<string, unknown>, string[]]>([
    ['an amount without two decimals', { amount: { value: '119000' } }, ['amount.value']],
    ['an amount of zero', { amount: { value: '0.00' } }, ['amount.value']],
    ['a negative amount', { amount: { value: '-1.00' } }, ['amount.value']],
    ['an amount of 11 integer digits', { amount: { value: '12345678901.00' } }, ['amount.value']],
    [
      'a FIXED VAT as a rate',
      { vat: { vat_type: 'FIXED', vat_value: '19.00000', vat_base_value: '1.00' } },
      ['vat.vat_value'],
    ],
    [
      'a PERCENTAGE VAT as an amount',
      { vat: { vat_type: 'PERCENTAGE', vat_value: '19.00', vat_base_value: '1.00' } },
      ['vat.vat_value'],
    ],
    [
      'a PERCENTAGE over 100',
      { vat: { vat_type: 'PERCENTAGE', vat_value: '100.00001', vat_base_value: '1.00' } },
      ['vat.vat_value'],
    ],
    ['a VAT without its base', { vat: { vat_type: 'FIXED', vat_value: '1.00' } }, ['vat.vat_base_value']],
    ['a FIXED INC without its value', { inc: { inc_type: 'FIXED' } }, ['inc.inc_value']],
    ['a FIXED tip without tip_value', { tip: { tip_type: 'FIXED' } }, ['tip.tip_value']],
    ['a PERCENTAGE tip without tip_percentage', { tip: { tip_type: 'PERCENTAGE' } }, ['tip.tip_percentage']],
    ['a REQUEST tip with a value', { tip: { tip_type: 'REQUEST', tip_value: '1.00' } }, ['tip.tip_value']],
    [
      'a FIXED tip with a percentage too',
      { tip: { tip_type: 'FIXED', tip_value: '1.00', tip_percentage: '1.00000' } },
      ['tip.tip_percentage'],
    ],
    [
      'an amount smaller than the FIXED VAT, INC and tip it includes',
      {
        amount: { value: '100.00' },
        vat: { vat_type: 'FIXED', vat_value: '50.00', vat_base_value: '40.00' },
        inc: { inc_type: 'FIXED', inc_value: '30.00' },
        tip: { tip_type: 'FIXED', tip_value: '20.01' },
      },
      ['amount.value'],
    ],
  ])('%s', async (_what, change, fields) => {
    const answer = await create(dynamicBody(merchant, change));
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(answer)).toEqual(fields);
  });

  test('an amount exactly covering its FIXED parts is accepted', async () => {
    const answer = await create(
      dynamicBody(merchant, {
        amount: { value: '100.00' },
        vat: { vat_type: 'FIXED', vat_value: '50.00', vat_base_value: '40.00' },
        inc: { inc_type: 'FIXED', inc_value: '30.00' },
        tip: { tip_type: 'FIXED', tip_value: '20.00' },
      }),
    );
    expect(answer.status).toBe(200);
  });

  test("a key of another of the client's customers", async () => {
    const other = await merchantWithKey(api, tokenA);
    const answer = await create(staticBody(merchant, { key_id: other.keyId }));
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(answer)).toEqual(['key_id']);
  });

  test('an inactive customer: 400 CUSTOMER_INACTIVE, and a code again once it is active', async () => {
    const owner = await merchantWithKey(api, tokenA);
    expect((await setStatus(api, tokenA, owner.customerId, 'INACTIVE')).status).toBe(200);
    expectProblem(await create(staticBody(owner)), 400, 'CUSTOMER_INACTIVE');
    expect((await setStatus(api, tokenA, owner.customerId, 'ACTIVE')).status).toBe(200);
    expect((await create(staticBody(owner))).status).toBe(200);
  });
});

describe('403 and 404', () => {
  test("another client's customer or key is 403, and nothing of it is shown", async () => {
    const theirs = await merchantWithKey(api, tokenB);
    for (const body of [staticBody(theirs), staticBody(merchant, { key_id: theirs.keyId })]) {
      const answer = await create(body);
      expectProblem(answer, 403, 'FORBIDDEN');
      expect(answer.text).not.toContain(theirs.key.key_value);
    }
  });

  test('an unknown customer or key is 404', async () => {
    expectProblem(await create(staticBody(merchant, { customer_id: UNKNOWN })), 404, 'NOT_FOUND');
    expectProblem(await create(staticBody(merchant, { key_id: UNKNOWN })), 404, 'NOT_FOUND');
    expectProblem(await api.request('GET', `/v1/qrcodes/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
    expectProblem(await api.request('DELETE', `/v1/qrcodes/${UNKNOWN}`, { token: tokenA }), 404, 'NOT_FOUND');
  });

  test("another client's code cannot be read or deleted", async () => {
    const mine = await create(staticBody(merchant));
    for (const method of ['GET', 'DELETE']) {
      const answer = await api.request(method, `/v1/qrcodes/${mine.body['id']}`, { token: tokenB });
      expectProblem(answer, 403, 'FORBIDDEN');
      expect(answer.text).not.toContain(mine.body['qr_code_data']);
    }
  });

  test('a read-only client may read, list and decode, not create or delete', async () => {
    const mine = await create(staticBody(merchant));
    expectProblem(await create(staticBody(merchant), readonly), 403, 'INSUFFICIENT_SCOPE');
    expectProblem(
      await api.request('DELETE', `/v1/qrcodes/${mine.body['id']}`, { token: readonly }),
      403,
      'INSUFFICIENT_SCOPE',
    );
    const decoded = await api.request('POST', '/v1/qrcodes/decode', {
      token: readonly,
      body: { qr_code_data: mine.body['qr_code_data'] },
    });
    expect(decoded.status).toBe(200);
  });
});

describe('409', () => {
  test('a SUSPENDED key serves no new code', async () => {
    const owner = await merchantWithKey(api, tokenA);
    expect((await api.request('PATCH', `/v1/keys/${owner.keyId}/suspend`, { token: tokenA })).status).toBe(200);
    const answer = await create(staticBody(owner));
    expectProblem(answer, 409, 'KEY_STATUS_CONFLICT');
    expect(answer.body['key_status']).toBe('SUSPENDED');
  });

  test('a reference the merchant used, in any case, names the code that holds it', async () => {
    const first = await create(staticBody(merchant, { qr_code_reference: 'Factura77' }));
    expect(first.status).toBe(200);
    for (const again of ['Factura77', 'FACTURA77', 'factura77']) {
      const answer = await create(staticBody(merchant, { qr_code_reference: again }));
      expectProblem(answer, 409, 'QR_CODE_REFERENCE_TAKEN');
      expect(answer.body['qr_code_id']).toBe(first.body['id']);
    }
  });

  test('the reference stays taken after the code is deleted', async () => {
    const first = await create(staticBody(merchant, { qr_code_reference: 'BORRADO1' }));
    expect((await api.request('DELETE', `/v1/qrcodes/${first.body['id']}`, { token: tokenA })).status).toBe(200);
    expectProblem(
      await create(staticBody(merchant, { qr_code_reference: 'BORRADO1' })),
      409,
      'QR_CODE_REFERENCE_TAKEN',
    );
  });

  test('ten concurrent requests with one reference create exactly one code', async () => {
    const owner = await merchantWithKey(api, tokenA);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => create(staticBody(owner, { qr_code_reference: 'CARRERA1' }))),
    );
    const created = answers.filter((answer) => answer.status === 200);
    expect(created).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 200)) {
      expectProblem(answer, 409, 'QR_CODE_REFERENCE_TAKEN');
      expect(answer.body['qr_code_id']).toBe(created[0]!.body['id']);
    }
    const listed = await api.request('GET', `/v1/qrcodes${queryString({ customer_id: owner.customerId })}`, {
      token: tokenA,
    });
    expect(listed.body['pagination_info']['total_elements']).toBe(1);
  });
});

describe('retries', () => {
  test('the same Idempotency-Key answers the same code, without a second one', async () => {
    const body = staticBody(merchant);
    const headers = { 'idempotency-key': `qr-${reference()}` };
    const first = await create(body, tokenA, headers);
    const again = await create(body, tokenA, headers);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body['id']).toBe(first.body['id']);
    // The same answer, byte for byte, its image drawn again: the record under the key keeps no image.
    expect(again.text).toBe(first.text);
    const record = (await api.scan()).find(
      (item) => item['entity'] === 'IDEMPOTENCY' && String(item['pk']).endsWith(`#${headers['idempotency-key']}`),
    );
    expect(record!['response']['body']).not.toContain('qr_code_image');
    expect(JSON.parse(record!['response']['body'])).toEqual(
      Object.fromEntries(Object.entries(first.body).filter(([name]) => name !== 'qr_code_image')),
    );
  });
});

describe('reading and deleting', () => {
  test('GET answers the code with its image; DELETE makes it DELETED, once', async () => {
    const created = await create(dynamicBody(merchant));
    const id = created.body['id'];
    const read = await api.request('GET', `/v1/qrcodes/${id}`, { token: tokenA });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(created.body);

    const deleted = await api.request('DELETE', `/v1/qrcodes/${id}`, { token: tokenA });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({ id, status: 'DELETED', qr_code_data: created.body['qr_code_data'] });
    expect(deleted.body).not.toHaveProperty('qr_code_image');
    expect(deleted.body['updated_at'] >= created.body['updated_at']).toBe(true);

    const again = await api.request('DELETE', `/v1/qrcodes/${id}`, { token: tokenA });
    expectProblem(again, 409, 'QR_CODE_STATUS_CONFLICT');
    expect(again.body['qr_code_status']).toBe('DELETED');
    expect((await api.request('GET', `/v1/qrcodes/${id}`, { token: tokenA })).body['status']).toBe('DELETED');
  });
});

describe('lists', () => {
  test('filter by customer, key, type, channel and status, without images, only the client’s own', async () => {
    const owner = await merchantWithKey(api, tokenA);
    const secondKey = await api.request('POST', '/v1/keys', {
      token: tokenA,
      body: { account_id: owner.accountId, key: { key_type: 'ALPHA', key_value: `@second${process.pid % 100000}` } },
    });
    const codes = [
      await create(staticBody(owner)),
      await create(staticBody(owner, { channel: 'ECOMM' })),
      await create(dynamicBody(owner)),
      await create(staticBody(owner, { key_id: secondKey.body.id })),
    ];
    expect(codes.map((c) => c.status)).toEqual([200, 200, 200, 200]);
    await api.request('DELETE', `/v1/qrcodes/${codes[1]!.body['id']}`, { token: tokenA });
    await create(staticBody(await merchantWithKey(api, tokenB)), tokenB);

    const ids = async (query: Record<string, string>, token = tokenA) => {
      const answer = await api.request(
        'GET',
        `/v1/qrcodes${queryString({ customer_id: owner.customerId, ...query })}`,
        {
          token,
        },
      );
      expect(answer.status).toBe(200);
      for (const item of answer.body['qr_codes']) expect(item).not.toHaveProperty('qr_code_image');
      return (answer.body['qr_codes'] as { id: string }[]).map((item) => item.id).sort();
    };
    const idsOf = (...indexes: number[]) => indexes.map((i) => codes[i]!.body['id'] as string).sort();

    expect(await ids({})).toEqual(idsOf(0, 1, 2, 3));
    expect(await ids({ key_id: owner.keyId })).toEqual(idsOf(0, 1, 2));
    expect(await ids({ type: 'DYNAMIC' })).toEqual(idsOf(2));
    expect(await ids({ channel: 'ECOMM' })).toEqual(idsOf(1));
    expect(await ids({ status: 'DELETED' })).toEqual(idsOf(1));
    expect(await ids({ status: 'ACTIVE', type: 'STATIC' })).toEqual(idsOf(0, 3));
    expect(await ids({}, tokenB)).toEqual([]);

    const page = await api.request(
      'GET',
      `/v1/qrcodes${queryString({ customer_id: owner.customerId, page_size: 3 })}`,
      {
        token: tokenA,
      },
    );
    expect(page.body['pagination_info']).toMatchObject({ total_elements: 4, total_pages: 2, current_page: 1 });
  });

  test('a bad filter is 400 naming it', async () => {
    const answer = await api.request('GET', '/v1/qrcodes?type=HYBRID&status=USED&colour=red', { token: tokenA });
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(answer)).toEqual(['colour', 'status', 'type']);
  });
});

describe('the decoder', () => {
  const decode = (qr_code_data: string) =>
    api.request('POST', '/v1/qrcodes/decode', { token: tokenA, body: { qr_code_data } });

  test("reads another Bre-B acquirer's payload: CRC valid, its signature not ours to check", async () => {
    const answer = await decode(BREB_EXAMPLE);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      acquirer_network_identifier: 'VISI',
      amount: '10000.00',
      merchant_name: 'Merchant QYSRF',
      crc_valid: true,
      acquirer_matches: false,
    });
    expect(answer.body).not.toHaveProperty('signature_valid');
  });

  test('reads a Pix payload, with its CRC', async () => {
    const answer = await decode(PIX_EXAMPLE);
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ merchant_name: 'Fulano de Tal', merchant_city: 'BRASILIA', crc_valid: true });
  });

  test('a changed amount with a recomputed CRC keeps a valid CRC and fails the signature', async () => {
    const created = await create(dynamicBody(merchant));
    const data: string = created.body['qr_code_data'];
    const forged = data.replace('5409119000.00', '5409119.00000').slice(0, -4);
    const answer = await decode(`${forged}${crc16Hex(forged)}`);
    expect(answer.body).toMatchObject({ amount: '119.00000', crc_valid: true, signature_valid: false });
  });

  test('fields in another order still decode, with the CRC reported invalid only if it is', async () => {
    const answer = await decode('5802CO000201');
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ payload_format_indicator: '01', country_code: 'CO', crc_valid: false });
  });

  test('a field running past the end is 400 on qr_code_data', async () => {
    const answer = await decode('0002010105AB');
    expectProblem(answer, 400, 'VALIDATION_FAILED');
    expect(fieldsOf(answer)).toEqual(['qr_code_data']);
  });
});
