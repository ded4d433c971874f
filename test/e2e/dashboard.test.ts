/**
 * The dashboard in a real browser (Debian's Chromium through playwright-core) against the real
 * local runtime, as a person uses it: each sandbox person signs in on the issuer's page; a QR code
 * created through the API appears with its image; a new code is created from the form and paid by
 * the sandbox's shopper; tenant B never sees tenant A's codes; the viewer's writes are refused and
 * the page says why; the pages work from the keyboard and pass axe-core. Every answer the API gives
 * the pages is checked against the OpenAPI document, as the test client's are. One browser for the
 * file, one context per person. Screenshots go to SCREENSHOT_DIR (a temporary folder by default).
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Browser, BrowserContext, Locator, Page, Response } from 'playwright-core';
import { formatCop } from '../../dashboard/src/format';
import { launchBrowser } from '../support/browser';
import { checkAgainstContract } from '../support/contract';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';
import { passwordOf } from '../support/people';

jest.setTimeout(60_000);

const SCREENSHOTS = process.env['SCREENSHOT_DIR'] ?? path.join(tmpdir(), 'breb-dashboard-screenshots');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

let api: TestApi;
let browser: Browser;
let merchantA: MerchantWithKey;
/** A hybrid code of tenant A, created and paid through the API before anyone signs in. */
let codeA: Record<string, any>;
let codeB: Record<string, any>;
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

const hybrid = (merchant: MerchantWithKey, reference: string) => ({
  key_id: merchant.keyId,
  customer_id: merchant.customerId,
  type: 'STATIC',
  channel: 'POS',
  qr_code_reference: reference,
  amount: { value: '119000.00', currency: 'COP' },
  vat: { vat_type: 'FIXED', vat_value: '19000.00', vat_base_value: '100000.00' },
  inc: { inc_type: 'FIXED', inc_value: '0.00' },
});

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const [machineA, machineB] = await Promise.all([api.token('sandbox-client-a'), api.token('sandbox-client-b')]);
  merchantA = await merchantWithKey(api, machineA, { businessName: 'Tienda La Esperanza SAS' });
  const merchantB = await merchantWithKey(api, machineB, { businessName: 'Panaderia El Trigal SAS' });
  const created = await api.request('POST', '/v1/qrcodes', { token: machineA, body: hybrid(merchantA, 'MOSTRADOR1') });
  expect(created.status).toBe(200);
  codeA = created.body;
  const paid = await api.request('POST', `/sandbox/qrcodes/${codeA.id}/pay`, { token: machineA, body: {} });
  expect(paid.status).toBe(200);
  codeB = (await api.request('POST', '/v1/qrcodes', { token: machineB, body: hybrid(merchantB, 'CAJAB1') })).body;
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
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

async function newPerson(): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
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

/** Opens the dashboard and signs in on the issuer's page, as a person would. */
async function signIn(page: Page, username: string): Promise<void> {
  await page.goto(`${api.url}/dashboard/`);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(passwordOf(username));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'QR codes' }).waitFor();
}

const shoot = (page: Page, name: string) =>
  page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });

/** axe-core's WCAG 2.1 A/AA rules and best practices on the page as it is: no violation. */
async function expectAccessible(page: Page): Promise<void> {
  // Evaluated rather than added as a <script>: the pages' Content-Security-Policy forbids inline scripts.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
    return (await axe.run()).violations.map((v) => `${v.id}: ${v.nodes.map((n: any) => n.target).join(' ')}`);
  });
  expect(violations).toEqual([]);
}

/**
 * Evaluated in the page, where the DOM is: written as text, since the tests compile without the
 * DOM's types.
 */
const inPage = <T>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
const ofElement = <T>(locator: Locator, body: string): Promise<T> =>
  locator.evaluate(new Function('element', body) as (element: unknown) => T);

/** The row of a table that holds this text. */
const rowWith = (page: Page, text: string) => page.getByRole('row').filter({ hasText: text });

