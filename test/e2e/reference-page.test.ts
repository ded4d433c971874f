/**
 * The API's description through the local server, without a token: GET /openapi.json answers the
 * generated document as this stage serves it, and GET /docs a reference page that a real browser
 * (Debian's Chromium) draws from Swagger UI's own files with every operation of the document, while
 * every request the page makes goes to this machine and nothing is refused by its policy. One
 * browser for the file.
 */
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { routesFor } from '../../functions/routes';
import { documentForStage } from '../../shared/http/contract-pages';
import { OPENAPI_FILE } from '../../tools/openapi/files';
import { launchBrowser, recordTraffic } from '../support/browser';
import { startTestApi, type TestApi } from '../support/local-api';

let api: TestApi;
let browser: Browser;

beforeAll(async () => {
  [api, browser] = await Promise.all([startTestApi(), launchBrowser()]);
}, 60_000);

afterAll(async () => {
  await Promise.all([browser?.close(), api?.stop()]);
});

const operations = routesFor(true).flatMap((route) => route.paths.map((path) => ({ method: route.method, path })));

test('GET /openapi.json needs no token and answers the generated document of the stage', async () => {
  const answer = await api.request('GET', '/openapi.json');
  expect(answer.status).toBe(200);
  expect(answer.headers.get('content-type')).toBe('application/json');
  const generated = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8'));
  expect(answer.body).toEqual(documentForStage(generated, operations));
  // The local stage has the sandbox: every route of the table, at every path.
  const served = Object.entries(answer.body['paths']).flatMap(([path, item]) =>
    Object.keys(item as object).map((method) => `${method.toUpperCase()} ${path}`),
  );
  expect(served.sort()).toEqual(operations.map(({ method, path }) => `${method} ${path}`).sort());
});

test('GET /docs needs no token; its files are served from here, and nothing else under /docs', async () => {
  const page = await api.request('GET', '/docs');
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
  const bundle = await api.request('GET', '/docs/swagger-ui-bundle.js');
  expect(bundle.status).toBe(200);
  expect(bundle.text).toBe(readFileSync('node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'utf8'));
  const unknown = await api.request('GET', '/docs/..%2Fpackage.json');
  expect(unknown.status).toBe(404);
});

test('the reference page shows every operation, and every request it makes stays on this machine', async () => {
  const page = await browser.newPage();
  try {
    const traffic = await recordTraffic(page);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('requestfailed', (request) => errors.push(`${request.url()}: ${request.failure()?.errorText}`));
    await page.goto(`${api.url}/docs`);
    await page
      .locator('.opblock')
      .nth(operations.length - 1)
      .waitFor({ timeout: 20_000 });

    expect(await page.locator('.opblock').count()).toBe(operations.length);
    await expect(page.locator('.info .title').textContent()).resolves.toContain('Bre-B merchant API');
    const { host } = new URL(api.url);
    expect(traffic.requests.length).toBeGreaterThanOrEqual(5);
    expect(traffic.requests.filter((url) => new URL(url).host !== host)).toEqual([]);
    expect(traffic.requests).toContain(`${api.url}/openapi.json`);
    expect(traffic.refusedByPolicy).toEqual([]);
    expect(errors).toEqual([]);
  } finally {
    await page.close();
  }
}, 60_000);

test('the recorder sees a request for another host, and sends none', async () => {
  const page = await browser.newPage();
  try {
    const traffic = await recordTraffic(page);
    await page.setContent('<img src="https://cdn.example.com/font.png">');
    expect(traffic.requests).toEqual(['https://cdn.example.com/font.png']);
  } finally {
    await page.close();
  }
});
