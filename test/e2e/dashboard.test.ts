/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the real
 * local runtime, as its staff use it, at a desk (1280x800) and on a phone (390x844): a new platform
 * led from its empty dashboard to its first QR code through the dashboard's own forms; amounts typed
 * as Colombians type them; the API's refusals beside their fields, in words; Bogotá's days in the
 * filters; totals, search and columns of the payments; a QR code downloaded and printed; a delivery
 * followed without a reload; the API out of reach, then retried; a viewer offered nothing they may
 * not do; a reload signed back in through the issuer's session, and a sign-out that ends it; no page
 * scrolling sideways on a phone; every page passing axe-core. Every answer the API gives the pages
 * is checked against the OpenAPI document. Screenshots of every page at both sizes go to
 * SCREENSHOT_DIR (a temporary folder by default; docs/img/dashboard holds the committed ones).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Browser, BrowserContext, Page, Response } from 'playwright-core';
import { nitCheckDigit } from '../../dashboard/src/colombian-numbers';
import { formatCop } from '../../dashboard/src/format';
import { en } from '../../dashboard/src/i18n/en';
import { accountNumbers, walkAll } from '../support/accounts';
import { launchBrowser } from '../support/browser';
import { checkAgainstContract } from '../support/contract';
import {
  axeViolations,
  DESK,
  inPage,
  ofElement,
  overflowOf,
  PHONE,
  rowWith,
  shoot as shootIn,
  signIn as signInAt,
} from '../support/dashboard-pages';
import { uniqueNit } from '../support/fixtures';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey, uniqueAlphaKey, type MerchantWithKey } from '../support/merchants';
import { passwordOf } from '../support/people';
import { WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(90_000);

const SCREENSHOTS = process.env['SCREENSHOT_DIR'] ?? path.join(tmpdir(), 'breb-dashboard-screenshots');

let api: TestApi;
let browser: Browser;
let receiver: WebhookReceiver;
let merchantA: MerchantWithKey;
/** A hybrid code of tenant A, created and paid through the API before anyone signs in. */
let codeA: Record<string, any>;
let paymentA: Record<string, any>;
let webhookA: Record<string, any>;
/** Every URL a page of the test asked for: nothing may leave the machine. */
const requested: string[] = [];
/** The contract checks of the answers the local server gave the pages, each settled once its body is read. */
const contractChecks: Promise<ContractCheck | undefined>[] = [];
interface ContractCheck {
  /** `POST /v1/qrcodes`: the method and the path, without the query. */
  readonly call: string;
  /** What the document refused, if it did. */
  readonly violation?: string;
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [api, browser, receiver] = await Promise.all([
    // Outbound payments wait 3 s for the sandbox network: long enough to watch one settle on its page.
    startTestApi({ sandboxSettlementDelayMs: 3_000 }),
    launchBrowser(),
    WebhookReceiver.start(),
  ]);
  // A slow receiver: a delivery stays PENDING for a few seconds, long enough to be seen changing.
  receiver.behave('/slow', () => ({ status: 200, body: '', afterMs: 3_000 }));
  const machineA = await api.token('sandbox-client-a');
  merchantA = await merchantWithKey(api, machineA, { businessName: 'Tienda La Esperanza SAS' });
  const created = await api.request('POST', '/v1/qrcodes', {
    token: machineA,
    body: {
      key_id: merchantA.keyId,
      customer_id: merchantA.customerId,
      type: 'STATIC',
      channel: 'POS',
      qr_code_reference: 'MOSTRADOR1',
      amount: { value: '119000.00', currency: 'COP' },
      vat: { vat_type: 'FIXED', vat_value: '19000.00', vat_base_value: '100000.00' },
      inc: { inc_type: 'FIXED', inc_value: '0.00' },
    },
  });
  expect(created.status).toBe(200);
  codeA = created.body;
  const paid = await api.request('POST', `/sandbox/qrcodes/${codeA.id}/pay`, { token: machineA, body: {} });
  expect(paid.status).toBe(200);
  paymentA = paid.body;
  const webhook = await api.request('POST', '/v1/webhooks', {
    token: machineA,
    body: { url: `${receiver.url}/slow`, events: ['webhook.test'], description: 'Caja principal' },
  });
  expect(webhook.status).toBe(200);
  webhookA = webhook.body;
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
  await receiver?.stop();
});

/**
 * An answer of the local server to a page's fetch, checked against the OpenAPI document (paths outside
 * it, the dashboard's config.json and the token endpoint, are left to their own tests).
 */
async function contractCheckOf(response: Response): Promise<ContractCheck | undefined> {
  const request = response.request();
  const url = new URL(request.url());
  // The API's answers are the page's fetches; documents, scripts and redirects are not the API's.
  if (url.origin !== api.url || request.resourceType() !== 'fetch') return undefined;
  const call = `${request.method()} ${url.pathname}`;
  let text: string;
  try {
    text = await response.text();
  } catch {
    // The page navigated away (a sign-out) before its fetch's body was read: Chromium has dropped the
    // body, so there is nothing to check. The server's answers are checked whole in the e2e suites.
    return undefined;
  }
  try {
    checkAgainstContract({
      method: request.method(),
      path: `${url.pathname}${url.search}`,
      requestBody: request.postData() ?? undefined,
      status: response.status(),
      contentType: response.headers()['content-type'] ?? null,
      text,
    });
    return { call };
  } catch (error) {
    return { call, violation: String(error) };
  }
}

async function newPerson(viewport: { width: number; height: number } = DESK) {
  const context = await browser.newContext({ viewport, locale: 'en-US' });
  const page = await context.newPage();
  page.on('request', (request) => requested.push(request.url()));
  page.on('response', (response) => contractChecks.push(contractCheckOf(response)));
  return { context, page };
}

