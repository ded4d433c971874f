/**
 * A transfer in review (docs/network.md, "Review") as the dashboard shows it, in Debian's Chromium
 * against the local runtime in connector mode, the fake bank never answering: past the review wait
 * the payment gains the API's `review`, and the payments list and the payment's page say so in
 * words, in English and in Spanish, beside its PENDING status; the page's history tells since when
 * and what happens next. axe-core passes at a desk and on a phone.
 */
import { jest } from '@jest/globals';
import type { Browser } from 'playwright-core';
import { en } from '../../dashboard/src/i18n/en';
import { es } from '../../dashboard/src/i18n/es';
import { FakeBank } from '../../tools/fake-bank';
import { launchBrowser } from '../support/browser';
import { axeViolations, DESK, ENGLISH, PHONE, signIn, type SignInWords } from '../support/dashboard-pages';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, resolvedKey } from '../support/merchants';

jest.setTimeout(120_000);

const REVIEW_AFTER_MS = 3_000;

let api: TestApi;
let bank: FakeBank;
let browser: Browser;
let paymentId: string;

beforeAll(async () => {
  bank = await FakeBank.start(() => api.url);
  [api, browser] = await Promise.all([
    startTestApi({
      network: { kind: 'connector', url: bank.url, bankKeys: JSON.stringify(bank.publicKeys) },
      sweepIntervalMs: 1_000,
      sweepGraceMs: 1_000,
      transferReviewAfterMs: REVIEW_AFTER_MS,
    }),
    launchBrowser(),
  ]);
  const token = await api.token('sandbox-client-a');
  const payer = await merchantWithKey(api, token, {
    businessName: 'Ferreteria Central SAS',
    availableBalance: '75.00',
  });
  const paid = await api.request('POST', '/v1/payments', {
    token,
    body: {
      customer_id: payer.customerId,
      account_id: payer.accountId,
      resolution_id: await resolvedKey(api, token, payer.customerId, { key_type: 'PHONE', key_value: '3001234567' }),
      amount: { value: '75.00', currency: 'COP' },
    },
  });
  expect(paid.body.status).toBe('PENDING');
  paymentId = paid.body.id;
  // The bank takes the order and never answers: past the review wait, the sweeper puts it in review.
  for (const deadline = Date.now() + 30_000; ;) {
    const read = await api.request('GET', `/v1/payments/${paymentId}`, { token });
    if (read.body.review) break;
    if (Date.now() > deadline) throw new Error('The payment did not go to review');
    await new Promise((wake) => setTimeout(wake, 250));
  }
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
  await bank?.stop();
});

describe.each([
  ['en-US', ENGLISH, en],
  ['es-CO', { button: es['app.signIn'], landing: es['overview.title'] } as SignInWords, es],
] as const)('in %s', (locale, signInWords, words) => {
  test.each([
    ['at a desk', DESK],
    ['on a phone', PHONE],
  ] as const)('%s: the list and the page say the payment is in review, and what happens next', async (_, viewport) => {
    const context = await browser.newContext({ viewport, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page.goto(`${api.url}/dashboard/#/payments`);
    const row = page.getByRole('row').filter({ hasText: 'PENDING' });
    await row.getByText(words['review.badge'], { exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.goto(`${api.url}/dashboard/#/payments/${paymentId}`);
    await page.getByText(words['payment.reviewStep']).waitFor();
    await page.getByText(words['review.badge'], { exact: true }).first().waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await context.close();
  });
});
