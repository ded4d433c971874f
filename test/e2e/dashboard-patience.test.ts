/**
 * The dashboard waits out the person's rate (dashboard/src/api.ts, patientFetch; docs/dashboard.md,
 * "Waiting politely"), in Debian's Chromium against the real local runtime with a tenant limit small
 * enough that a person's share (half: 2 calls at once, 2 a second) is outrun by pages opened one
 * after another: the API refuses some with 429, and the pages wait as Retry-After asks, send them
 * again, and show what they read, never the refusal. At the local stage's own limits, a tab clicked
 * every second for a minute makes at most 3 calls a page and is never refused.
 */
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { en } from '../../dashboard/src/i18n/en';
import { launchBrowser } from '../support/browser';
import { DESK, inPage, signIn } from '../support/dashboard-pages';
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

/** The nine sections of the navigation, as a person clicks them. */
const SECTIONS = [
  'overview',
  'qrcodes',
  'payments',
  'refunds',
  'reconciliation',
  'merchants',
  'keys',
  'webhooks',
  'activity',
] as const;

test('a tab a second for a minute, at the deployed limits: at most 3 calls a page, never a refusal', async () => {
  // The local stage's limits, as `npm start` applies them (infra/stages.ts): a person's share of them.
  const patient = await startTestApi({ tenantRateLimit: 'stage' });
  try {
    const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
    const page = await context.newPage();
    // Each call the page makes is noted with the tab it was made for, as it is made.
    await page.addInitScript(`
      window.calls = [];
      window.tab = -1;
      const send = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (url.pathname.startsWith('/v1/')) window.calls.push([window.tab, url.pathname]);
        return send(input, init);
      };
    `);
    let refused = 0;
    let lastCall = Date.now();
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v1/')) lastCall = Date.now();
    });
    page.on('response', (response) => {
      if (!new URL(response.url()).pathname.startsWith('/v1/')) return;
      lastCall = Date.now();
      if (response.status() === 429) refused += 1;
    });
    await signIn(page, patient.url, 'merchant-admin-a');
    const tabs: string[] = [];
    const started = Date.now();
    for (let tab = 0; Date.now() - started < 60_000; tab += 1) {
      // From the Overview, where signing in lands, to the next section, and round.
      const section = SECTIONS[(tab + 1) % SECTIONS.length]!;
      const clicked = Date.now();
      tabs.push(section);
      await page.evaluate(`window.tab = ${tab}`);
      await page
        .getByRole('navigation')
        .getByRole('link', { name: en[`section.${section}`], exact: true })
        .click();
      lastCall = clicked;
      await page.getByRole('heading', { level: 1, name: en[`${section}.title`], exact: true }).waitFor();
      // Settled once no API call started or answered for 400 ms (a hash change has no load state).
      while (Date.now() - lastCall < 400) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(await page.locator('main').innerText()).not.toContain(en['problem.tooMany']);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, 1_000 - (Date.now() - clicked))));
    }
    const noted = await inPage<[number, string][]>(page, 'window.calls');
    const perView = tabs.map((section, tab) => ({
      section,
      calls: noted.filter(([of]) => of === tab).map(([, path]) => path),
    }));
    // The merchants, read once while signed in, are not a page's own.
    const own = perView.map(({ section, calls }) => ({
      section,
      calls: calls.filter((call) => call !== '/v1/customers' || section === 'merchants'),
    }));
    expect(own.filter((view) => view.calls.length > 3)).toEqual([]);
    expect(perView.length).toBeGreaterThanOrEqual(45);
    // The calls were noted: every tab's page asked the API for something.
    expect(perView.filter((view) => view.calls.length === 0)).toEqual([]);
    expect(refused).toBe(0);
    await context.close();
  } finally {
    await patient.stop();
  }
}, 120_000);