/** Closes a person's browser once the answers their pages got are read for the contract checks. */
async function leave(context: BrowserContext): Promise<void> {
  await Promise.all(contractChecks);
  await context.close();
}

/** Signs in (the Overview is the first page) and opens the QR codes, where most of these tests begin. */
async function signIn(page: Page, username: string): Promise<void> {
  await signInAt(page, api.url, username);
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'QR codes' }).click();
  await page.getByRole('heading', { level: 1, name: 'QR codes' }).waitFor();
}
const shoot = (page: Page, name: string) => shootIn(page, SCREENSHOTS, name);

async function expectAccessible(page: Page): Promise<void> {
  expect(await axeViolations(page)).toEqual([]);
}

/**
 * Waits until `check` holds, polling (the page's Content-Security-Policy forbids the string predicates
 * of waitForFunction).
 */
async function until(check: () => Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline;) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`Still not ${what} after ${timeoutMs} ms`);
}

/** The page is done loading what it shows: no "Loading…" left. */
const settled = (page: Page) => until(async () => (await page.getByText('Loading…').count()) === 0, 'loaded');

/** Opens a route of the signed-in dashboard (only the hash changes: the same document, still signed in). */
async function open(page: Page, hash: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${api.url}/dashboard/${hash}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  await settled(page);
}

/** A Bogotá day, `days` from today, as YYYY-MM-DD and as a person types it. */
function bogotaDay(days = 0): { iso: string; typed: string } {
  const iso = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Bogota' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
  const [y, m, d] = iso.split('-');
  return { iso, typed: `${d}/${m}/${y}` };
}

test('merchant-admin-b, a new platform, is led on a phone from an empty dashboard to its first QR code', async () => {
  const machineB = await api.token('sandbox-client-b');
  const nit = uniqueNit();
  const [account] = accountNumbers(1) as [string];
  // The sponsor bank approves the merchant and its account: outside the dashboard, as in life.
  const approval = await api.request('POST', '/sandbox/sponsor-bank/merchants', {
    token: machineB,
    body: {
      identification_type: 'NIT',
      identification_number: nit,
      business_name: 'Panaderia El Trigal SAS',
      accounts: [account],
    },
  });
  expect(approval.status).toBe(201);

  const { context, page } = await newPerson(PHONE);
  await signIn(page, 'merchant-admin-b');
  await page.getByRole('heading', { level: 2, name: 'No QR codes yet' }).waitFor();
  await settled(page);
  expect(await page.getByRole('listitem').filter({ hasText: 'Next' }).textContent()).toContain(
    'Link a merchant the sponsor bank approved',
  );
  expect((await overflowOf(page)).extra).toBe(0);
  await expectAccessible(page);
  await shoot(page, 'first-run');

  await page.getByRole('link', { name: 'Link a merchant the sponsor bank approved' }).click();
  await page.getByText('No merchants yet: link the first one with the form below.').waitFor();
  // The page's own checks first: nothing is sent until the NIT has its 9 digits.
  const nitField = page.getByLabel('NIT', { exact: true });
  await page.getByLabel('Business name').fill('Panaderia El Trigal SAS');
  await nitField.fill('12345');
  await page.getByRole('button', { name: 'Link merchant' }).click();
  await page.getByText(en['form.nitRule']).waitFor();
  expect(await nitField.getAttribute('aria-invalid')).toBe('true');
  await expectAccessible(page);
  await shoot(page, 'link-merchant-checked');
  // The NIT as the RUT prints it, dots and check digit: a mistyped check digit is caught here.
  const dotted = `${nit.slice(0, 3)}.${nit.slice(3, 6)}.${nit.slice(6)}`;
  const check = nitCheckDigit(nit);
  await nitField.fill(`${dotted}-${(check + 1) % 10}`);
  await page.getByRole('button', { name: 'Link merchant' }).click();
  await page.getByText(en['form.nitCheckDigit'].replace('{digit}', String(check))).waitFor();
  await nitField.fill(`${dotted}-${check}`);
  await page.getByLabel('E-mail').fill('pagos@eltrigal.co');
  // A phone as people write it: the country's code, spaces.
  await page.getByLabel('Mobile phone').fill('+57 310 555 0101');
  await page.getByLabel('Address', { exact: true }).fill('Carrera 7 # 12-40');
  await page.getByLabel('City').fill('Medellín');
  await page.getByLabel('Department').fill('Antioquia');
  await page.getByLabel('Postal code').fill('050001');
  await page.getByLabel('Category code (MCC)').fill('5462');
  await page.getByRole('button', { name: 'Link merchant' }).click();
  await rowWith(page, 'Panaderia El Trigal SAS').getByRole('link').click();
  // Linked as the API writes them: the NIT's 9 digits, the phone in E.164.
  const { items: linked } = await walkAll(api, machineB, '/v1/customers', 'customers', {});
  expect(linked.find((customer) => customer.identification_number === nit)).toMatchObject({
    identification_number: nit,
    mobile_phone_number: '+573105550101',
  });

  await page.getByRole('heading', { level: 1, name: 'Panaderia El Trigal SAS' }).waitFor();
  await page.getByLabel('Account number').fill(account);
  await page.getByRole('button', { name: 'Link account' }).click();
  await rowWith(page, account).waitFor();
  const key = uniqueAlphaKey();
  await page.getByLabel('Key', { exact: true }).fill(key);
  await page.getByRole('button', { name: 'Register key' }).click();
  await rowWith(page, key).waitFor();
  expect((await overflowOf(page)).extra).toBe(0);
  await expectAccessible(page);
  await shoot(page, 'merchant-set-up');

  await page.getByRole('link', { name: 'QR codes' }).click();
  await page.getByRole('link', { name: 'New QR code' }).click();
  await page.getByLabel('Merchant').selectOption({ label: `Panaderia El Trigal SAS (NIT ${nit})` });
  await page.getByLabel('Bre-B key').selectOption({ label: `ALPHA ${key}` });
  await page.getByLabel('Kind of code').selectOption('hybrid');
  await page.getByLabel('Reference').fill('CAJAB1');
  // Pesos as Colombians write them, and the field says what it understood.
  await page.getByLabel('Amount (COP)').fill('119.000,00');
  await page.getByText(`Understood as ${formatCop('119000.00')}`).waitFor();
  await page.getByLabel('VAT included (COP)').fill('19.000');
  await page.getByText(`Understood as ${formatCop('19000.00')}`).waitFor();
  expect((await overflowOf(page)).extra).toBe(0);
  await expectAccessible(page);
  await shoot(page, 'new-qr-code-typed');
  await page.getByRole('button', { name: 'Create QR code' }).click();
  await page.getByRole('heading', { level: 1, name: 'QR code CAJAB1' }).waitFor();
  await page.getByText(`${formatCop('19000.00')} (on a base of ${formatCop('100000.00')})`).waitFor();

  await page.getByRole('link', { name: 'Webhooks' }).click();
  await page.getByLabel("Receiver's address").fill(`${receiver.url}/b`);
  await page.getByRole('button', { name: 'Add webhook' }).click();
  await rowWith(page, `${receiver.url}/b`).waitFor();
  await leave(context);
});

