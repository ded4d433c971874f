/**
 * A real browser for the tests: Debian's Chromium (`apt-get install chromium`; .ci/run installs it),
 * driven by playwright-core, which downloads no browser of its own. Headless, and without Chromium's
 * sandbox, which needs user namespaces that containers and CI machines (running the tests as root)
 * may not give; the other flags keep Chromium from reaching out to Google's services at start (there
 * is no network). Each test file launches one browser and closes it when done.
 */
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where Debian installs Chromium; CHROMIUM_PATH names another. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** What a page asked for: every request it made, and every load its Content-Security-Policy refused. */
export interface PageTraffic {
  readonly requests: string[];
  readonly refusedByPolicy: string[];
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/**
 * Records the page's traffic from now on: every request it makes, to any host, and every load its
 * Content-Security-Policy refuses (those happen before any request, so the page reports them itself,
 * from the document's `securitypolicyviolation` events). A request for another host than this
 * machine is recorded and aborted, never sent: a test of a page that would reach out sends nothing.
 */
export async function recordTraffic(page: Page): Promise<PageTraffic> {
  const traffic: PageTraffic = { requests: [], refusedByPolicy: [] };
  await page.route('**/*', (route) => {
    const url = route.request().url();
    traffic.requests.push(url);
    const { protocol, hostname } = new URL(url);
    return (protocol === 'http:' || protocol === 'https:') && !LOOPBACK.has(hostname)
      ? route.abort()
      : route.continue();
  });
  await page.exposeFunction('__reportPolicyViolation', (uri: string) => traffic.refusedByPolicy.push(uri));
  // Runs in the page, where the DOM is: written without its types, which this project does not load.
  await page.addInitScript(() => {
    const page = globalThis as unknown as {
      document: { addEventListener(type: string, listener: (event: Record<string, string>) => void): void };
      __reportPolicyViolation(uri: string): void;
    };
    page.document.addEventListener('securitypolicyviolation', (event) =>
      page.__reportPolicyViolation(`${event['violatedDirective']} ${event['blockedURI']}`),
    );
  });
  return traffic;
}