test('merchant-admin-a signs in and sees the QR code created through the API, with its image', async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-a');
  expect(await page.getByRole('banner').textContent()).toContain('Signed in as merchant-admin-a for sandbox-client-a');
  const row = rowWith(page, 'MOSTRADOR1');
  await row.waitFor();
  expect(await row.textContent()).toContain(formatCop('119000.00'));
  const thumbnail = row.getByRole('img', { name: 'QR code MOSTRADOR1' });
  expect(await ofElement(thumbnail, 'return element.complete && element.naturalWidth > 0')).toBe(true);
  await shoot(page, 'qr-codes');

  await row.getByRole('link', { name: 'MOSTRADOR1' }).click();
  await page.getByRole('heading', { level: 1, name: 'QR code MOSTRADOR1' }).waitFor();
  // The full-size image is the API's own PNG, byte for byte.
  const image = page.getByRole('img', { name: /^QR code MOSTRADOR1/ });
  expect(await image.getAttribute('src')).toBe(`data:image/png;base64,${codeA.qr_code_image}`);
  expect(await ofElement<number>(image, 'return element.naturalWidth')).toBeGreaterThanOrEqual(290);
  expect(await page.getByLabel('Payload (EMVCo)').inputValue()).toBe(codeA.qr_code_data);
  // The payment the sandbox shopper made, in pesos as Colombia writes them.
  await rowWith(page, 'INBOUND').getByText(formatCop('119000.00')).waitFor();
  await shoot(page, 'qr-code');

  // The access token stayed in memory: nothing in the page's storage.
  expect(await inPage(page, '[localStorage.length, sessionStorage.length]')).toEqual([0, 0]);
  await leave(context);
});

test('merchant-admin-a creates a QR code from the form and the sandbox shopper pays it', async () => {
  const { context, page } = await newPerson();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: api.url });
  await signIn(page, 'merchant-admin-a');
  await page.getByRole('link', { name: 'New QR code' }).click();
  await page.getByLabel('Merchant').selectOption({ label: `Tienda La Esperanza SAS (NIT ${merchantA.nit})` });
  await page.getByLabel('Bre-B key').selectOption({ label: `ALPHA ${merchantA.key.key_value}` });
  await page.getByLabel('Kind of code').selectOption('dynamic');
  await page.getByLabel('Reference').fill('VENTA42');
  await page.getByLabel('Amount (COP)').fill('58000.00');
  await page.getByLabel('VAT included (COP)').fill('8000.00');
  await page.getByLabel('Terminal label').fill('CAJA01');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Create QR code' }).click();

  await page.getByRole('heading', { level: 1, name: 'QR code VENTA42' }).waitFor();
  await page.getByRole('button', { name: 'Copy payload' }).click();
  await page.getByText('Payload copied to the clipboard.').waitFor();
  const payload = await page.getByLabel('Payload (EMVCo)').inputValue();
  expect(await inPage(page, 'navigator.clipboard.readText()')).toBe(payload);

  await page.getByRole('button', { name: 'Pay as a sandbox shopper' }).click();
  await page.getByText('A paid code can no longer be changed or paid.').waitFor();
  await rowWith(page, 'INBOUND').getByText(formatCop('58000.00')).waitFor();
  await shoot(page, 'qr-code-paid');

  // The payment's own page, reached from the code's.
  await rowWith(page, 'INBOUND').getByRole('link').click();
  await page.getByRole('heading', { level: 1, name: `Payment of ${formatCop('58000.00')}` }).waitFor();
  await page.getByRole('link', { name: 'VENTA42' }).waitFor();
  await leave(context);
});

test('viewer-a: the write buttons are refused by the API, and the page says why', async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'viewer-a');
  await page.getByText('read only').waitFor();
  await page.goto(`${api.url}/dashboard/#/qrcodes/${codeA.id}`);
  await page.getByRole('heading', { level: 1, name: 'QR code MOSTRADOR1' }).waitFor();
  // A reload is a new page: the token was in memory only, so the person signs in again...
  await page.reload();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByLabel('Username').fill('viewer-a');
  await page.getByLabel('Password').fill(passwordOf('viewer-a'));
  await page.getByRole('button', { name: 'Sign in' }).click();
  // ...and comes back to the page it asked for.
  await page.getByRole('heading', { level: 1, name: 'QR code MOSTRADOR1' }).waitFor();

  await page.getByRole('button', { name: 'Delete QR code' }).click();
  await page.getByRole('button', { name: 'Yes, delete it' }).click();
  const refusal = page.getByRole('alert');
  await refusal.getByText('Your sign-in does not allow this: it can read, not change.').waitFor();
  expect(await refusal.textContent()).toContain('The API answered 403 INSUFFICIENT_SCOPE');
  expect(await refusal.textContent()).toContain('breb/qrcodes.write');
  await shoot(page, 'viewer-refused');
  const still = await api.request('GET', `/v1/qrcodes/${codeA.id}`, { token: await api.token('sandbox-client-a') });
  expect(still.body.status).toBe('ACTIVE');

  await page.getByRole('link', { name: 'Keys' }).click();
  await page.getByRole('button', { name: `Suspend key ALPHA ${merchantA.key.key_value}` }).click();
  await page
    .getByRole('alert')
    .getByText(/403 INSUFFICIENT_SCOPE.*breb\/keys\.write/)
    .waitFor();
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
  expect(await rowWith(page, 'http://127.0.0.1:9/activity').textContent()).toContain('sandbox-client-a');
  await leave(context);
});