test('merchant-admin-a sees the QR code created through the API, downloads its PNG and prints its counter sign', async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  expect(await page.getByRole('banner').textContent()).toContain('Signed in as merchant-admin-a for sandbox-client-a');
  const row = rowWith(page, 'MOSTRADOR1');
  await row.waitFor();
  expect(await row.textContent()).toContain(formatCop('119000.00'));
  const thumbnail = row.getByRole('img', { name: 'QR code MOSTRADOR1' });
  expect(await ofElement(thumbnail, 'return element.complete && element.naturalWidth > 0')).toBe(true);

  await row.getByRole('link', { name: 'MOSTRADOR1' }).click();
  await page.getByRole('heading', { level: 1, name: 'QR code MOSTRADOR1' }).waitFor();
  // The full-size image is the API's own PNG, byte for byte.
  const image = page.getByRole('img', { name: /^QR code MOSTRADOR1/ });
  expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${codeA.qr_code_image}`);
  expect(await ofElement<number>(image, 'return element.naturalWidth')).toBeGreaterThanOrEqual(290);
  expect(await page.getByLabel('Payload (EMVCo)').inputValue()).toBe(codeA.qr_code_data);
  // The taxes the code carries, and its channel with what it means.
  await page.getByText(`${formatCop('19000.00')} (on a base of ${formatCop('100000.00')})`).waitFor();
  await page.getByText('POS (point of sale)').waitFor();
  await rowWith(page, 'Received').getByText(formatCop('119000.00')).waitFor();

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download PNG' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('qr-MOSTRADOR1.png');
  expect(readFileSync(await download.path()).toString('base64')).toBe(codeA.qr_code_image);

  // Print shows the counter sign alone: the merchant, the code, the amount.
  await page.getByRole('button', { name: 'Print' }).waitFor();
  await page.emulateMedia({ media: 'print' });
  const sign = page.locator('.counter-sign');
  expect(await sign.isVisible()).toBe(true);
  expect(await sign.textContent()).toContain('Tienda La Esperanza SAS');
  expect(await sign.textContent()).toContain(formatCop('119000.00'));
  expect(await page.getByRole('heading', { level: 1 }).isVisible()).toBe(false);
  await page.setViewportSize({ width: 559, height: 794 });
  await page.screenshot({ path: path.join(SCREENSHOTS, 'qr-code-print.png') });
  await page.emulateMedia({ media: 'screen' });
  await page.setViewportSize(DESK);
  expect(await sign.isVisible()).toBe(false);

  // The access token stayed in memory: nothing in the page's storage.
  expect(await inPage(page, '[localStorage.length, sessionStorage.length]')).toEqual([0, 0]);
  await leave(context);
});

test('merchant-admin-a creates a QR code from the form with amounts typed as Colombians type them', async () => {
  const { context, page } = await newPerson();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
  await signIn(page, 'merchant-admin-a');
  await page.getByRole('link', { name: 'New QR code' }).click();
  await page.getByRole('heading', { level: 1, name: 'New QR code' }).waitFor();
  // Choosing the merchant reads its keys; its key is offered once they are read.
  await page.getByLabel('Merchant').selectOption({ label: `Tienda La Esperanza SAS (NIT ${merchantA.nit})` });
  await page.getByLabel('Bre-B key').selectOption({ label: `ALPHA ${merchantA.key.key_value}` });
  await page.getByLabel('Kind of code').selectOption('dynamic');
  await page.getByLabel('Reference').fill('VENTA42');
  // Written the United States' way, an amount reads two ways: refused, with how to write it.
  await page.getByLabel('Amount (COP)').fill('58,000.00');
  await page.getByText(/reads two ways/).waitFor();
  await page.getByLabel('Terminal label').fill('CAJA01');
  await page.getByRole('button', { name: 'Create QR code' }).click();
  expect(await inPage(page, 'document.activeElement?.id')).toBe('new-amount');
  await page.getByLabel('Amount (COP)').fill('58.000');
  await page.getByLabel('VAT included (COP)').fill('8.000,00');
  await page.getByText(`Understood as ${formatCop('58000.00')}`).waitFor();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create QR code' }).click();

  await page.getByRole('heading', { level: 1, name: 'QR code VENTA42' }).waitFor();
  await page.getByText('00 (purchase)').waitFor();
  await page.getByRole('button', { name: 'Copy payload' }).click();
  await page.getByText('Payload copied to the clipboard.').waitFor();
  const payload = await page.getByLabel('Payload (EMVCo)').inputValue();
  expect(await inPage(page, 'navigator.clipboard.readText()')).toBe(payload);

  await page.getByRole('button', { name: 'Pay as a sandbox shopper' }).click();
  await page.getByText('A paid code can no longer be changed or paid.').waitFor();
  await rowWith(page, 'Received').getByText(formatCop('58000.00')).waitFor();

  // The payment's own page: every code with its meaning, no empty row.
  await rowWith(page, 'Received').getByRole('link').click();
  await page.getByRole('heading', { level: 1, name: `Payment of ${formatCop('58000.00')}` }).waitFor();
  await page.getByRole('link', { name: 'VENTA42' }).waitFor();
  await page.getByText('No approval asked: the client has none set up').waitFor();
  expect(await inPage(page, "[...document.querySelectorAll('.details dd')].every((d) => d.textContent.trim())")).toBe(
    true,
  );
  expect(await page.getByText('NOT_REQUIRED').count()).toBe(0);

  // The API's refusal lands beside its field, in words: the reference is taken.
  await open(page, '#/qrcodes/new', 'New QR code');
  await page.getByLabel('Merchant').selectOption({ label: `Tienda La Esperanza SAS (NIT ${merchantA.nit})` });
  await page.getByLabel('Bre-B key').selectOption({ label: `ALPHA ${merchantA.key.key_value}` });
  await page.getByLabel('Reference').fill('VENTA42');
  await page.getByRole('button', { name: 'Create QR code' }).click();
  await page.getByText('This merchant already has a code with this reference.').waitFor();
  expect(await page.getByLabel('Reference').getAttribute('aria-describedby')).toContain('new-reference-error');
  await shoot(page, 'new-qr-code-refused');
  await leave(context);
});

/** The totals the page shows once the daily totals of `day` (YYYY-MM-DD) answered. */
async function totalsAfter(page: Page, day: string): Promise<string[]> {
  await page.waitForResponse((answer) => answer.url().includes(`/v1/payment-totals?from=${day}&to=${day}`));
  const totals = page.getByRole('definition');
  await until(async () => (await totals.count()) === 4, 'the totals shown');
  return totals.allTextContents();
}

test("payments: Bogotá's day, the search by reference, totals, reference and merchant columns", async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  await open(page, '#/payments', 'Payments');
  const headers = await page.getByRole('columnheader').allTextContents();
  expect(headers).toEqual(['Created', 'Reference', 'Merchant', 'Direction', 'Status', 'Amount', 'Other side']);
  const row = rowWith(page, 'MOSTRADOR1');
  expect(await row.textContent()).toContain('Tienda La Esperanza SAS');
  // Times in Bogotá, the year whole and the seconds shown.
  expect(await row.getByRole('cell').first().textContent()).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);

  const search = page.getByLabel("QR code's reference");
  await search.fill('MOSTRADOR1');
  await search.press('Enter');
  await until(async () => (await page.getByRole('row').count()) === 2, 'one payment');
  // A search by reference is summed from its list (the daily totals do not know references).
  const totals = page.getByRole('definition');
  await until(async () => (await totals.allTextContents())[0] === '1', "the search's totals");
  expect(await totals.allTextContents()).toEqual([
    '1',
    formatCop('119000.00'),
    formatCop('119000.00'),
    formatCop('0.00'),
  ]);
  // The search cleared, the whole list again before the next filter: typed while the list still
  // loads (a cold first run), the day could be lost to the render that answer brings.
  const cleared = page.waitForResponse(
    (answer) => answer.url().includes('/v1/payments?') && !answer.url().includes('qr_code_reference='),
  );
  await search.fill('');
  await search.press('Enter');
  await cleared;
  await page.waitForLoadState('networkidle');

  // Today in Bogotá: the API is asked for the day's bounds in UTC, 05:00 to 04:59:59.999 the next day.
  const day = page.getByLabel('Created on');
  const today = bogotaDay();
  const asked = page.waitForRequest((request) => request.url().includes('created_from='));
  const todayTotals = totalsAfter(page, today.iso);
  await day.fill(today.typed);
  await day.press('Enter');
  const query = new URL((await asked).url()).searchParams;
  expect(query.get('created_from')).toBe(`${today.iso}T05:00:00.000Z`);
  expect(query.get('created_to')?.endsWith('T04:59:59.999Z')).toBe(true);
  await page.getByText(`${today.typed}, Bogotá`).waitFor();
  await rowWith(page, 'MOSTRADOR1').waitFor();
  // The day's totals come from the API's daily totals of that one day: every payment of this test is
  // today's, so they are the last 30 days' (which the page shows, and says, with no day chosen).
  const dayTotals = await todayTotals;
  await day.fill('');
  await day.press('Enter');
  await page.getByText('Totals of the last 30 days in Bogotá', { exact: false }).waitFor();
  expect(await page.getByRole('definition').allTextContents()).toEqual(dayTotals);
  await day.fill(bogotaDay(-1).typed);
  const yesterday = totalsAfter(page, bogotaDay(-1).iso);
  await day.press('Enter');
  expect(await yesterday).toEqual(['0', formatCop('0.00'), formatCop('0.00'), formatCop('0.00')]);
  await page.getByText('No payments to show.').waitFor();
  await day.fill('31/02/2026');
  await day.press('Enter');
  await page.getByText('There is no 31/02/2026.').waitFor();
  await expectAccessible(page);
  await leave(context);
});

test('a day typed while the list is still answering stays typed, and applies on Enter', async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  await open(page, '#/payments', 'Payments');
  // The list's next answer is held until the day is typed: it renders in the middle of the typing.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const isList = (url: URL) => url.pathname === '/v1/payments';
  await page.route(isList, async (route) => {
    await held;
    await route.continue();
  });
  const search = page.getByLabel("QR code's reference");
  await search.fill('MOSTRADOR1');
  await search.press('Enter');
  const day = page.getByLabel('Created on');
  const today = bogotaDay();
  await day.fill(today.typed);
  release();
  await until(async () => (await page.getByRole('row').count()) === 2, 'the held answer shown');
  expect(await day.inputValue()).toBe(today.typed);
  await page.unroute(isList);
  const asked = page.waitForRequest((request) => request.url().includes('created_from='));
  await day.press('Enter');
  expect(new URL((await asked).url()).searchParams.get('created_from')).toBe(`${today.iso}T05:00:00.000Z`);
  await page.getByText(`${today.typed}, Bogotá`).waitFor();
  await leave(context);
});

test('a test delivery changes from PENDING to SUCCEEDED on the open page, without a reload', async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  await open(page, `#/webhooks/${webhookA.id}`, 'Webhook Caja principal');
  await inPage(page, 'window.sameDocument = true');
  await page.getByRole('button', { name: 'Send a test event' }).click();
  const delivery = rowWith(page, 'webhook.test');
  await delivery.getByText('PENDING').waitFor();
  await shoot(page, 'webhook-pending');
  await delivery.getByText('SUCCEEDED').waitFor({ timeout: 20_000 });
  expect(await inPage(page, 'window.sameDocument')).toBe(true);
  await leave(context);
});

