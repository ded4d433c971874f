/**
 * The Reconciliation page, in Debian's Chromium against the real local runtime, in English and in
 * Spanish: the bank's file of today (signed as the sandbox's simulator signs) against the day's
 * received payments; the page shows the day's status with its meaning, what matched and each break
 * with both sides' amounts and a link to its payment and account. axe-core passes and nothing
 * scrolls sideways at a desk and on a phone. Another platform's person sees none of it.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { formatCop, formatDay } from '../../dashboard/src/format';
import { en, type MessageKey } from '../../dashboard/src/i18n/en';
import { es } from '../../dashboard/src/i18n/es';
import { colombiaDay } from '../../shared/calendar/colombia-days';
import { signedHeaders } from '../../shared/domain/webhook-signature';
import { launchBrowser } from '../support/browser';
import {
  axeViolations,
  DESK,
  ENGLISH,
  overflowOf,
  PHONE,
  shoot,
  signIn,
  type SignInWords,
} from '../support/dashboard-pages';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';

jest.setTimeout(120_000);

const SCREENSHOTS = process.env['SCREENSHOT_DIR'] ?? path.join(tmpdir(), 'breb-dashboard-screenshots');

type Words = Readonly<Record<MessageKey, string>>;
const say = (words: Words, key: MessageKey, values: Readonly<Record<string, string | number>> = {}) =>
  words[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));

let api: TestApi;
let browser: Browser;
let merchant: MerchantWithKey;
let today: string;
/** The day's credits, by what the file says of them. */
let matched: Record<string, any>;
let mismatched: Record<string, any>;
let unlisted: Record<string, any>;
const UNKNOWN_E2E = `E2EDASH${process.pid}`;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const a = await api.token('sandbox-client-a');
  merchant = await merchantWithKey(api, a, { businessName: 'Ferreteria Central SAS', availableBalance: '0.00' });
  const received = async (value: string) => {
    const answer = await api.request('POST', '/sandbox/payments/inbound', {
      token: a,
      body: { key: merchant.key, amount: { value, currency: 'COP' } },
    });
    expect([answer.status, answer.body.status]).toEqual([200, 'SETTLED']);
    return answer.body;
  };
  matched = await received('25.00');
  mismatched = await received('30.00');
  unlisted = await received('12.00');
  today = colombiaDay(new Date().toISOString());
  const line = (e2e: string, value: string) => ({
    end_to_end_id: e2e,
    direction: 'CREDIT',
    amount: { value, currency: 'COP' },
    account_number: merchant.accountNumber,
    settled_at: new Date().toISOString(),
  });
  const body = [
    line(matched['end_to_end_id'], '25.00'),
    line(mismatched['end_to_end_id'], '31.00'),
    line(UNKNOWN_E2E, '9.00'),
  ]
    .map((l) => `${JSON.stringify(l)}\n`)
    .join('');
  const sent = await fetch(`${api.url}/network/v1/settlement-files/${today}`, {
    method: 'PUT',
    headers: {
      'content-type': 'application/x-ndjson',
      ...signedHeaders(`msg_${randomUUID()}`, Math.floor(Date.now() / 1000), body, [api.runtime.networkSecret!]),
    },
    body,
  });
  expect(sent.status).toBe(202);
  for (let tries = 0; ; tries += 1) {
    const day = await api.request('GET', `/v1/settlement-reconciliations/${today}`, { token: a });
    if (day.body.status === 'BREAKS') break;
    if (tries > 100) throw new Error(`The day stayed ${day.body.status}`);
    await new Promise((done) => setTimeout(done, 200));
  }
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

/** The cells' text of the table named `caption`, a row each (its header row first). */
const tableRows = (page: Page, caption: string): Promise<string[][]> =>
  page
    .getByRole('table', { name: caption })
    .evaluate((element) =>
      [...(element as unknown as { rows: Iterable<{ cells: Iterable<{ textContent: string }> }> }).rows].map((row) =>
        [...row.cells].map((cell) => cell.textContent.trim()),
      ),
    );

/** What a description list says for `term`. */
const detail = (page: Page, term: string): Promise<string> =>
  page
    .locator('dl.details > div')
    .filter({ has: page.getByRole('term').getByText(term, { exact: true }) })
    .getByRole('definition')
    .innerText();

const meaning = (words: Words, kind: string, code: string) =>
  `${code} (${words[`code.${kind}.${code}` as MessageKey]})`;

