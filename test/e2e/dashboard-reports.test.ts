/**
 * The dashboard's `Download CSV` buttons, in Debian's Chromium against the real local runtime, in
 * English and in Spanish: on the payments list, a click asks the API for a report of the list's
 * merchant over the list's day (the last 30 days of Bogotá without one), with a fresh
 * Idempotency-Key each click; the status line announces "Preparing", then "Ready"; the browser
 * downloads the file, whose rows (read back by csv-parse) are the merchant's payments as the API
 * lists them, and none of another merchant's; the link stays on the page. On an account's page,
 * the file is the account's movements. On the Refunds page (reached from the header), the list shows
 * every merchant's refunds with their status in words and a link to the payment refunded, says so
 * when a filter leaves none, and its file is the chosen merchant's refunds as GET /v1/refunds lists
 * them. axe-core passes with the status and the link shown. `Excel (español)` downloads the payments
 * as Excel opens them in Spanish (a BOM, semicolons, decimal commas, the merchant's name). A viewer
 * (read scopes only) is offered neither: a report needs breb/reports.write.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { jest } from '@jest/globals';
import type { Browser, Download, Page } from 'playwright-core';
import { dayBounds, lastDays } from '../../dashboard/src/days';
import { en, type MessageKey } from '../../dashboard/src/i18n/en';
import { es } from '../../dashboard/src/i18n/es';
import { walkAll } from '../support/accounts';
import { launchBrowser } from '../support/browser';
import { axeViolations, DESK, ENGLISH, inPage, signIn, type SignInWords } from '../support/dashboard-pages';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';
import { expectedRow, parseCsv } from '../support/reports';
import { answeredPayment, answeredRefund, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';
import { formatCop } from '../../dashboard/src/format';

jest.setTimeout(120_000);

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory). */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

type Words = Readonly<Record<MessageKey, string>>;
const say = (words: Words, key: MessageKey, values: Readonly<Record<string, string | number>> = {}) =>
  words[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));

let api: TestApi;
let browser: Browser;
let token: string;
let merchant: MerchantWithKey;
/** A merchant with two refunds, and the refunds page's other merchant (`other`, one refund). */
let refunder: MerchantWithKey;
let other: MerchantWithKey;
/** The payments refunded, by merchant. */
const refunded: Record<string, string> = {};

/** Gives back `amount` of the payment, with `reason`, once the network has answered it. */
async function refund(paymentId: string, amount: string, reason: string): Promise<void> {
  const made = await api.request('POST', `/v1/payments/${paymentId}/refunds`, {
    token,
    body: { amount: { value: amount, currency: 'COP' }, reason },
    headers: { 'Idempotency-Key': randomUUID() },
  });
  expect(made.status).toBe(200);
  expect((await answeredRefund(api, token, made.body.id)).body.status).toBe('SETTLED');
}

beforeAll(async () => {
  [api, browser] = await Promise.all([
    startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS }),
    launchBrowser(),
  ]);
  token = await api.token('sandbox-client-a');
  merchant = await merchantWithKey(api, token, { businessName: 'Drogueria El Roble SAS', availableBalance: '500.00' });
  // Another merchant of the same platform, with a payment of its own: not in the first one's file.
  other = await merchantWithKey(api, token, { businessName: 'Panaderia La Espiga SAS' });
  refunder = await merchantWithKey(api, token, { businessName: 'Ferreteria El Tornillo SAS' });
  const receive = async (to: MerchantWithKey, amount: string): Promise<string> => {
    const received = await api.request('POST', '/sandbox/payments/inbound', {
      token,
      body: { key: to.key, amount: { value: amount, currency: 'COP' } },
    });
    expect(received.status).toBe(200);
    return received.body.id;
  };
  const sent = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      resolution_id: await resolvedKey(api, token, merchant.customerId, ANA_PHONE),
      amount: { value: '120.50', currency: 'COP' },
    },
  });
  expect(sent.status).toBe(200);
  // Settled before any report, so the file and the list read it alike.
  expect((await answeredPayment(api, token, sent.body.id)).body.status).toBe('SETTLED');
  await receive(merchant, '75.25');
  await receive(merchant, '3.00');
  refunded[other.customerId] = await receive(other, '9.00');
  // The refunds: two of one merchant's payment, then one of another merchant's (the newest).
  refunded[refunder.customerId] = await receive(refunder, '40.00');
  // Only a settled payment is refunded.
  for (const id of Object.values(refunded)) expect((await answeredPayment(api, token, id)).body.status).toBe('SETTLED');
  await refund(refunded[refunder.customerId]!, '10.00', 'Producto devuelto');
  await refund(refunded[refunder.customerId]!, '5.50', 'Cobro doble');
  await refund(refunded[other.customerId]!, '2.00', 'Pan vencido');
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

/** From now on, every text the download's status line takes, in order (read with statusSaid). */
const recordStatus = (page: Page) =>
  inPage(
    page,
    `(() => {
      const line = document.querySelector('.download-csv [role=status]');
      globalThis.statusSaid = [];
      new MutationObserver(() => globalThis.statusSaid.push(line.textContent)).observe(line, {
        childList: true, subtree: true, characterData: true,
      });
    })()`,
  );