test('the API out of reach: said in words with a Retry, which brings the list once it answers', async () => {
  const { context, page } = await newPerson(PHONE);
  await signIn(page, 'merchant-admin-a');
  await page.route('**/v1/payments?**', (route) => route.abort('internetdisconnected'));
  await page.getByRole('link', { name: 'Payments' }).click();
  const alert = page.getByRole('alert');
  await alert.getByText('The API cannot be reached: check the connection, then retry.').waitFor();
  expect(await alert.textContent()).not.toContain('answered 0');
  await expectAccessible(page);
  await shoot(page, 'api-unreachable');
  await page.unroute('**/v1/payments?**');
  await alert.getByRole('button', { name: 'Retry' }).click();
  await rowWith(page, 'MOSTRADOR1').waitFor();
  await leave(context);
});

test('viewer-a is offered nothing they may not do; a reload signs them back in, a sign-out ends it', async () => {
  const { context, page } = await newPerson(PHONE);
  await signIn(page, 'viewer-a');
  await page.getByText('read only').waitFor();
  await rowWith(page, 'MOSTRADOR1').waitFor();
  expect(await page.getByRole('link', { name: 'New QR code' }).count()).toBe(0);
  await open(page, '#/qrcodes/new', 'New QR code');
  await page.getByText('Your sign-in may look at QR codes but not create them.').waitFor();
  expect(await page.getByRole('button', { name: 'Create QR code' }).count()).toBe(0);

  await open(page, `#/qrcodes/${codeA.id}`, 'QR code MOSTRADOR1');
  // Looking is allowed: the image can be downloaded and printed.
  await page.getByRole('link', { name: 'Download PNG' }).waitFor();
  for (const name of ['Delete QR code', 'Pay as a sandbox shopper']) {
    expect(await page.getByRole('button', { name }).count()).toBe(0);
  }
  await shoot(page, 'viewer-qr-code');

  // A reload is a new page: the token was in memory only, and the issuer's session brings it back.
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'QR code MOSTRADOR1' }).waitFor();
  expect(await page.getByLabel('Password').count()).toBe(0);
  expect(await inPage(page, '[localStorage.length, sessionStorage.length, document.cookie]')).toEqual([0, 0, '']);
  expect(page.url()).toBe(`${api.url}/dashboard/#/qrcodes/${codeA.id}`);

  await open(page, '#/keys', 'Bre-B keys');
  await rowWith(page, merchantA.key.key_value).waitFor();
  expect(await page.getByRole('columnheader', { name: 'Actions' }).count()).toBe(0);
  expect(await page.getByRole('button', { name: /Suspend/ }).count()).toBe(0);
  await open(page, `#/merchants/${merchantA.customerId}`, 'Tienda La Esperanza SAS');
  await rowWith(page, merchantA.accountNumber).waitFor();
  for (const name of ['Link an account', 'Register a key']) {
    expect(await page.getByRole('heading', { name }).count()).toBe(0);
  }
  await open(page, '#/merchants', 'Merchants');
  expect(await page.getByRole('heading', { name: 'Link a merchant' }).count()).toBe(0);
  await open(page, '#/webhooks', 'Webhooks');
  expect(await page.getByRole('heading', { name: 'Add a webhook' }).count()).toBe(0);
  await open(page, `#/webhooks/${webhookA.id}`, 'Webhook Caja principal');
  expect(await page.getByRole('button', { name: 'Send a test event' }).count()).toBe(0);

  // Signing out ends the issuer's session too: the next page load offers Sign in, and no password is skipped.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.reload();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Password').waitFor();
  await leave(context);
});

