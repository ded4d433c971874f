/**
 * The dashboard's words in Spanish and English: one catalog per language (en.ts, es.ts, the same
 * keys: the type checker and a unit test hold them to it), `t` to say a message in the language of
 * the moment, and the choice of that language (the browser's, or the person's own). On its own (no
 * DOM), so the unit tests and the formats read it as the pages do; remembering a choice is main's.
 */
import { en, type MessageKey } from './en';
import { es } from './es';

export type { MessageKey } from './en';

export const LANGUAGES = ['es', 'en'] as const;
export type Language = (typeof LANGUAGES)[number];

export const CATALOGS: Readonly<Record<Language, Readonly<Record<MessageKey, string>>>> = { en, es };

let current: Language = 'en';

export const language = (): Language => current;

export function setLanguage(chosen: Language): void {
  current = chosen;
}

export const isLanguage = (value: unknown): value is Language => value === 'en' || value === 'es';

/**
 * The language a person reads: their own choice when they made one, else the browser's first
 * language that is Spanish (es, es-CO, es-419...) or English; Spanish before English when the
 * browser prefers it, English when it names neither.
 */
export function pickLanguage(chosen: string | null | undefined, browser: readonly string[]): Language {
  if (isLanguage(chosen)) return chosen;
  for (const tag of browser) {
    const primary = tag.toLowerCase().split('-')[0];
    if (isLanguage(primary)) return primary;
  }
  return 'en';
}

/** Whether the catalogs hold `key` (the codes' meanings are looked up by a code the API may add to). */
export const hasMessage = (key: string): key is MessageKey => Object.hasOwn(en, key);

/** A message in the language of the moment, its `{name}` placeholders filled from `values`. */
export function t(key: MessageKey, values: Readonly<Record<string, string | number>> = {}): string {
  return CATALOGS[current][key].replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/** "Received", "Recibido": a message that starts a sentence or a cell. */
export const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
