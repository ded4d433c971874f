/**
 * The dashboard waits out the person's rate (dashboard/src/api.ts, patientFetch; docs/dashboard.md,
 * "Waiting politely"), in Debian's Chromium against the real local runtime with a tenant limit small
 * enough that a person's share (half: 2 calls at once, 2 a second) is outrun by pages opened one
 * after another: the API refuses some with 429, and the pages wait as Retry-After asks, send them
 * again, and show what they read, never the refusal. (At the local stage's own limits, a tab a
 * second is never refused: dashboard-tab-a-second.test.ts.)
 */
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { en } from '../../dashboard/src/i18n/en';
import { launchBrowser } from '../support/browser';
import { DESK, signIn } from '../support/dashboard-pages';
import { startTestApi, type TestApi } from '../support/local-api';

jest.setTimeout(120_000);

let api: TestApi;
let browser: Browser;

beforeAll(async () => {
  [api, browser] = await Promise.all([
    startTestApi({ tenantRateLimit: { requestsPerSecond: 4, burst: 4 } }),
    launchBrowser(),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

test("pages whose calls outrun the person's rate wait and show their data, never the refusal", async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  let refused = 0;
  page.on('response', (response) => {
    if (response.status() === 429 && response.url().includes('/v1/')) refused += 1;
  });
  await signIn(page, api.url, 'merchant-admin-a');
  const sections: [string, string][] = [
    ['#/qrcodes', en['qrcodes.title']],
    ['#/payments', en['payments.title']],
    ['#/merchants', en['merchants.title']],
    ['#/keys', en['keys.title']],
    ['#/webhooks', en['webhooks.title']],
    ['#/activity', en['activity.title']],
    ['#/', en['overview.title']],
  ];
  for (const [hash, heading] of sections) {
    await page.goto(`${api.url}/dashboard/${hash}`);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    // Done once nothing says Loading… any more: every call answered, some after waiting.
    await page.getByText('Loading…').first().waitFor({ state: 'detached', timeout: 30_000 });
    expect(await page.locator('main').innerText()).not.toContain(en['problem.tooMany']);
  }
  // The API did refuse meanwhile: the pages waited rather than said so.
  expect(refused).toBeGreaterThan(0);
  await context.close();
});
