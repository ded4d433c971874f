/**
 * The merchants behind the dashboard's filters and forms (dashboard/src/components/merchants.ts), in
 * Debian's Chromium against the real local runtime: read once while the person is signed in, however
 * many pages ask for them; read again after the person links one; and a read that failed says it
 * failed, with Retry, where the new-QR form would otherwise say there is no merchant (or, of a
 * merchant's keys, no key). A platform
 * without merchants opens on its first steps, not on an empty chart; first steps whose reads failed
 * say so, with Retry, and mark none done.
 */
import { jest } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { en } from '../../dashboard/src/i18n/en';
import { launchBrowser } from '../support/browser';
import { axeViolations, DESK, signIn } from '../support/dashboard-pages';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';

jest.setTimeout(120_000);

let api: TestApi;
let browser: Browser;
let merchant: MerchantWithKey;

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  merchant = await merchantWithKey(api, await api.token('sandbox-client-a'));
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

/** The merchants' reads (GET /v1/customers of a hundred, newest first) the page has sent. */
function countMerchantReads(page: Page): () => number {
  let reads = 0;
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (request.method() === 'GET' && url.pathname === '/v1/customers' && url.searchParams.get('page_size') === '100')
      reads += 1;
  });
  return () => reads;
}

/** Answers the API's reads `matching` with a 500 until `stop()`, then lets them through. */
async function failReads(page: Page, matching: (url: URL) => boolean): Promise<{ stop: () => void }> {
  let failing = true;
  await page.route(matching, async (route) => {
    if (!failing) return route.continue();
    await route.fulfill({
      status: 500,
      contentType: 'application/problem+json',
      body: JSON.stringify({ type: 'about:blank', title: 'Internal error', status: 500, code: 'INTERNAL_ERROR' }),
    });
  });
  return {
    stop: () => {
      failing = false;
    },
  };
}

/** The new-QR form's choice of the test's merchant. */
const merchantChoice = (page: Page) =>
  page.getByLabel(en['newQr.merchant']).locator(`option[value="${merchant.customerId}"]`);

/** Opens a section from the navigation, as a person does (no reload), and waits for its heading. */
async function open(page: Page, link: string, heading: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
}

test('read once while signed in, whatever the pages that show them', async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  const reads = countMerchantReads(page);
  await signIn(page, api.url, 'merchant-admin-a');
  await page.goto(`${api.url}/dashboard/#/`);
  await page.getByRole('heading', { level: 1, name: en['overview.title'] }).waitFor();
  for (const [link, heading] of [
    [en['section.payments'], en['payments.title']],
    [en['section.qrcodes'], en['qrcodes.title']],
    [en['section.overview'], en['overview.title']],
    [en['section.payments'], en['payments.title']],
  ] as const) {
    await open(page, link, heading);
    // Done once nothing says Loading… any more.
    await page.getByText('Loading…').first().waitFor({ state: 'detached' });
  }
  await page.getByRole('link', { name: en['section.qrcodes'], exact: true }).click();
  await page.getByRole('link', { name: en['qrcodes.new'] }).click();
  await merchantChoice(page).waitFor({ state: 'attached' });
  expect(reads()).toBe(1);
  await context.close();
});

test('a failed read says so with Retry, never that there is no merchant; Retry brings them', async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  // The API fails the merchants' reads until the test lets them through.
  const failing = await failReads(
    page,
    (url) => url.pathname === '/v1/customers' && url.searchParams.get('page_size') === '100',
  );
  await signIn(page, api.url, 'merchant-admin-a');
  await page.goto(`${api.url}/dashboard/#/qrcodes/new`);
  await page.getByRole('heading', { level: 1, name: en['qrcodes.new'] }).waitFor();
  await page.getByRole('alert').filter({ hasText: en['problem.unavailable'] }).waitFor();
  expect(await page.getByText(en['newQr.noMerchant']).count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);

  failing.stop();
  await page.getByRole('button', { name: en['app.retry'] }).click();
  await merchantChoice(page).waitFor({ state: 'attached' });
  expect(await page.getByRole('alert').filter({ hasText: en['problem.unavailable'] }).count()).toBe(0);
  await context.close();
});

test("a failed read of a merchant's keys says so with Retry, never that it has no key; Retry brings them", async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  const failing = await failReads(
    page,
    (url) => url.pathname === '/v1/keys' && url.searchParams.get('customer_id') === merchant.customerId,
  );
  await signIn(page, api.url, 'merchant-admin-a');
  await page.goto(`${api.url}/dashboard/#/qrcodes/new`);
  await page.getByRole('heading', { level: 1, name: en['qrcodes.new'] }).waitFor();
  await merchantChoice(page).waitFor({ state: 'attached' });
  await page.getByLabel(en['newQr.merchant']).selectOption(merchant.customerId);
  await page.getByRole('alert').filter({ hasText: en['problem.unavailable'] }).waitFor();
  expect(await page.getByText(en['newQr.noKey']).count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);

  failing.stop();
  await page.getByRole('button', { name: en['app.retry'] }).click();
  await page.getByLabel(en['newQr.key']).locator(`option[value="${merchant.keyId}"]`).waitFor({ state: 'attached' });
  expect(await page.getByRole('alert').count()).toBe(0);
  await context.close();
});

test('a platform without merchants opens on its first steps, not an empty chart', async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  // sandbox-client-b has linked nothing in this file's table.
  await signIn(page, api.url, 'merchant-admin-b');
  await page.getByRole('heading', { level: 2, name: en['firstRun.title'] }).waitFor();
  await page.getByRole('link', { name: en['firstRun.merchant'] }).waitFor();
  expect(await page.locator('section.overview').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);
  await context.close();
});

test('first steps whose reads failed say so with Retry and mark no step; Retry reads what exists', async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  // The API fails the keys' read until the test lets it through.
  const failing = await failReads(page, (url) => url.pathname === '/v1/keys');
  await signIn(page, api.url, 'merchant-admin-a');
  // The test's merchant has an account and a key, and no QR code: the codes page shows the first steps.
  await page.goto(`${api.url}/dashboard/#/qrcodes`);
  await page.getByRole('heading', { level: 2, name: en['firstRun.title'] }).waitFor();
  await page.getByRole('alert').filter({ hasText: en['problem.unavailable'] }).waitFor();
  const steps = page.locator('ol.steps li');
  expect(await steps.count()).toBe(5);
  expect(await page.locator('ol.steps li.done, ol.steps li.next').count()).toBe(0);
  expect(await axeViolations(page)).toEqual([]);

  failing.stop();
  await page.getByRole('button', { name: en['app.retry'] }).click();
  await page.locator('ol.steps li.next').waitFor();
  expect(await page.locator('ol.steps li.done').allTextContents()).toEqual(
    [en['firstRun.merchant'], en['firstRun.account'], en['firstRun.key']].map(
      (step) => `${step} ${en['firstRun.done']}`,
    ),
  );
  expect(await page.locator('ol.steps li.next').textContent()).toContain(en['firstRun.code']);
  expect(await page.getByRole('alert').count()).toBe(0);
  await context.close();
});