test("a link's ?error is not shown unless its state is this page's, and then only in fixed words", async () => {
  const { context, page } = await newPerson();
  const phishing = 'Your account is blocked: call +57 300 000 0000';
  const forged = new URLSearchParams({ error: 'access_denied', error_description: phishing, state: 'forged' });
  await page.goto(`${api.url}/dashboard/?${forged}`);
  await page.getByRole('alert').getByText('This sign-in was not started from this page: sign in again.').waitFor();
  expect(await page.content()).not.toContain('call +57');
  // The query left the address bar: a reload shows nothing of it.
  expect(new URL(page.url()).search).toBe('');

  // A real sign-in turned back with an error and its description: the description is not shown either.
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Username').waitFor();
  const state = new URL(page.url()).searchParams.get('state')!;
  const returned = new URLSearchParams({ error: 'access_denied', error_description: phishing, state });
  await page.goto(`${api.url}/dashboard/?${returned}`);
  await page.getByRole('alert').getByText('Sign-in was cancelled or refused: sign in again.').waitFor();
  expect(await page.content()).not.toContain('call +57');
  await leave(context);
});

test('merchant-admin-a sees who changed what on the Activity page', async () => {
  const token = await api.token('sandbox-client-a');
  const created = await api.request('POST', '/v1/webhooks', {
    token,
    body: { url: 'http://127.0.0.1:9/activity', events: ['payment.settled'] },
  });
  expect(created.status).toBe(200);
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  await page.getByRole('link', { name: 'Activity' }).click();
  await page.getByRole('heading', { level: 1, name: 'Activity' }).waitFor();
  await rowWith(page, 'http://127.0.0.1:9/activity').waitFor();
  const row = await rowWith(page, 'http://127.0.0.1:9/activity').textContent();
  expect(row).toContain('sandbox-client-a');
  // The action in the person's language, with the API's name of it.
  expect(row).toContain('Webhook added');
  expect(row).toContain('webhook.created');

  // Filtered by kind: keys only, then webhooks again; by who: nobody of that name, then the client.
  const change = rowWith(page, 'http://127.0.0.1:9/activity');
  await page.getByLabel('Kind').selectOption({ label: 'Bre-B key' });
  await until(async () => (await change.count()) === 0, 'no webhook among the keys');
  await page.getByLabel('Kind').selectOption({ label: 'Webhook' });
  await change.waitFor();
  await page.getByLabel('Who').fill('somebody-else');
  await page.getByLabel('Who').press('Enter');
  await page.getByText('No changes to show.').waitFor();
  expect(await change.count()).toBe(0);
  await page.getByLabel('Who').fill('sandbox-client-a');
  await page.getByLabel('Who').press('Enter');
  await change.waitFor();
  await leave(context);
});

