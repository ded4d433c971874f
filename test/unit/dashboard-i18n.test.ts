/**
 * dashboard/src/i18n: the dashboard's two catalogs hold the same messages (every key in both, the
 * same placeholders, nothing left empty or untranslated by accident), the browser's languages pick
 * one, and the page's own words follow the language chosen.
 */
import { CATALOGS, pickLanguage, setLanguage, t } from '../../dashboard/src/i18n';
import { withMeaning } from '../../dashboard/src/codes';
import { parseCop } from '../../dashboard/src/money';
import { parseDay } from '../../dashboard/src/days';

const placeholders = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();

afterEach(() => setLanguage('en'));

test('every key of each catalog is in the other, with the same placeholders, and none is empty', () => {
  const { en, es } = CATALOGS;
  expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
  for (const key of Object.keys(en) as (keyof typeof en)[]) {
    expect([key, placeholders(es[key])]).toEqual([key, placeholders(en[key])]);
    expect([key, en[key].trim().length > 0, es[key].trim().length > 0]).toEqual([key, true, true]);
  }
});

test('the Spanish catalog is Spanish: a message the same in both is a name, a code or a format', () => {
  const { en, es } = CATALOGS;
  const same = (Object.keys(en) as (keyof typeof en)[]).filter((key) => en[key] === es[key]);
  // Words both languages write alike: a product's name, an acronym, a code's name, Bogotá.
  expect(same.sort()).toEqual(
    [
      'activity.kind.WEBHOOK',
      'code.keyType.ALPHA',
      'column.nit',
      'form.nit',
      'day.understood',
      'noun.webhooks.many',
      'noun.webhooks.one',
      'overview.total',
      'qrcode.terminal',
      'section.webhooks',
      'webhook.title',
      'webhooks.title',
    ].sort(),
  );
});

test.each([
  [null, ['es-CO', 'en'], 'es'],
  [null, ['es'], 'es'],
  [null, ['ES-419'], 'es'],
  [null, ['en-US', 'es-CO'], 'en'],
  [null, ['fr-FR', 'es-ES'], 'es'],
  [null, ['fr-FR'], 'en'],
  [null, [], 'en'],
  ['en', ['es-CO'], 'en'],
  ['es', ['en-US'], 'es'],
  ['de', ['es-CO'], 'es'],
])('chosen %p with the browser saying %p reads %s', (chosen, browser, expected) => {
  expect(pickLanguage(chosen, browser)).toBe(expected);
});

test("the page's words, the codes' meanings and the checks' refusals follow the language", () => {
  expect(t('list.where', { page: 1, pages: 3, count: 25, items: 'pagos' })).toBe('Page 1 of 3 · 25 pagos');
  expect(withMeaning('channel', 'IM')).toBe('IM (printed or entered by hand)');
  expect(parseCop('119,000.00')).toEqual({ ok: false, error: expect.stringContaining('reads two ways') });
  setLanguage('es');
  expect(t('list.where', { page: 1, pages: 3, count: 25, items: 'pagos' })).toBe('Página 1 de 3 · 25 pagos');
  expect(withMeaning('channel', 'IM')).toBe('IM (impreso o digitado a mano)');
  expect(withMeaning('channel', 'NEW')).toBe('NEW');
  expect(parseCop('119,000.00')).toEqual({ ok: false, error: expect.stringContaining('dos maneras') });
  expect(parseDay('31/02/2026')).toEqual({ ok: false, error: 'No existe el 31/02/2026.' });
});
