/**
 * The language of the page: the person's own choice, remembered in this browser (localStorage: a
 * preference, nothing secret; the token never goes there), else the browser's languages. The
 * document says its language (`<html lang>`), so screen readers speak it and axe can check it.
 */
import { pickLanguage, setLanguage, type Language } from '.';

const STORED = 'breb-dashboard-language';

function storedChoice(): string | null {
  try {
    return localStorage.getItem(STORED);
  } catch {
    // Storage refused (a private window's policy): the browser's languages decide.
    return null;
  }
}

function apply(chosen: Language): Language {
  setLanguage(chosen);
  document.documentElement.lang = chosen === 'es' ? 'es-CO' : 'en';
  return chosen;
}

/** At start: the remembered choice, else the browser's. */
export const startLanguage = (): Language => apply(pickLanguage(storedChoice(), navigator.languages ?? []));

/** The person's choice from the header's switch: applied and remembered. */
export function chooseLanguage(chosen: Language): Language {
  try {
    localStorage.setItem(STORED, chosen);
  } catch {
    // Not remembered: the choice still holds until the page is closed.
  }
  return apply(chosen);
}