/** What the status line said since recordStatus, each text once (a text replaced passes through empty). */
const statusSaid = async (page: Page): Promise<string[]> =>
  (await inPage<string[]>(page, 'globalThis.statusSaid'))
    .filter((text) => text !== '')
    .filter((text, i, all) => text !== all[i - 1]);

/**
 * Clicks `Download CSV` and waits for the file: the report asked (its body and Idempotency-Key), the
 * download, and the file's rows as csv-parse reads them.
 */
async function download(page: Page, words: Words) {
  await recordStatus(page);
  const asked = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/reports'));
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: words['report.download'] }).click();
  const request = await asked;
  const file: Download = await downloaded;
  const csv = parseCsv(readFileSync((await file.path())!, 'utf8'));
  return { body: request.postDataJSON(), key: request.headers()['idempotency-key'], file, csv };
}

/** The status line's announcements of a report of `rows` rows, and the link left on the page. */
async function expectAnnounced(page: Page, words: Words, file: Download, rows: number): Promise<void> {
  const ready = say(words, rows === 1 ? 'report.ready.one' : 'report.ready.many', { count: rows });
  await page.getByRole('status').filter({ hasText: ready }).waitFor();
  expect(await statusSaid(page)).toEqual([words['report.preparing'], ready]);
  expect(await page.getByRole('status').filter({ hasText: ready }).getAttribute('aria-live')).toBe('polite');
  expect(await page.getByRole('link', { name: words['report.link'] }).getAttribute('href')).toBe(file.url());
}

