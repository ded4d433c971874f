/**
 * The dashboard in Spanish, in Debian's Chromium against the real local runtime: a browser whose
 * language is Spanish (es-CO) gets every page in Spanish (no message of the English catalog left on
 * any page), the document says so (`lang`), amounts and days as Colombia writes them, the page's own
 * checks and the codes' meanings in Spanish, axe-core passing and nothing scrolling sideways at a
 * desk and on a phone; the header's switch changes the language at once and the choice outlives a
 * reload; an English or a French browser reads English. The issuer's sign-in page keeps its English
 * names with the Spanish words beside them.
 */
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mkdirSync } from 'node:fs';
import { jest } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { en } from '../../dashboard/src/i18n/en';
import { es } from '../../dashboard/src/i18n/es';
import { formatCop } from '../../dashboard/src/format';
import { launchBrowser } from '../support/browser';
import {
  axeViolations,
  DESK,
  inPage,
  overflowOf,
  PHONE,
  rowWith,
  shoot as shootIn,
  signIn,
  type SignInWords,
} from '../support/dashboard-pages';
import { startTestApi, type TestApi } from '../support/local-api';
import { merchantWithKey, type MerchantWithKey } from '../support/merchants';

jest.setTimeout(90_000);

const SCREENSHOTS = process.env['SCREENSHOT_DIR'] ?? path.join(tmpdir(), 'breb-dashboard-screenshots');
const SPANISH: SignInWords = { button: es['app.signIn'], landing: es['overview.title'] };

let api: TestApi;
let browser: Browser;
let merchant: MerchantWithKey;
let code: Record<string, any>;
let payment: Record<string, any>;

