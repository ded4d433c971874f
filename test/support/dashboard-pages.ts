/**
 * What the dashboard's browser tests do on a page: sign in as a person, check axe-core's rules,
 * check that nothing scrolls sideways, and take screenshots at a desk's size and a phone's.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { passwordOf } from './people';

export const DESK = { width: 1280, height: 800 } as const;
/** A common phone's viewport (CSS pixels): the measure. */
export const PHONE = { width: 390, height: 844 } as const;

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** The dashboard's words a sign-in looks for, in the page's language. */
export interface SignInWords {
  /** The dashboard's own Sign in button (the issuer's page keeps `Sign in` in every language). */
  readonly button: string;
  /** The heading of the first page after sign-in. */
  readonly landing: string;
}

export const ENGLISH: SignInWords = { button: 'Sign in', landing: 'Overview' };

/** Opens the dashboard and signs in on the issuer's page, as a person would. */
export async function signIn(page: Page, url: string, username: string, words: SignInWords = ENGLISH): Promise<void> {
  await page.goto(`${url}/dashboard/`);
  // The page first asks the issuer's session (prompt=none); without one it offers Sign in.
  await page.getByRole('button', { name: words.button, exact: true }).click();
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(passwordOf(username));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: words.landing }).waitFor();
}

/** axe-core's WCAG 2.1 A/AA rules and best practices on the page as it is: no violation. */
export async function axeViolations(page: Page): Promise<string[]> {
  // Evaluated rather than added as a <script>: the pages' Content-Security-Policy forbids inline scripts.
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(): Promise<{ violations: any[] }> } }).axe;
    return (await axe.run()).violations.map((v) => `${v.id}: ${v.nodes.map((n: any) => n.target).join(' ')}`);
  });
}

/**
 * How far the page is wider than its viewport, in CSS pixels (0: no sideways scroll), and the
 * widest elements that stick out, to say which.
 */
export async function overflowOf(page: Page): Promise<{ readonly extra: number; readonly culprits: string[] }> {
  return page.evaluate(`(() => {
    const width = document.documentElement.clientWidth;
    const extra = Math.max(document.documentElement.scrollWidth, document.body.scrollWidth) - width;
    const culprits = [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1 && getComputedStyle(e).visibility !== 'hidden')
      .slice(0, 5)
      .map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : ''));
    return { extra, culprits };
  })()`);
}

/** A full-page screenshot, `name-desk.png` or `name-phone.png` under `folder`. */
export async function shoot(page: Page, folder: string, name: string): Promise<void> {
  const size = page.viewportSize()!.width <= PHONE.width ? 'phone' : 'desk';
  await page.screenshot({ path: path.join(folder, `${name}-${size}.png`), fullPage: true, animations: 'disabled' });
}

/** Evaluated in the page, where the DOM is: written as text, since the tests compile without the DOM's types. */
export const inPage = <T>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;
export const ofElement = <T>(locator: Locator, body: string): Promise<T> =>
  locator.evaluate(new Function('element', body) as (element: unknown) => T);

/** The row of a table that holds this text. */
export const rowWith = (page: Page, text: string | RegExp) => page.getByRole('row').filter({ hasText: text });
