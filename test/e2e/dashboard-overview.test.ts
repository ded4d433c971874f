/**
 * The Overview, the first page after sign-in, in Debian's Chromium against the real local runtime:
 * its chart of the last 30 days of Bogotá shows exactly the payments this test made (received and
 * sent, how many and for how much, all merchants or one), as an SVG image with its title and
 * description and as a table of the same figures; another tenant's payments never count. In
 * English and in Spanish, at a desk and on a phone: axe-core passes and nothing scrolls sideways. A
 * client with 2,000 payments in the 30 days: the page loads with one call of the API, its figures whole.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { formatCop } from '../../dashboard/src/format';
import { en, type MessageKey } from '../../dashboard/src/i18n/en';
import { es } from '../../dashboard/src/i18n/es';
import { launchBrowser } from '../support/browser';
import {
  axeViolations,
  DESK,
  ENGLISH,
  inPage,
  overflowOf,
  PHONE,
  shoot,
  signIn,
  type SignInWords,
} from '../support/dashboard-pages';
import { startTestApi, type TestApi } from '../support/local-api';
import { seedReceivedPayments } from '../support/payments';
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';

jest.setTimeout(120_000);

const SCREENSHOTS = process.env['SCREENSHOT_DIR'] ?? path.join(tmpdir(), 'breb-dashboard-screenshots');

/** A catalog: the words the page shows in one language. */
type Words = Readonly<Record<MessageKey, string>>;

let api: TestApi;
let browser: Browser;
let tienda: MerchantWithKey;
let ferreteria: MerchantWithKey;

/** The last 30 days of Bogotá (UTC-5 all year), oldest first, as YYYY-MM-DD. */
function last30Days(): string[] {
  const today = Date.now() - 5 * 3_600_000;
  return Array.from({ length: 30 }, (_, i) => new Date(today - (29 - i) * 86_400_000).toISOString().slice(0, 10));
}
const typed = (day: string) => day.split('-').reverse().join('/');

async function staticCode(token: string, merchant: MerchantWithKey, reference: string, amount?: string) {
  const created = await api.request('POST', '/v1/qrcodes', {
    token,
    body: {
      key_id: merchant.keyId,
      customer_id: merchant.customerId,
      type: 'STATIC',
      channel: 'POS',
      qr_code_reference: reference,
      ...(amount
        ? {
            amount: { value: amount, currency: 'COP' },
            vat: { vat_type: 'FIXED', vat_value: '0.00', vat_base_value: amount },
            inc: { inc_type: 'FIXED', inc_value: '0.00' },
          }
        : {}),
    },
  });
  expect(created.status).toBe(200);
  return created.body.id as string;
}

async function shopperPays(token: string, codeId: string, amount?: string): Promise<void> {
  const paid = await api.request('POST', `/sandbox/qrcodes/${codeId}/pay`, {
    token,
    body: amount ? { amount: { value: amount, currency: 'COP' } } : {},
  });
  expect(paid.status).toBe(200);
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const a = await api.token('sandbox-client-a');
  tienda = await merchantWithKey(api, a, { businessName: 'Tienda La Esperanza SAS' });
  ferreteria = await merchantWithKey(api, a, { businessName: 'Ferreteria Central SAS', availableBalance: '500.00' });
  // Received: 58.000,00 twice at the Tienda, 12.345,67 at the Ferreteria; sent: 120,50 by the Ferreteria.
  const mostrador = await staticCode(a, tienda, 'MOSTRADOR1', '58000.00');
  await shopperPays(a, mostrador);
  await shopperPays(a, mostrador);
  await shopperPays(a, await staticCode(a, ferreteria, 'CAJA2'), '12345.67');
  const resolution = await resolvedKey(api, a, ferreteria.customerId, { key_type: 'PHONE', key_value: '3001234567' });
  const sent = await api.request('POST', '/v1/payments', {
    token: a,
    body: {
      customer_id: ferreteria.customerId,
      account_id: ferreteria.accountId,
      resolution_id: resolution,
      amount: { value: '120.50', currency: 'COP' },
    },
  });
  expect(sent.status).toBe(200);
  // Another platform's sale: never on tenant A's chart.
  const b = await api.token('sandbox-client-b');
  const other = await merchantWithKey(api, b, { businessName: 'Panaderia El Trigal SAS' });
  await shopperPays(b, await staticCode(b, other, 'CAJAB1', '999000.00'));
  // Tenant B's shops have sold for a month: 2,000 payments of 1.00 to 2.00 over the 30 days.
  await seedReceivedPayments('sandbox-client-b', SEEDED, 30);
  // The seed's 250 transactions take DynamoDB Local about a minute on a 2-core machine, and past
  // five minutes once when the machine was loaded by other runs besides CI's two files.
}, 600_000);

/** Tenant B's month of sales (seedReceivedPayments). */
const SEEDED = 2_000;
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