test("merchant-admin-b sees tenant B's codes and never tenant A's", async () => {
  const codesB = await api.request('GET', '/v1/qrcodes', { token: await api.token('sandbox-client-b') });
  const codeB = codesB.body.qr_codes.find((code: Record<string, any>) => code.qr_code_reference.endsWith('CAJAB1'));
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-b');
  await rowWith(page, 'CAJAB1').waitFor();
  expect(await page.getByRole('row').count()).toBe(2);
  expect(await page.getByText('MOSTRADOR1').count()).toBe(0);
  await page.goto(`${api.url}/dashboard/#/qrcodes/${codeA.id}`);
  await page.getByRole('alert').getByText('This belongs to another platform: you cannot see it.').waitFor();
  expect(await page.getByRole('img', { name: /QR code/ }).count()).toBe(0);
  await page.goto(`${api.url}/dashboard/#/qrcodes/${codeB.id}`);
  await page.getByRole('heading', { level: 1, name: 'QR code CAJAB1' }).waitFor();
  await leave(context);
});

test('keyboard only: sign-in, the skip link and the sections; labels and contrast pass axe-core', async () => {
  const { context, page } = await newPerson();
  await page.goto(`${api.url}/dashboard/`);
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  await expectAccessible(page);
  await shoot(page, 'signed-out');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByLabel('Username').waitFor();
  await expectAccessible(page);
  await shoot(page, 'sign-in');
  // The issuer's page puts the focus on Username.
  await page.keyboard.type('merchant-admin-a');
  await page.keyboard.press('Tab');
  await page.keyboard.type(passwordOf('merchant-admin-a'));
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Overview' }).waitFor();
  await settled(page);

  // First Tab: the skip link, which takes the focus to the content.
  await page.keyboard.press('Tab');
  const focused = () => inPage<string | undefined>(page, 'document.activeElement?.textContent?.trim()');
  expect(await focused()).toBe('Skip to content');
  await page.keyboard.press('Enter');
  expect(await inPage(page, 'document.activeElement?.id')).toBe('main');

  // Back from the content through the sections, last to first; Enter opens Payments.
  const seen: string[] = [];
  for (let i = 0; i < 9; i++) {
    await page.keyboard.press('Shift+Tab');
    seen.push((await focused()) ?? '');
  }
  expect(seen).toEqual([
    'Activity',
    'Webhooks',
    'Keys',
    'Merchants',
    'Reconciliation',
    'Refunds',
    'Payments',
    'QR codes',
    'Overview',
  ]);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
  await rowWith(page, formatCop('119000.00')).first().waitFor();
  await leave(context);
});

test('every page at a desk and on a phone: nothing scrolls sideways, axe-core passes, a screenshot of each', async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  const pages: [string, string, string | RegExp][] = [
    ['overview', '#/overview', 'Overview'],
    ['qr-codes', '#/qrcodes', 'QR codes'],
    ['qr-code', `#/qrcodes/${codeA.id}`, 'QR code MOSTRADOR1'],
    ['new-qr-code', '#/qrcodes/new', 'New QR code'],
    ['payments', '#/payments', 'Payments'],
    ['payment', `#/payments/${paymentA.id}`, /^Payment of/],
    ['refunds', '#/refunds', 'Refunds'],
    ['reconciliation', '#/reconciliation', 'Reconciliation with the bank'],
    ['merchants', '#/merchants', 'Merchants'],
    ['merchant', `#/merchants/${merchantA.customerId}`, 'Tienda La Esperanza SAS'],
    ['keys', '#/keys', 'Bre-B keys'],
    ['webhooks', '#/webhooks', 'Webhooks'],
    ['webhook', `#/webhooks/${webhookA.id}`, 'Webhook Caja principal'],
    ['activity', '#/activity', 'Activity'],
  ];
  const wide: string[] = [];
  for (const viewport of [PHONE, DESK]) {
    await page.setViewportSize(viewport);
    for (const [name, hash, heading] of pages) {
      await open(page, hash, heading);
      const { extra, culprits } = await overflowOf(page);
      if (extra > 0) wide.push(`${name} at ${viewport.width}: ${extra}px wider (${culprits.join(', ')})`);
      expect([name, await axeViolations(page)]).toEqual([name, []]);
      await shoot(page, name);
    }
  }
  expect(wide).toEqual([]);
  await leave(context);
}, 300_000);