beforeAll(async () => {
  mkdirSync(SCREENSHOTS, { recursive: true });
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
  const token = await api.token('sandbox-client-a');
  merchant = await merchantWithKey(api, token, { businessName: 'Tienda La Esperanza SAS' });
  const created = await api.request('POST', '/v1/qrcodes', {
    token,
    body: {
      key_id: merchant.keyId,
      customer_id: merchant.customerId,
      type: 'STATIC',
      channel: 'POS',
      qr_code_reference: 'MOSTRADOR1',
      amount: { value: '58000.00', currency: 'COP' },
      vat: { vat_type: 'FIXED', vat_value: '8000.00', vat_base_value: '50000.00' },
      inc: { inc_type: 'FIXED', inc_value: '0.00' },
    },
  });
  expect(created.status).toBe(200);
  code = created.body;
  const paid = await api.request('POST', `/sandbox/qrcodes/${code.id}/pay`, { token, body: {} });
  expect(paid.status).toBe(200);
  payment = paid.body;
  // Part of it refunded: its page shows its refunds, the Refund form and what was refunded.
  const refunded = await api.request('POST', `/v1/payments/${payment.id}/refunds`, {
    token,
    body: { amount: { value: '8000.00', currency: 'COP' } },
    headers: { 'Idempotency-Key': 'spanish-pass-refund' },
  });
  expect(refunded.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await api?.stop();
});

async function personReading(locale: string, viewport = DESK): Promise<Page> {
  const context = await browser.newContext({ viewport, locale });
  return context.newPage();
}

/** Opens a route of the signed-in dashboard and waits until it has loaded what it shows. */
async function open(page: Page, hash: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${api.url}/dashboard/${hash}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  for (const deadline = Date.now() + 15_000; Date.now() < deadline;) {
    if ((await page.getByText(es['app.loading']).count()) === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The English catalog's messages a page still shows: any is a string the page did not translate.
 * Looked for as words (not inside a username or an event's name like `payment.inbound.received`);
 * messages written alike in both languages, and the shortest, are not.
 */
async function englishLeftOn(page: Page): Promise<string[]> {
  const text = await inPage<string>(page, 'document.body.innerText');
  return (Object.keys(en) as (keyof typeof en)[])
    .filter((key) => en[key] !== es[key] && en[key].length >= 8 && !en[key].includes('{'))
    .filter((key) => new RegExp(`(^|[^\\w.@-])${escapeRegExp(en[key])}($|[^\\w.@-])`).test(text))
    .map((key) => `${key}: ${en[key]}`);
}

test('a Spanish browser: the issuer keeps its English names beside the Spanish, the dashboard speaks Spanish', async () => {
  const page = await personReading('es-CO');
  await page.goto(`${api.url}/dashboard/`);
  await page.getByRole('button', { name: 'Ingresar', exact: true }).waitFor();
  expect(await inPage(page, 'document.documentElement.lang')).toBe('es-CO');
  expect(await page.title()).toBe('Panel de comercios Bre-B');
  expect(await axeViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Ingresar', exact: true }).click();
  // The issuer's fields and button keep their names; the Spanish words stand beside them.
  await page.getByLabel('Username', { exact: true }).waitFor();
  for (const spanish of ['Usuario', 'Contraseña', 'Ingresar']) await page.getByText(spanish, { exact: true }).waitFor();
  expect(await page.getByRole('button').allTextContents()).toEqual(['Sign in']);
  expect(await axeViolations(page)).toEqual([]);
  await shoot(page, 'sign-in-es');
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByLabel('Username', { exact: true }).fill('merchant-admin-a');
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByText('Usuario o contraseña incorrectos.').waitFor();
  await page.context().close();
});

test('every page in Spanish, at a desk and on a phone: no English left, axe-core passes, nothing scrolls sideways', async () => {
  const page = await personReading('es-CO');
  await signIn(page, api.url, 'merchant-admin-a', SPANISH);
  expect(await page.getByRole('banner').textContent()).toContain('Sesión de merchant-admin-a para sandbox-client-a');
  const pages: [string, string, string | RegExp][] = [
    ['overview', '#/overview', 'Resumen'],
    ['qr-codes', '#/qrcodes', 'Códigos QR'],
    ['qr-code', `#/qrcodes/${code.id}`, 'Código QR MOSTRADOR1'],
    ['new-qr-code', '#/qrcodes/new', 'Nuevo código QR'],
    ['payments', '#/payments', 'Pagos'],
    ['payment', `#/payments/${payment.id}`, /^Pago de/],
    ['refunds', '#/refunds', 'Devoluciones'],
    ['reconciliation', '#/reconciliation', 'Conciliación con el banco'],
    ['merchants', '#/merchants', 'Comercios'],
    ['merchant', `#/merchants/${merchant.customerId}`, 'Tienda La Esperanza SAS'],
    ['account', `#/accounts/${merchant.accountId}`, `Cuenta ${merchant.accountNumber}`],
    ['keys', '#/keys', 'Llaves Bre-B'],
    ['webhooks', '#/webhooks', 'Webhooks'],
    ['activity', '#/activity', 'Actividad'],
  ];
  const problems: string[] = [];
  for (const viewport of [PHONE, DESK]) {
    await page.setViewportSize(viewport);
    for (const [name, hash, heading] of pages) {
      await open(page, hash, heading);
      const { extra, culprits } = await overflowOf(page);
      if (extra > 0) problems.push(`${name} at ${viewport.width}: ${extra}px wider (${culprits.join(', ')})`);
      problems.push(...(await axeViolations(page)).map((v) => `${name} at ${viewport.width}: ${v}`));
      problems.push(...(await englishLeftOn(page)).map((left) => `${name} at ${viewport.width}: English ${left}`));
      await shoot(page, `${name}-es`);
    }
  }
  expect(problems).toEqual([]);
  await page.context().close();
});

test("Spanish words for the codes, amounts and days as Colombia writes them, the page's checks and refunds in Spanish", async () => {
  const page = await personReading('es-CO');
  await signIn(page, api.url, 'merchant-admin-a', SPANISH);
  await open(page, `#/qrcodes/${code.id}`, 'Código QR MOSTRADOR1');
  await page.getByText('POS (punto de venta)').waitFor();
  await page.getByText(`${formatCop('8000.00')} (sobre una base de ${formatCop('50000.00')})`).waitFor();
  expect(formatCop('58000.00')).toBe('$\u00a058.000,00');
  await rowWith(page, 'Recibido').getByText('$\u00a058.000,00').waitFor();

  await open(page, '#/payments', 'Pagos');
  expect(await page.getByRole('columnheader').allTextContents()).toEqual([
    'Creado',
    'Referencia',
    'Comercio',
    'Dirección',
    'Estado',
    'Monto',
    'Contraparte',
  ]);
  expect(await page.getByRole('definition').allTextContents()).toEqual([
    '1',
    '$\u00a058.000,00',
    '$\u00a058.000,00',
    '$\u00a00,00',
  ]);
  const day = page.getByLabel('Creado el');
  await day.fill('31/02/2026');
  await day.press('Enter');
  await page.getByText('No existe el 31/02/2026.').waitFor();
  await page.getByText('Página 1 de 1 · 1 pago').waitFor();

  await open(page, '#/qrcodes/new', 'Nuevo código QR');
  await page.getByLabel('Tipo de código').selectOption('dynamic');
  await page.getByLabel('Monto (COP)').fill('58,000.00');
  await page.getByText(/se lee de dos maneras/).waitFor();
  await page.getByLabel('Monto (COP)').fill('58.000');
  await page.getByText(`Entendido como ${formatCop('58000.00')}`).waitFor();
  await page.getByRole('button', { name: 'Crear código QR' }).click();
  await page.getByText('De 1 a 17 letras o dígitos, sin la letra P.').waitFor();

  // A received payment's refunds, in Spanish (words too short for englishLeftOn among them).
  await open(page, `#/payments/${payment.id}`, /^Pago de/);
  await page.getByRole('heading', { level: 2, name: 'Devoluciones' }).waitFor();
  const refunds = page.getByRole('table', { name: 'Devoluciones de este pago, la más reciente primero' });
  await refunds
    .getByRole('row')
    .filter({ hasText: formatCop('8000.00') })
    .waitFor();
  expect(await refunds.getByRole('columnheader').allTextContents()).toEqual(['Creado', 'Estado', 'Monto', 'Motivo']);
  await page.getByText('Devuelto', { exact: true }).waitFor();
  expect(await page.getByLabel('Monto a devolver (COP)').inputValue()).toBe('50000.00');
  await page.getByRole('button', { name: 'Devolver', exact: true }).waitFor();

  // The refund on the Activity page, in words: who gave back how much of which payment, linked.
  await open(page, '#/activity', 'Actividad');
  const refunded = page
    .getByRole('row')
    .filter({ hasText: `sandbox-client-a devolvió ${formatCop('8000.00')} del pago` });
  await refunded.waitFor();
  expect(await refunded.getByRole('link', { name: payment.id.slice(0, 8) }).getAttribute('href')).toBe(
    `#/payments/${payment.id}`,
  );

  await open(page, '#/merchants', 'Comercios');
  // Written in Spanish, with the RUT's way of writing a NIT; a wrong check digit named.
  await page.getByLabel('NIT', { exact: true }).fill('12345');
  await page.getByRole('button', { name: 'Vincular comercio' }).click();
  await page
    .getByText('Escriba los 9 dígitos del NIT, con o sin puntos y su dígito de verificación: 900.123.456-8.')
    .waitFor();
  await page.getByLabel('NIT', { exact: true }).fill('900.123.456-7');
  await page.getByRole('button', { name: 'Vincular comercio' }).click();
  await page.getByText('El dígito de verificación no corresponde a este NIT: el de la DIAN es 8.').waitFor();
  await page.getByLabel('Celular').fill('300 123');
  await page.getByRole('button', { name: 'Vincular comercio' }).click();
  await page.getByText('Un celular colombiano: 10 dígitos que empiezan por 3, con o sin espacios o +57.').waitFor();
  expect(await axeViolations(page)).toEqual([]);
  await page.context().close();
});

test('the switch changes the language at once and the choice outlives a reload; English and French browsers read English', async () => {
  const page = await personReading('es-CO');
  await signIn(page, api.url, 'merchant-admin-a', SPANISH);
  await open(page, '#/payments', 'Pagos');
  await page.getByLabel('Idioma').selectOption('en');
  // The same page, in English, without a reload: its list and its filters kept.
  await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
  await page.getByRole('columnheader', { name: 'Other side' }).waitFor();
  expect(await inPage(page, 'document.documentElement.lang')).toBe('en');
  expect(await englishLeftOn(page)).not.toEqual([]);
  // Only the language is remembered: no token, nothing else.
  expect(await inPage(page, 'Object.entries(localStorage)')).toEqual([['breb-dashboard-language', 'en']]);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Payments' }).waitFor();
  await page.getByLabel('Language').selectOption('es');
  await page.getByRole('heading', { level: 1, name: 'Pagos' }).waitFor();
  await page.reload();
  await page.getByRole('heading', { level: 1, name: 'Pagos' }).waitFor();
  await page.context().close();

  for (const locale of ['en-US', 'fr-FR']) {
    const reader = await personReading(locale);
    await reader.goto(`${api.url}/dashboard/`);
    await reader.getByRole('button', { name: 'Sign in', exact: true }).waitFor();
    expect([locale, await inPage(reader, 'document.documentElement.lang')]).toEqual([locale, 'en']);
    await reader.context().close();
  }
});

const shoot = (page: Page, name: string) => shootIn(page, SCREENSHOTS, name);

test("the webhook form says the API's refusals in Spanish, beside the address", async () => {
  const page = await personReading('es-CO');
  await signIn(page, api.url, 'merchant-admin-a', SPANISH);
  await open(page, '#/webhooks', es['webhooks.title']);
  const url = page.getByLabel(es['form.webhookUrl']);
  for (const [typed, said] of [
    // The local stage takes http only for this machine.
    ['http://tienda.co/breb', es['field.httpsOnlyLocal']],
    ['https://ana:clave@tienda.co/breb', es['field.noCredentials']],
  ] as const) {
    await url.fill(typed);
    const refused = page.waitForResponse((answer) => answer.url().endsWith('/v1/webhooks') && answer.status() === 400);
    await page.getByRole('button', { name: es['form.addWebhook'] }).click();
    await refused;
    await page.getByText(said).waitFor();
  }
  expect(await page.locator('main').innerText()).not.toMatch(/must (be|not)/);
  await page.context().close();
});
