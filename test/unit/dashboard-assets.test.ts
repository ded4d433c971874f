/**
 * The dashboard as the local server hands it out (only the built files, config.json pointing at
 * this server, the page's security headers), and the dashboard's amounts written for Colombia.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatCop, formatSignedCop, shortReference } from '../../dashboard/src/format';
import {
  answerDashboardRequest,
  loadDashboardAssets,
  localDashboardConfig,
  type DashboardAssets,
} from '../../infra/local/dashboard-assets';

let folder: string;
let assets: DashboardAssets;
beforeAll(() => {
  folder = mkdtempSync(path.join(tmpdir(), 'breb-dashboard-'));
  writeFileSync(path.join(folder, 'index.html'), '<!doctype html><title>x</title>');
  writeFileSync(path.join(folder, 'app.js'), 'console.log(1)');
  writeFileSync(path.join(folder, 'notes.txt'), 'not served');
  assets = loadDashboardAssets(localDashboardConfig(true), folder);
});
afterAll(() => rmSync(folder, { recursive: true, force: true }));

const get = (pathname: string, method = 'GET') =>
  answerDashboardRequest(assets, method, new URL(pathname, 'http://127.0.0.1:3000'));

describe('the dashboard at /dashboard/', () => {
  test('the page, with a policy that lets it load only its own files and be framed by nobody', () => {
    const page = get('/dashboard/')!;
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['content-security-policy']).toBe(
      "default-src 'self'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; " +
        "form-action 'self'; frame-ancestors 'none'",
    );
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(get('/dashboard/app.js')!.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  test("config.json names this server's sign-in and sign-out and the public client, and no secret", () => {
    const config = JSON.parse(String(get('/dashboard/config.json')!.body));
    expect(config).toEqual({
      authorizeUrl: '/oauth2/authorize',
      tokenUrl: '/oauth2/token',
      logoutUrl: '/logout',
      clientId: 'breb-dashboard',
      scope: 'openid',
      apiUrl: '',
      sandbox: true,
    });
  });

  test('/dashboard goes to /dashboard/ with its query (the sign-in returns there)', () => {
    expect(get('/dashboard?code=abc&state=x')).toMatchObject({
      status: 301,
      headers: { location: '/dashboard/?code=abc&state=x' },
    });
  });

  test.each([
    ['a file that is not built', '/dashboard/other.js', 404],
    ['a file of the folder of another kind', '/dashboard/notes.txt', 404],
    ['a POST', '/dashboard/', 405],
  ])('%s: %s is %d', (_case, pathname, status) => {
    expect(get(pathname, pathname === '/dashboard/' ? 'POST' : 'GET')!.status).toBe(status);
  });

  test('other paths are not the dashboard, nor a way out of its folder (the URL resolves it first)', () => {
    expect(get('/dashboard/%2e%2e/package.json')).toBeUndefined();
    expect(get('/dashboards')).toBeUndefined();
    expect(get('/v1/qrcodes')).toBeUndefined();
  });

  test('nothing built: 503 saying how to build it', () => {
    const empty = loadDashboardAssets(localDashboardConfig(false), path.join(folder, 'missing'));
    const answer = answerDashboardRequest(empty, 'GET', new URL('http://127.0.0.1/dashboard/'))!;
    expect(answer.status).toBe(503);
    expect(answer.body).toMatch(/npm run generate/);
  });
});

describe('amounts and references on the pages', () => {
  // Intl writes a no-break space (U+00A0) after the sign.
  test.each([
    ['15000.00', '$\u00a015.000,00'],
    ['1177000.00', '$\u00a01.177.000,00'],
    ['0.50', '$\u00a00,50'],
    ['0.07', '$\u00a00,07'],
    ['0.00', '$\u00a00,00'],
    // The largest payment (13 digits before the point, shared/schemas/payments.ts).
    ['9999999999999.99', '$\u00a09.999.999.999.999,99'],
    // Past 2^53 cents: a double has no 90071992547409.93 (Number() makes it ...,94).
    ['90071992547409.93', '$\u00a090.071.992.547.409,93'],
    // The largest amount the API answers (Money: 15 digits before the point, shared/schemas/common.ts):
    // Number() makes it 1.000.000.000.000.000,00.
    ['999999999999999.99', '$\u00a0999.999.999.999.999,99'],
  ])('%s COP is written %j (es-CO), to the cent', (value, written) => {
    expect(formatCop(value)).toBe(written);
  });

  test.each([
    ['75.25', '+$\u00a075,25'],
    ['-120.50', '-$\u00a0120,50'],
    ['0.00', '$\u00a00,00'],
    ['-999999999999999.99', '-$\u00a0999.999.999.999.999,99'],
  ])("a movement's %s COP is written %j: its sign in the text, to the cent", (value, written) => {
    expect(formatSignedCop(value)).toBe(written);
  });

  test("the merchant's reference, out of the network's form", () => {
    expect(shortReference('CO.COM.RBM.TRXIDPMOSTRADOR1')).toBe('MOSTRADOR1');
    expect(shortReference('LOCAL1')).toBe('LOCAL1');
  });
});