describe.each([
  ['en-US', ENGLISH, en],
  ['es-CO', { button: es['app.signIn'], landing: es['overview.title'] } as SignInWords, es],
] as const)('in %s', (locale, signInWords, words) => {
  const name = locale === 'es-CO' ? 'reconciliation-breaks-es' : 'reconciliation-breaks';

  test("today's day: its status and counts, and each break with both sides' amounts and its links", async () => {
    const context = await browser.newContext({ viewport: DESK, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page.getByRole('link', { name: words['section.reconciliation'] }).click();
    await page.getByRole('heading', { level: 1, name: words['reconciliation.title'] }).waitFor();
    expect(await page.getByRole('textbox', { name: words['reconciliation.day'] }).inputValue()).toBe(formatDay(today));
    await page
      .getByRole('heading', { level: 2, name: say(words, 'reconciliation.dayTitle', { day: formatDay(today) }) })
      .waitFor();
    expect(await detail(page, words['reconciliation.status'])).toBe(meaning(words, 'reconciliationStatus', 'BREAKS'));
    expect(await detail(page, words['reconciliation.matched'])).toBe('1');
    expect(await detail(page, words['reconciliation.matchedAmount'])).toBe(formatCop('25.00'));
    expect(await detail(page, words['reconciliation.breaks'])).toBe('3');

    const caption = say(words, 'list.caption', {
      items: words['noun.breaks.many'].replace(/^./, (c) => c.toUpperCase()),
    });
    await page.getByRole('table', { name: caption }).waitFor();
    const [header, ...rows] = await tableRows(page, caption);
    expect(header).toEqual([
      words['column.kind'],
      words['column.endToEnd'],
      words['column.direction'],
      words['column.transfer'],
      words['column.account'],
      words['column.amountHere'],
      words['column.amountAtBank'],
    ]);
    const account = say(words, 'reconciliation.account', { id: merchant.accountId.slice(0, 8) });
    const payment = (p: Record<string, any>) => say(words, 'movement.payment', { id: String(p['id']).slice(0, 8) });
    const money = meaning(words, 'settlementDirection', 'CREDIT');
    expect([...rows].sort()).toEqual(
      [
        [
          meaning(words, 'breakKind', 'AMOUNT_MISMATCH'),
          mismatched['end_to_end_id'],
          money,
          payment(mismatched),
          account,
          formatCop('30.00'),
          formatCop('31.00'),
        ],
        [
          meaning(words, 'breakKind', 'MISSING_AT_BANK'),
          unlisted['end_to_end_id'],
          money,
          payment(unlisted),
          account,
          formatCop('12.00'),
          '—',
        ],
        [
          meaning(words, 'breakKind', 'MISSING_HERE'),
          UNKNOWN_E2E,
          money,
          words['reconciliation.noTransfer'],
          account,
          '—',
          formatCop('9.00'),
        ],
      ].sort(),
    );
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, SCREENSHOTS, name);

    // A break's payment is its page.
    await page.getByRole('link', { name: payment(unlisted) }).click();
    await page.waitForURL(`**/#/payments/${unlisted['id']}`);
    await context.close();
  });

  test('on a phone: the breaks as cards; nothing scrolls sideways; axe-core passes', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page.goto(`${api.url}/dashboard/#/reconciliation`);
    await page.getByText(UNKNOWN_E2E, { exact: true }).waitFor();
    expect(await overflowOf(page)).toMatchObject({ extra: 0 });
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, SCREENSHOTS, name);
    await context.close();
  });
});

test("another platform's person: its own day, none of the first platform's breaks", async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, api.url, 'merchant-admin-b');
  await page.goto(`${api.url}/dashboard/#/reconciliation`);
  await page
    .getByRole('heading', { level: 2, name: say(en, 'reconciliation.dayTitle', { day: formatDay(today) }) })
    .waitFor();
  expect(await detail(page, en['reconciliation.status'])).toBe(meaning(en, 'reconciliationStatus', 'MATCHED'));
  expect(await detail(page, en['reconciliation.breaks'])).toBe('0');
  expect(await page.getByRole('table').count()).toBe(0);
  const shown = await page.locator('main').innerText();
  for (const hidden of [UNKNOWN_E2E, mismatched['end_to_end_id'], merchant.accountId.slice(0, 8)]) {
    expect(shown).not.toContain(hidden);
  }
  await context.close();
});