test('payments found by the start of a word in any case, and by an amount typed the Colombian way', async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  await open(page, '#/payments', 'Payments');
  const search = page.getByLabel('Search', { exact: true });
  const asked = page.waitForRequest((request) => request.url().includes('search=mOsTr'));
  await search.fill('mOsTr');
  await search.press('Enter');
  await asked;
  await until(async () => (await page.getByRole('row').count()) === 2, 'the one payment found');
  await rowWith(page, 'MOSTRADOR1').waitFor();
  await search.fill('');
  await search.press('Enter');

  const amount = page.getByLabel('Amount (COP)');
  const byAmount = page.waitForRequest((request) => request.url().includes('amount=119000.00'));
  await amount.fill('119.000');
  await amount.press('Enter');
  await byAmount;
  await page.getByText(formatCop('119000.00'), { exact: true }).first().waitFor();
  await until(async () => (await page.getByRole('row').count()) === 2, 'the one payment of that amount');
  await rowWith(page, 'MOSTRADOR1').waitFor();
  await amount.fill('1.19.000');
  await amount.press('Enter');
  await page.getByText(en['money.how'], { exact: false }).first().waitFor();
  await leave(context);
});

test('on a phone the payments are compact cards: the time and the amount on one line, three lines at most', async () => {
  const { context, page } = await newPerson(PHONE);
  await signIn(page, 'merchant-admin-a');
  await open(page, '#/payments', 'Payments');
  const rows = page.locator('table.data tbody tr');
  expect(await rows.count()).toBeGreaterThan(0);
  const cards = await rows.evaluateAll((found) =>
    found.map((row) => {
      const box = (element: unknown) =>
        (element as { getBoundingClientRect(): { top: number; height: number } }).getBoundingClientRect();
      const cells = (row as unknown as { querySelectorAll(s: string): unknown[] }).querySelectorAll('td');
      const amount = (row as unknown as { querySelector(s: string): unknown }).querySelector('td.number');
      return { height: box(row).height, created: box(cells[0]).top, amount: box(amount).top };
    }),
  );
  for (const card of cards) {
    // A card of a line per cell was some 340 px: ten payments, 3,400 px of scrolling.
    expect(card.height).toBeLessThan(110);
    expect(Math.abs(card.amount - card.created)).toBeLessThan(8);
  }
  // The cells keep their role and column: a screen reader still names each by its header.
  expect(await page.getByRole('columnheader').count()).toBe(7);
  expect(await axeViolations(page)).toEqual([]);
  await leave(context);
});

test('a payment sent goes from PENDING to SETTLED on its open page, without a reload', async () => {
  const machineA = await api.token('sandbox-client-a');
  const payer = await merchantWithKey(api, machineA, {
    businessName: 'Ferreteria Central SAS',
    availableBalance: '500.00',
  });
  // Ana María's phone in the sandbox directory: a key at another participant.
  const resolution = await resolvedKey(api, machineA, payer.customerId, { key_type: 'PHONE', key_value: '3001234567' });
  const { context, page } = await newPerson(PHONE);
  await signIn(page, 'merchant-admin-a');
  const sent = await api.request('POST', '/v1/payments', {
    token: machineA,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: resolution,
      amount: { value: '120.50', currency: 'COP' },
    },
  });
  expect(sent.body.status).toBe('PENDING');
  await open(page, `#/payments/${sent.body.id}`, `Payment of ${formatCop('120.50')}`);
  await inPage(page, 'window.sameDocument = true');
  await page.getByText('Waiting for the network to settle it (this page updates)').waitFor();
  await page.getByText('SETTLED', { exact: true }).waitFor({ timeout: 15_000 });
  expect(await page.getByText('Sent', { exact: true }).count()).toBe(1);
  expect(await inPage(page, 'window.sameDocument')).toBe(true);
  await leave(context);
});

