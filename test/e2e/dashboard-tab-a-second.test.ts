/**
 * A person clicking a tab every second for a minute, in Debian's Chromium against the real local
 * runtime at the local stage's own limits (docs/dashboard.md, "Waiting politely"): the nine sections
 * in turn, each call the page makes noted with the tab it was made for. No page makes more than 3
 * calls of its own (the merchants, read once while signed in, aside) and the API refuses none: a
 * person's share of the tenant's rate (half) is sized for it. Its own file: a function reads the
 * tenant limit once per process, so a file that set another limit before would leave it in force.
 */
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { en } from '../../dashboard/src/i18n/en';
import { SECTIONS } from '../../dashboard/src/sections';
import { launchBrowser } from '../support/browser';
import { DESK, inPage, signIn } from '../support/dashboard-pages';
import { startTestApi } from '../support/local-api';

jest.setTimeout(120_000);

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

test('a tab a second for a minute, at the deployed limits: at most 3 calls a page, never a refusal', async () => {
  // The local stage's limits, as `npm start` applies them (infra/stages.ts): a person's share of them.
  const patient = await startTestApi({ tenantRateLimit: 'stage' });
  try {
    const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
    const page = await context.newPage();
    // Each call the page makes is noted with the tab it was made for, as it is made: the tab clicked
    // counts from the moment the address changes, so the last page's late calls stay its own.
    await page.addInitScript(`
      window.calls = [];
      window.tab = -1;
      window.addEventListener('hashchange', () => (window.tab = window.nextTab));
      const send = window.fetch.bind(window);
      window.fetch = (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input), location.href);
        if (!url.pathname.startsWith('/v1/')) return send(input, init);
        window.calls.push([window.tab, url.pathname]);
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
      await page.evaluate(`window.nextTab = ${tab}`);
      await page
        .getByRole('navigation')
        .getByRole('link', { name: en[`section.${section}`], exact: true })
        .click();
      await page.getByRole('heading', { level: 1, name: en[`${section}.title`], exact: true }).waitFor();
      // Settled once nothing says Loading… and no API call started or answered for 400 ms since (a
      // hash change has no load state): on a loaded machine a page's calls may come well after its
      // heading, and one made after the next click would count as the next page's.
      await page.getByText(en['app.loading']).first().waitFor({ state: 'detached' });
      lastCall = Math.max(lastCall, Date.now());
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
    // A tab a second, or as fast as a loaded machine shows them.
    expect(perView.length).toBeGreaterThanOrEqual(30);
    // The calls were noted: every tab's page asked the API for something.
    expect(perView.filter((view) => view.calls.length === 0)).toEqual([]);
    expect(refused).toBe(0);
    await context.close();
  } finally {
    await patient.stop();
  }
}, 120_000);
