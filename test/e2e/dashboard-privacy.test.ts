/**
 * A payer's numbers in the dashboard (docs/privacy.md, "Masking"), in Debian's Chromium against the
 * real local runtime: a payment's page shows the other side's document and account numbers by their
 * last four, nowhere whole in the page, until the person (who reads payments) asks; a viewer may
 * ask too. axe-core passes with the button. A payments CSV downloaded from the dashboard masks them
 * too, whole when its box is ticked.
 */
import { readFileSync } from 'node:fs';
import { jest } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { en } from '../../dashboard/src/i18n/en';
import { launchBrowser } from '../support/browser';
import { axeViolations, DESK, signIn } from '../support/dashboard-pages';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey } from '../support/merchants';
import { parseCsv } from '../support/reports';

jest.setTimeout(120_000);

/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory): her document and account. */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };
const ANA_DOCUMENT = '1020304050';
const ANA_ACCOUNT = '4001002003';

let api: TestApi;
let browser: Browser;
let paymentId: string;
let customerId: string;

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const a = await api.token('sandbox-client-a');
  const merchant = await merchantWithKey(api, a, { availableBalance: '500.00' });
  const paid = await api.request('POST', '/v1/payments', {
    token: a,
    body: {
      customer_id: merchant.customerId,
      account_id: merchant.accountId,
      resolution_id: await resolvedKey(api, a, merchant.customerId, ANA_PHONE),
      amount: { value: '42.00', currency: 'COP' },
    },
  });
  expect(paid.status).toBe(200);
  // The API answers the numbers whole, as the contract says: only the dashboard masks them.
  expect(paid.body.counterparty.owner.identification_number).toBe(ANA_DOCUMENT);
  paymentId = paid.body.id;
  customerId = merchant.customerId;
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

/** What a description list says for `term`. */
const detail = (page: Page, term: string): Promise<string> =>
  page
    .locator('dl.details > div')
    .filter({ has: page.getByRole('term').getByText(term, { exact: true }) })
    .getByRole('definition')
    .innerText();

describe.each(['merchant-admin-a', 'viewer-a'])('%s on a payment to a person', (username) => {
  test("sees the person's document and account numbers masked, whole only once asked", async () => {
    const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
    const page = await context.newPage();
    await signIn(page, api.url, username);
    await page.goto(`${api.url}/dashboard/#/payments/${paymentId}`);
    await page.getByRole('heading', { level: 1, name: new RegExp(en['payment.title']) }).waitFor();

    expect(await detail(page, en['payment.theirDocument'])).toBe('CC ****4050');
    expect(await detail(page, en['payment.theirAccount'])).toBe('SAVINGS ****2003');
    const text = await page.locator('main').innerText();
    expect(text).not.toContain(ANA_DOCUMENT);
    expect(text).not.toContain(ANA_ACCOUNT);
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: en['payment.showNumbers'] }).click();
    expect(await detail(page, en['payment.theirDocument'])).toBe(`CC ${ANA_DOCUMENT}`);
    expect(await detail(page, en['payment.theirAccount'])).toBe(`SAVINGS ${ANA_ACCOUNT}`);

    await page.getByRole('button', { name: en['payment.hideNumbers'] }).click();
    expect(await detail(page, en['payment.theirDocument'])).toBe('CC ****4050');
    await context.close();
  });
});

test("a payments CSV from the dashboard masks the person's numbers, whole when its box is ticked", async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US', acceptDownloads: true });
  const page = await context.newPage();
  await signIn(page, api.url, 'merchant-admin-a');
  await page.goto(`${api.url}/dashboard/#/payments`);
  await page.getByRole('heading', { level: 1, name: en['payments.title'] }).waitFor();
  await page.getByLabel(en['filter.merchant']).selectOption(customerId);
  for (const reveal of [false, true]) {
    if (reveal) await page.getByLabel(en['report.revealNumbers']).check();
    const asked = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v1/reports'));
    const downloaded = page.waitForEvent('download');
    await page.getByRole('button', { name: en['report.download'] }).click();
    expect((await asked).postDataJSON().reveal).toBe(reveal ? true : undefined);
    const { rows } = parseCsv(readFileSync((await (await downloaded).path())!, 'utf8'));
    expect(
      rows.map((row) => [row['counterparty_owner_identification_number'], row['counterparty_account_account_number']]),
    ).toEqual([reveal ? [ANA_DOCUMENT, ANA_ACCOUNT] : ['****4050', '****2003']]);
  }
  await context.close();
});
