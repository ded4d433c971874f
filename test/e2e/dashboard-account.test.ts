/**
 * An account's page, in Debian's Chromium against the real local runtime, in English and in Spanish:
 * reached from its merchant's accounts, it lists the movements this test made (kind, signed amount,
 * the payment that caused each, the time in Bogotá) and they add up to the balance it shows; today's
 * statement ties out (opening + credits - debits = closing) and closes at that balance; a past day
 * without movements opens where it closes; a day to come is not asked. axe-core passes and nothing
 * scrolls sideways at a desk and on a phone. Another platform's person sees nothing of the account.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { formatCop, formatSignedCop, formatTime } from '../../dashboard/src/format';
import { en, type MessageKey } from '../../dashboard/src/i18n/en';
import { es } from '../../dashboard/src/i18n/es';
import { walkAll } from '../support/accounts';
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
import { merchantWithKey, resolvedKey, type MerchantWithKey } from '../support/merchants';
import { answeredPayment, TEST_SETTLEMENT_DELAY_MS } from '../support/settlement';

jest.setTimeout(120_000);

const SCREENSHOTS = process.env['SCREENSHOT_DIR'] ?? path.join(tmpdir(), 'breb-dashboard-screenshots');
/** Ana María Gómez Pérez's PHONE key at Banco Ejemplo (the sandbox directory). */
const ANA_PHONE = { key_type: 'PHONE', key_value: '3001234567' };

type Words = Readonly<Record<MessageKey, string>>;
const say = (words: Words, key: MessageKey, values: Readonly<Record<string, string | number>> = {}) =>
  words[key].replace(/\{(\w+)\}/g, (_, name: string) => String(values[name]));

let api: TestApi;
let browser: Browser;
let merchant: MerchantWithKey;
/** The account's movements as the API lists them, oldest first. */
let movements: Record<string, any>[];
let sentPaymentId: string;

/** A Bogotá day (UTC-5 all year) `offset` days from today, as YYYY-MM-DD. */
const bogotaDay = (offset = 0) => new Date(Date.now() - 5 * 3_600_000 + offset * 86_400_000).toISOString().slice(0, 10);
const typed = (day: string) => day.split('-').reverse().join('/');

/** An amount as the page writes it ("+$ 75,25", "-$ 120,50", "$ 454,75") in cents: what a person adds up. */
function centsOf(shown: string): number {
  const digits = shown.replace(/[^\d,+-]/g, '');
  const [whole, decimals = '00'] = digits.replace(/[+-]/g, '').split(',');
  return (digits.startsWith('-') ? -1 : 1) * (Number(whole) * 100 + Number(decimals));
}

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [api, browser] = await Promise.all([
    startTestApi({ sandboxSettlementDelayMs: TEST_SETTLEMENT_DELAY_MS }),
    launchBrowser(),
  ]);
  const a = await api.token('sandbox-client-a');
  merchant = await merchantWithKey(api, a, { businessName: 'Ferreteria Central SAS', availableBalance: '500.00' });
  const pay = async (amount: string) => {
    const sent = await api.request('POST', '/v1/payments', {
      token: a,
      body: {
        customer_id: merchant.customerId,
        account_id: merchant.accountId,
        resolution_id: await resolvedKey(api, a, merchant.customerId, ANA_PHONE),
        amount: { value: amount, currency: 'COP' },
      },
    });
    expect(sent.status).toBe(200);
    return (await answeredPayment(api, a, sent.body.id)).body;
  };
  sentPaymentId = (await pay('120.50')).id;
  // .99: the sandbox network rejects it, and its hold comes back as a movement of its own.
  expect((await pay('10.99')).status).toBe('REJECTED');
  // Received: 75.25, then 1.00 to 7.00, so the ledger runs past one page of 10.
  for (const amount of ['75.25', '1.00', '2.00', '3.00', '4.00', '5.00', '6.00', '7.00']) {
    const received = await api.request('POST', '/sandbox/payments/inbound', {
      token: a,
      body: { key: merchant.key, amount: { value: amount, currency: 'COP' } },
    });
    expect(received.status).toBe(200);
  }
  movements = (await walkAll(api, a, `/v1/accounts/${merchant.accountId}/movements`, 'movements')).items;
  expect(movements.map((m) => [m.kind, m.amount.value])).toEqual([
    ['OPENING_BALANCE', '500.00'],
    ['PAYMENT', '-120.50'],
    ['PAYMENT', '-10.99'],
    ['HOLD_RELEASE', '10.99'],
    ['PAYMENT', '75.25'],
    ...[1, 2, 3, 4, 5, 6, 7].map((pesos) => ['PAYMENT', `${pesos}.00`]),
  ]);
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

