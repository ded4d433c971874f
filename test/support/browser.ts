/**
 * A real browser for the tests: Debian's Chromium (apt-get install chromium; .ci/run installs it),
 * driven by playwright-core, which downloads no browser of its own. CHROMIUM overrides the path.
 * The flags keep Chromium from reaching out to Google's services at start (there is no network).
 */
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env['CHROMIUM'] ?? '/usr/bin/chromium';

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // --no-sandbox: CI and these machines run the tests as root, where Chromium's sandbox cannot start.
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