test('merchant-admin-a refunds part of a received payment from its page; viewer-a sees the refund and no button', async () => {
  const machineA = await api.token('sandbox-client-a');
  const received = await api.request('POST', '/sandbox/payments/inbound', {
    token: machineA,
    body: { key: merchantA.key, amount: { value: '80000.00', currency: 'COP' } },
  });
  expect(received.body.status).toBe('SETTLED');
  const heading = `Payment of ${formatCop('80000.00')}`;
  const { context, page } = await newPerson(DESK);
  await signIn(page, 'merchant-admin-a');
  await open(page, `#/payments/${received.body.id}`, heading);
  await page.getByRole('heading', { name: 'Refunds' }).waitFor();
  await page.getByText('No refunds to show.').waitFor();
  // The whole remainder by default; a part typed as Colombians type it.
  const amount = page.getByLabel('Amount to give back (COP)');
  expect(await amount.inputValue()).toBe('80000.00');
  await amount.fill('30.000');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  // Asked once more, naming the amount; Cancel gives the form back as it was.
  await page.getByText(`Refund ${formatCop('30000.00')} of this payment?`).waitFor();
  await page.getByRole('button', { name: 'Cancel' }).click();
  expect(await amount.inputValue()).toBe('30.000');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  await page.getByRole('button', { name: `Yes, refund ${formatCop('30000.00')}` }).click();
  await page.getByText('Refund made.').waitFor();
  await rowWith(page, formatCop('30000.00')).waitFor();
  // The payment read again: what was refunded, and the rest offered next.
  await page.getByText(formatCop('30000.00'), { exact: true }).first().waitFor();
  await until(async () => (await page.locator('#refund-amount').inputValue()) === '50000.00', 'offering 50000.00');
  // The sandbox network settles the refund while the page is open.
  await rowWith(page, 'SETTLED').waitFor({ timeout: 15_000 });
  const refunds = await api.request('GET', `/v1/refunds?payment_id=${received.body.id}`, { token: machineA });
  expect(refunds.body.refunds.map((r: { amount: { value: string } }) => r.amount.value)).toEqual(['30000.00']);
  await leave(context);

  const viewer = await newPerson(DESK);
  await signIn(viewer.page, 'viewer-a');
  await open(viewer.page, `#/payments/${received.body.id}`, heading);
  await rowWith(viewer.page, formatCop('30000.00')).waitFor();
  expect(await viewer.page.getByRole('button', { name: 'Refund', exact: true }).count()).toBe(0);
  expect(await viewer.page.getByLabel('Amount to give back (COP)').count()).toBe(0);
  // The API refuses a viewer anyway.
  const viewerToken = await api.token('sandbox-client-readonly');
  const refused = await api.request('POST', `/v1/payments/${received.body.id}/refunds`, {
    token: viewerToken,
    body: {},
    headers: { 'Idempotency-Key': 'viewer-refund' },
  });
  expect(refused.status).toBe(403);
  await leave(viewer.context);
});

test('a refund pressed twice, or confirmed twice, is one refund; the remainder is only offered again', async () => {
  const machineA = await api.token('sandbox-client-a');
  const received = await api.request('POST', '/sandbox/payments/inbound', {
    token: machineA,
    body: { key: merchantA.key, amount: { value: '20000.00', currency: 'COP' } },
  });
  expect(received.body.status).toBe('SETTLED');
  const refunded = async () =>
    (await api.request('GET', `/v1/refunds?payment_id=${received.body.id}`, { token: machineA })).body.refunds.map(
      (r: { amount: { value: string } }) => r.amount.value,
    );
  const { context, page } = await newPerson(DESK);
  await signIn(page, 'merchant-admin-a');
  await open(page, `#/payments/${received.body.id}`, `Payment of ${formatCop('20000.00')}`);
  await page.getByLabel('Amount to give back (COP)').fill('100');
  await page.getByRole('button', { name: 'Refund', exact: true }).click();
  const confirmation = page.getByRole('button', { name: `Yes, refund ${formatCop('100.00')}` });
  // A double tap on the confirmation, then a third tap where it was, after the refund is made and the
  // form offers the remainder (the 20,000 payment's whole 19,900, which the old form refunded).
  await confirmation.dblclick();
  await page.getByText('Refund made.').waitFor();
  // The payment read again, the form starts anew with what is left.
  await until(async () => (await page.locator('#refund-amount').inputValue()) === '19900.00', 'offering 19900.00');
  const box = (await page.getByRole('button', { name: 'Refund', exact: true }).boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  // The taps only asked: the remainder waits for its own confirmation.
  await page.getByText(`Refund ${formatCop('19900.00')} of this payment?`).waitFor();
  await page.waitForTimeout(1_500);
  expect(await refunded()).toEqual(['100.00']);
  await leave(context);
});

test('merchant-admin-a deletes a code (asked twice), suspends a key and activates it again', async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  await open(page, `#/qrcodes/${codeA.id}`, 'QR code MOSTRADOR1');
  await page.getByRole('button', { name: 'Delete QR code' }).click();
  await page.getByRole('button', { name: 'Yes, delete it' }).click();
  await page.getByText('A deleted code can no longer be changed or paid.').waitFor();
  await open(page, '#/keys', 'Bre-B keys');
  const name = `ALPHA ${merchantA.key.key_value}`;
  await page.getByRole('button', { name: `Suspend key ${name}` }).click();
  await page.getByRole('button', { name: `Activate key ${name}` }).click();
  await page.getByRole('button', { name: `Suspend key ${name}` }).waitFor();
  await leave(context);
});

test('every page asked only the local server: no font, script or beacon from anywhere else', () => {
  const origins = new Set(requested.filter((url) => !url.startsWith('data:')).map((url) => new URL(url).origin));
  expect([...origins]).toEqual([api.url]);
});

test('every answer the API gave the pages is one its OpenAPI document describes', async () => {
  const checks = (await Promise.all(contractChecks)).filter((check) => check !== undefined);
  expect(checks.flatMap((check) => check.violation ?? [])).toEqual([]);
  // The pages did call the API: its reads, and the writes of the tests above.
  expect([...new Set(checks.map((check) => check.call))]).toEqual(
    expect.arrayContaining([
      'GET /v1/qrcodes',
      'GET /v1/payments',
      'GET /v1/accounts',
      'POST /v1/customers/business/link',
      'POST /v1/accounts',
      'POST /v1/keys',
      'POST /v1/webhooks',
      'POST /v1/qrcodes',
      expect.stringMatching(/^POST \/sandbox\/qrcodes\/[^/]+\/pay$/),
      `DELETE /v1/qrcodes/${codeA.id}`,
      expect.stringMatching(/^PATCH \/v1\/keys\/[^/]+\/suspend$/),
      expect.stringMatching(/^POST \/v1\/webhooks\/[^/]+\/test$/),
    ]),
  );
});