/** What a description list says for `term` (the account's details). */
const detail = (page: Page, term: string): Promise<string> =>
  page
    .locator('dl.details > div')
    .filter({ has: page.getByRole('term').getByText(term, { exact: true }) })
    .getByRole('definition')
    .innerText();

/** The movements' rows the page must show, newest first: when, the kind and its meaning, the signed amount, the cause. */
function expectedMovementRows(words: Words): string[][] {
  return [...movements]
    .reverse()
    .map((m) => [
      formatTime(m.created_at),
      `${m.kind} (${words[`code.movementKind.${m.kind}` as MessageKey]})`,
      formatSignedCop(m.amount.value),
      m.payment_id ? say(words, 'movement.payment', { id: m.payment_id.slice(0, 8) }) : words['movement.link'],
    ]);
}

describe.each([
  ['en-US', ENGLISH, en],
  ['es-CO', { button: es['app.signIn'], landing: es['overview.title'] } as SignInWords, es],
] as const)('in %s', (locale, signInWords, words) => {
  const name = locale === 'es-CO' ? 'account-ledger-es' : 'account-ledger';

  test("from its merchant's page: the movements made add up to the balance shown, today's statement ties out and closes at it", async () => {
    const context = await browser.newContext({ viewport: DESK, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page.goto(`${api.url}/dashboard/#/merchants/${merchant.customerId}`);
    const today = bogotaDay();
    const statementAsked = page.waitForRequest((request) => request.url().endsWith(`/statements/${today}`));
    await page.getByRole('link', { name: `ORDINARY ${merchant.accountNumber}` }).click();
    await page
      .getByRole('heading', { level: 1, name: say(words, 'account.title', { number: merchant.accountNumber }) })
      .waitFor();

    const balance = await detail(page, words['account.available']);
    expect(balance).toBe(formatCop('482.75'));
    const caption = say(words, 'list.caption', {
      items: words['noun.movements.many'].replace(/^./, (c) => c.toUpperCase()),
    });
    await page.getByRole('table', { name: caption }).waitFor();
    const where = (at: number) =>
      page.getByText(say(words, 'list.where', { page: at, pages: 2, count: 12, items: words['noun.movements.many'] }));
    await where(1).waitFor();
    const [header, ...firstPage] = await tableRows(page, caption);
    expect(header).toEqual([
      words['column.created'],
      words['column.movement'],
      words['column.signedAmount'],
      words['column.cause'],
    ]);
    await page.getByRole('button', { name: words['list.next'] }).click();
    await where(2).waitFor();
    // The pager says page 2 at once; the rows follow when the page is read: its oldest is the opening balance.
    await page.getByRole('cell', { name: words['movement.link'] }).waitFor();
    const [, ...secondPage] = await tableRows(page, caption);
    const rows = [...firstPage, ...secondPage];
    expect([firstPage.length, secondPage.length]).toEqual([10, 2]);
    expect(rows).toEqual(expectedMovementRows(words));
    // Credits and debits are told apart by their sign, in the text itself.
    expect(rows.map((row) => row[2]![0])).toEqual(
      [...movements].reverse().map((m) => (m.amount.value.startsWith('-') ? '-' : '+')),
    );
    expect(rows.reduce((sum, row) => sum + centsOf(row[2]!), 0)).toBe(centsOf(balance));

    // Today's statement, the day field's default: opening + credits - debits = closing = the balance.
    await statementAsked;
    expect(await page.getByRole('textbox', { name: words['statement.day'] }).inputValue()).toBe(typed(today));
    const statement = say(words, 'statement.caption', { day: typed(today) });
    await page.getByRole('table', { name: statement }).waitFor();
    expect(await tableRows(page, statement)).toEqual([
      [words['statement.item'], words['statement.count'], words['statement.amount']],
      [words['statement.opening'], '', formatCop('0.00')],
      [words['statement.credits'], '10', formatSignedCop('614.24')],
      [words['statement.debits'], '2', formatSignedCop('-131.49')],
      [words['statement.closing'], '', balance],
    ]);
    const identity = say(words, 'statement.identity', {
      opening: formatCop('0.00'),
      credits: formatCop('614.24'),
      debits: formatCop('131.49'),
      closing: balance,
    });
    await page.getByText(identity, { exact: true }).waitFor();
    expect(0 + 61_424 - 13_149).toBe(centsOf(balance));
    await page.getByText(words['statement.today']).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, SCREENSHOTS, name);

    // A past day without movements opens where it closes (yesterday: before the account was linked).
    const yesterday = bogotaDay(-1);
    const dayField = page.getByRole('textbox', { name: words['statement.day'] });
    // The day is taken when the person is done typing it (Enter, or leaving the field), as the filters' days.
    await dayField.fill(typed(yesterday));
    await dayField.press('Enter');
    const past = say(words, 'statement.caption', { day: typed(yesterday) });
    await page.getByRole('table', { name: past }).waitFor();
    expect(await tableRows(page, past)).toEqual([
      [words['statement.item'], words['statement.count'], words['statement.amount']],
      [words['statement.opening'], '', formatCop('0.00')],
      [words['statement.credits'], '0', formatCop('0.00')],
      [words['statement.debits'], '0', formatCop('0.00')],
      [words['statement.closing'], '', formatCop('0.00')],
    ]);
    expect(await page.getByText(words['statement.today']).count()).toBe(0);

    // A day to come has no statement: said on the page, the API not asked.
    const asked: string[] = [];
    page.on('request', (request) => asked.push(request.url()));
    await dayField.fill(typed(bogotaDay(1)));
    await dayField.press('Enter');
    await page.getByText(words['statement.future']).waitFor();
    expect(await page.getByRole('table', { name: /\d/ }).count()).toBe(0);
    // Back to yesterday: once its statement is shown, a call for the day to come would have gone before it.
    await dayField.fill(typed(yesterday));
    await dayField.press('Enter');
    await page.getByRole('table', { name: past }).waitFor();
    expect(asked.filter((url) => url.includes('/statements/')).map((url) => url.slice(-10))).toEqual([yesterday]);

    // The movement's cause is its payment's page.
    await page.getByRole('link', { name: say(words, 'movement.payment', { id: sentPaymentId.slice(0, 8) }) }).click();
    await page.waitForURL(`**/#/payments/${sentPaymentId}`);
    await page.getByRole('heading', { level: 1, name: new RegExp(`^${words['payment.title']}`) }).waitFor();
    await context.close();
  });

  test('on a phone: the movements as cards, the statement whole; nothing scrolls sideways; axe-core passes', async () => {
    const context = await browser.newContext({ viewport: PHONE, locale });
    const page = await context.newPage();
    await signIn(page, api.url, 'merchant-admin-a', signInWords);
    await page.goto(`${api.url}/dashboard/#/accounts/${merchant.accountId}`);
    await page.getByRole('table', { name: say(words, 'statement.caption', { day: typed(bogotaDay()) }) }).waitFor();
    await page.getByText(formatSignedCop('7.00'), { exact: true }).waitFor();
    expect(await overflowOf(page)).toMatchObject({ extra: 0 });
    expect(await axeViolations(page)).toEqual([]);
    await shoot(page, SCREENSHOTS, name);
    await context.close();
  });
});

test("another platform's person: refused in words, nothing of the account shown", async () => {
  const context = await browser.newContext({ viewport: DESK, locale: 'en-US' });
  const page = await context.newPage();
  await signIn(page, api.url, 'merchant-admin-b');
  await page.goto(`${api.url}/dashboard/#/accounts/${merchant.accountId}`);
  // GET /v1/accounts/{id} answers another client's account 403: said in words, nothing of the account shown.
  await page.getByText(en['problem.otherPlatform']).waitFor();
  expect(await page.getByRole('table').count()).toBe(0);
  expect(await page.locator('main').innerText()).not.toContain(merchant.accountNumber);
  await context.close();
});