/** The figures' table as its rows of cells' text, after its toggle is opened. */
async function figuresTable(page: Page, words: Words): Promise<string[][]> {
  const toggle = page.locator('details.figures');
  if (!(await toggle.evaluate((element) => (element as unknown as { open: boolean }).open))) {
    await page.getByText(words['overview.table'], { exact: true }).click();
  }
  const table = page.getByRole('table', { name: words['overview.tableCaption'] });
  return table.evaluate((element) =>
    [...(element as unknown as { rows: Iterable<{ cells: Iterable<{ textContent: string }> }> }).rows].map((row) =>
      [...row.cells].map((cell) => cell.textContent.trim()),
    ),
  );
}

/** What the table must hold: every day zero but today, then the totals. */
function expectedRows(words: Words, today: [number, string, number, string]): string[][] {
  const days = last30Days();
  const zero = ['0', formatCop('0.00'), '0', formatCop('0.00')];
  const todays = [String(today[0]), formatCop(today[1]), String(today[2]), formatCop(today[3])];
  return [
    [
      words['overview.day'],
      words['overview.receivedCount'],
      words['overview.receivedAmount'],
      words['overview.sentCount'],
      words['overview.sentAmount'],
    ],
    ...days.map((day, i) => [typed(day), ...(i === days.length - 1 ? todays : zero)]),
    [words['overview.total'], ...todays],
  ];
}

/** How many days' bars of each kind the chart draws above zero. */
const barsDrawn = (page: Page) =>
  inPage<[number, number]>(
    page,
    `['received', 'sent'].map((kind) => [...document.querySelectorAll('svg.chart rect.' + kind)]
      .filter((bar) => Number(bar.getAttribute('height')) > 0).length)`,
  );

describe.each([
  ['en-US', ENGLISH, en],
  ['es-CO', { button: es['app.signIn'], landing: es['overview.title'] } as SignInWords, es],
] as const)('in %s', (locale, signInWords, words) => {
  test("the first page after sign-in charts the last 30 days: exactly this test's payments, all merchants or one", async () => {
    const context = await browser.newContext({ viewport: DESK, locale });
    const page = await context.newPage();
    const asked = page.waitForRequest((request) => request.url().includes('/v1/payment-totals?'));
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    // The API is asked for the daily totals of the 30 days of Bogotá that end today.
    const days = last30Days();
    const query = new URL((await asked).url()).searchParams;
    expect([query.get('from'), query.get('to')]).toEqual([days[0], days[29]]);

    const chart = page.getByRole('img', { name: new RegExp(`${typed(days[0]!)}.*${typed(days[29]!)}`) });
    await chart.waitFor();
    const description = await chart.evaluate((svg) => (svg as unknown as { textContent: string }).textContent);
    expect(description).toContain(formatCop('128345.67'));
    expect(description).toContain(formatCop('120.50'));
    expect(await figuresTable(page, words)).toEqual(expectedRows(words, [3, '128345.67', 1, '120.50']));
    expect(await barsDrawn(page)).toEqual([1, 1]);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, SCREENSHOTS, locale === 'es-CO' ? 'overview-chart-es' : 'overview-chart');

    // One merchant: its own figures only.
    await page
      .getByLabel(words['overview.merchant'])
      .selectOption({ label: `Ferreteria Central SAS (NIT ${ferreteria.nit})` });
    await page
      .getByRole('cell', { name: formatCop('12345.67') })
      .first()
      .waitFor();
    expect(await figuresTable(page, words)).toEqual(expectedRows(words, [1, '12345.67', 1, '120.50']));
    await page
      .getByLabel(words['overview.merchant'])
      .selectOption({ label: `Tienda La Esperanza SAS (NIT ${tienda.nit})` });
    await page
      .getByRole('cell', { name: formatCop('116000.00') })
      .first()
      .waitFor();
    expect(await figuresTable(page, words)).toEqual(expectedRows(words, [2, '116000.00', 0, '0.00']));
    expect(await barsDrawn(page)).toEqual([1, 0]);

    // Counts instead of amounts: the same days, the description says how many.
    await page.getByLabel(words['overview.show']).selectOption('counts');
    const counted = await chart.evaluate((svg) => (svg as unknown as { textContent: string }).textContent);
    expect(counted).toContain(words['overview.chartDescCounts'].split('.')[0]);
    expect(await barsDrawn(page)).toEqual([1, 0]);
    await context.close();
  });

  test('on a phone: nothing scrolls sideways, the table opened included; axe-core passes', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page.getByRole('img').first().waitFor();
    await figuresTable(page, words);
    expect((await overflowOf(page)).extra).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, SCREENSHOTS, locale === 'es-CO' ? 'overview-chart-es' : 'overview-chart');
    await context.close();
  });
});

test('a client with 2,000 payments in 30 days: the Overview loads with one call of the API, every payment counted', async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  const calls: string[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/v1/')) calls.push(url.pathname);
  });
  await signIn(page, api.url, 'merchant-admin-b', ENGLISH);
  await page.getByRole('img', { name: /Payments received and sent/ }).waitFor();
  const rows = await figuresTable(page, en);
  // The total row: every seeded payment (and the one of 999.000,00 before them) counted.
  expect(rows.at(-1)!.slice(0, 2)).toEqual([en['overview.total'], String(SEEDED + 1)]);
  // The merchants (kept while signed in) and the 30 days' totals: 2 calls for 2,001 payments.
  expect(calls.sort()).toEqual(['/v1/customers', '/v1/payment-totals']);
  await context.close();
});