test("merchant-admin-b sees tenant B's codes and never tenant A's", async () => {
  const { context, page } = await newPerson();
  await signIn(page, 'merchant-admin-b');
  await rowWith(page, 'CAJAB1').waitFor();
  expect(await page.getByRole('row').count()).toBe(2);
  expect(await page.getByText('MOSTRADOR1').count()).toBe(0);
  // Only the hash changes (the same document, still signed in): the API refuses A's code.
  await page.goto(`${api.url}/dashboard/#/qrcodes/${codeA.id}`);
  await page.getByRole('alert').getByText('This belongs to another client.').waitFor();
  expect(await page.getByRole('img', { name: /QR code/ }).count()).toBe(0);
  await page.goto(`${api.url}/dashboard/#/qrcodes/${codeB.id}`);
  await page.getByRole('heading', { level: 1, name: 'QR code CAJAB1' }).waitFor();
  await leave(context);
});

test('keyboard only: sign-in, the skip link and the sections; labels and contrast pass axe-core', async () => {
  const { context, page } = await newPerson();
  await page.goto(`${api.url}/dashboard/`);
  await expectAccessible(page);
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
  await page.getByRole('heading', { level: 1, name: 'QR codes' }).waitFor();
  await rowWith(page, 'MOSTRADOR1').waitFor();
  await expectAccessible(page);

  // First Tab: the skip link, which takes the focus to the content.
  await page.keyboard.press('Tab');
  const focused = () => inPage<string | undefined>(page, 'document.activeElement?.textContent?.trim()');
  expect(await focused()).toBe('Skip to content');
  await page.keyboard.press('Enter');
  expect(await inPage(page, 'document.activeElement?.id')).toBe('main');

  // Back from the content through the sections, last to first; Enter opens Payments.
  const seen: string[] = [];
  for (let i = 0; i < 6; i++) {
    await page.keyboard.press('Shift+Tab');
    seen.push((await focused()) ?? '');
  }
  expect(seen).toEqual(['Activity', 'Webhooks', 'Keys', 'Merchants', 'Payments', 'QR codes']);
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
  await rowWith(page, formatCop('119000.00')).waitFor();
  await expectAccessible(page);
  await shoot(page, 'payments');

  await page.getByRole('link', { name: 'Merchants' }).press('Enter');
  await page.getByRole('heading', { level: 2, name: 'Accounts and balances' }).waitFor();
  await rowWith(page, merchantA.accountNumber).waitFor();
  await expectAccessible(page);
  await shoot(page, 'merchants');
  await leave(context);
});

test('every page asked only the local server: no font, script or beacon from anywhere else', () => {
  const origins = new Set(requested.filter((url) => !url.startsWith('data:')).map((url) => new URL(url).origin));
  expect([...origins]).toEqual([api.url]);
});

test('every answer the API gave the pages is one its OpenAPI document describes', async () => {
  const checks = (await Promise.all(contractChecks)).filter((check) => check !== undefined);
  expect(checks.flatMap((check) => check.violation ?? [])).toEqual([]);
  // The pages did call the API: its reads, and the writes of the tests above (the viewer's refused).
  expect([...new Set(checks.map((check) => check.call))]).toEqual(
    expect.arrayContaining([
      'GET /v1/qrcodes',
      'GET /v1/payments',
      'GET /v1/accounts',
      'POST /v1/qrcodes',
      expect.stringMatching(/^POST \/sandbox\/qrcodes\/[^/]+\/pay$/),
      `DELETE /v1/qrcodes/${codeA.id}`,
      expect.stringMatching(/^PATCH \/v1\/keys\/[^/]+\/suspend$/),
    ]),
  );
});