describe.each([
  ['en-US', ENGLISH, en],
  ['es-CO', { button: es['app.signIn'], landing: es['overview.title'] } as SignInWords, es],
] as const)('in %s', (locale, signInWords, words) => {
  test("payments: the merchant's payments over the last 30 days, then over the day chosen; status announced; axe passes", async () => {
    const context = await browser.newContext({ viewport: DESK, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page.goto(`${api.url}/dashboard/#/payments`);
    await page.getByRole('heading', { level: 1, name: words['payments.title'] }).waitFor();
    await page.getByLabel(words['filter.merchant']).selectOption(merchant.customerId);
    const { items: listed } = await walkAll(api, token, '/v1/payments', 'payments', {
      customer_id: merchant.customerId,
    });
    expect(listed.map((p) => p.amount.value)).toEqual(['120.50', '75.25', '3.00']);

    const days = lastDays(30);
    const first = await download(page, words);
    expect(first.body).toEqual({
      type: 'payments',
      customer_id: merchant.customerId,
      created_from: dayBounds(days[0]!).from,
      created_to: dayBounds(days[29]!).to,
    });
    expect(first.key).toMatch(UUID);
    expect(first.file.suggestedFilename()).toMatch(/\.csv$/);
    expect(first.csv.rows).toEqual(listed.map((payment) => expectedRow(first.csv.header, payment)));
    await expectAnnounced(page, words, first.file, 3);
    expect(await axeViolations(page)).toEqual([]);

    // Today chosen in the day filter: the report covers that Bogotá day; a new click, a new key.
    const today = days[29]!;
    const dayField = page.getByRole('textbox', { name: words['filter.createdOn'] });
    await dayField.fill(today.split('-').reverse().join('/'));
    await dayField.press('Enter');
    // A new filter, a new list: the last file's link and status are gone.
    await page.getByRole('link', { name: words['report.link'] }).waitFor({ state: 'detached' });
    expect(await page.locator('.download-csv [role=status]').textContent()).toBe('');
    const second = await download(page, words);
    expect(second.body).toEqual({
      type: 'payments',
      customer_id: merchant.customerId,
      created_from: dayBounds(today).from,
      created_to: dayBounds(today).to,
    });
    expect(second.key).toMatch(UUID);
    expect(second.key).not.toBe(first.key);
    expect(second.csv.rows).toEqual(first.csv.rows);
    await expectAnnounced(page, words, second.file, 3);
    await context.close();
  });

  test("movements: the account's ledger of the last 30 days, as its list; status announced; axe passes", async () => {
    const context = await browser.newContext({ viewport: DESK, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page.goto(`${api.url}/dashboard/#/accounts/${merchant.accountId}`);
    await page.getByRole('heading', { level: 2, name: words['account.movements'] }).waitFor();
    const { items: movements } = await walkAll(api, token, `/v1/accounts/${merchant.accountId}/movements`, 'movements');
    expect(movements.map((m) => m.amount.value)).toEqual(['500.00', '-120.50', '75.25', '3.00']);

    const days = lastDays(30);
    const { body, key, file, csv } = await download(page, words);
    expect(body).toEqual({
      type: 'movements',
      account_id: merchant.accountId,
      created_from: dayBounds(days[0]!).from,
      created_to: dayBounds(days[29]!).to,
    });
    expect(key).toMatch(UUID);
    expect(csv.rows).toEqual(movements.map((movement) => expectedRow(csv.header, movement)));
    await expectAnnounced(page, words, file, 4);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });

  test("refunds: every merchant's refunds from the header's link, then the merchant's as a CSV file as its list; an empty filter says so; axe passes", async () => {
    const context = await browser.newContext({ viewport: DESK, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page
      .getByRole('navigation', { name: words['app.sections'] })
      .getByRole('link', { name: words['section.refunds'] })
      .click();
    await page.getByRole('heading', { level: 1, name: words['refunds.title'] }).waitFor();
    expect(
      await page
        .getByRole('navigation', { name: words['app.sections'] })
        .getByRole('link', { name: words['section.refunds'] })
        .getAttribute('aria-current'),
    ).toBe('page');

    const settled = `SETTLED (${words['code.refundStatus.SETTLED']})`;
    const rows = page.getByRole('row').filter({ has: page.getByRole('cell') });
    await rows.first().waitFor();
    // The merchants' names come with their own list, which may answer after the refunds'.
    await page.getByRole('cell', { name: 'Panaderia La Espiga SAS' }).first().waitFor();
    expect(await page.getByRole('columnheader').allTextContents()).toEqual(
      (
        [
          'column.created',
          'column.merchant',
          'column.amount',
          'column.status',
          'column.payment',
          'column.reason',
        ] as const
      ).map((key) => words[key]),
    );
    // Newest first, each with its merchant, status in words, payment and reason (the time aside).
    const shown = await Promise.all(
      (await rows.all()).map(async (row) => (await row.getByRole('cell').allTextContents()).slice(1)),
    );
    const payment = (customerId: string) => say(words, 'movement.payment', { id: refunded[customerId]!.slice(0, 8) });
    expect(shown).toEqual([
      ['Panaderia La Espiga SAS', formatCop('2.00'), settled, payment(other.customerId), 'Pan vencido'],
      ['Ferreteria El Tornillo SAS', formatCop('5.50'), settled, payment(refunder.customerId), 'Cobro doble'],
      ['Ferreteria El Tornillo SAS', formatCop('10.00'), settled, payment(refunder.customerId), 'Producto devuelto'],
    ]);
    expect(await rows.first().getByRole('link').getAttribute('href')).toBe(`#/payments/${refunded[other.customerId]}`);

    await page.getByLabel(words['filter.merchant']).selectOption(refunder.customerId);
    await rows.nth(2).waitFor({ state: 'detached' });
    const { items: listed } = await walkAll(api, token, '/v1/refunds', 'refunds', { customer_id: refunder.customerId });
    // The API's own order (oldest first), which the file keeps.
    expect(listed.map((r) => r.amount.value)).toEqual(['10.00', '5.50']);
    const days = lastDays(30);
    const { body, key, csv, file } = await download(page, words);
    expect(body).toEqual({
      type: 'refunds',
      customer_id: refunder.customerId,
      created_from: dayBounds(days[0]!).from,
      created_to: dayBounds(days[29]!).to,
    });
    expect(key).toMatch(UUID);
    expect(csv.rows).toEqual(listed.map((r) => expectedRow(csv.header, r)));
    await expectAnnounced(page, words, file, 2);
    expect(await axeViolations(page)).toEqual([]);

    // No refund of the merchant was rejected: the list says there is none, and where refunds are made.
    await page.getByLabel(words['filter.status']).selectOption('REJECTED');
    await page.getByText(words['refundList.empty']).waitFor();
    expect(await rows.count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});

test("payments for Excel (español): the file read back has a BOM, semicolons, decimal commas and the merchant's name", async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'es-CO' });
  const page = await context.newPage();
  await signIn(page, api.url, 'merchant-admin-a', { button: es['app.signIn'], landing: es['overview.title'] });
  await page.goto(`${api.url}/dashboard/#/payments`);
  await page.getByRole('heading', { level: 1, name: es['payments.title'] }).waitFor();
  await page.getByLabel(es['filter.merchant']).selectOption(merchant.customerId);
  const asked = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/reports'));
  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: es['report.downloadExcel'] }).click();
  expect((await asked).postDataJSON()).toMatchObject({
    type: 'payments',
    customer_id: merchant.customerId,
    format: 'excel_es',
  });
  const bytes = readFileSync((await (await downloaded).path())!);
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const rows = parse(bytes, { bom: true, delimiter: ';', columns: true }) as Record<string, string>[];
  const customer = await api.request('GET', `/v1/customers/${merchant.customerId}`, { token });
  const name = customer.body.business_name as string;
  expect(rows.map((row) => [row['amount_value'], row['customer_name']])).toEqual([
    ['120,50', name],
    ['75,25', name],
    ['3,00', name],
  ]);
  expect(await axeViolations(page)).toEqual([]);
  await context.close();
});

test('a viewer (the .read scopes) is offered no download: a report needs breb/reports.write', async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, api.url, 'viewer-a');
  await page.goto(`${api.url}/dashboard/#/accounts/${merchant.accountId}`);
  await page.getByRole('heading', { level: 2, name: en['account.movements'] }).waitFor();
  await page.getByRole('table').first().waitFor();
  expect(await page.getByRole('button', { name: en['report.download'] }).count()).toBe(0);
  expect(await page.getByRole('button', { name: en['report.downloadExcel'] }).count()).toBe(0);
  await context.close();
});
