/**
 * The dashboard as `npm start` serves it at /dashboard/ (what S3 behind CloudFront does on AWS):
 * the files `npm run generate` built into dist/dashboard/, read once at start, and config.json,
 * which points the page at this server's own sign-in and API.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { DashboardConfig } from '../../dashboard/src/config';
import { dashboardContentSecurityPolicy } from '../dashboard-policy';
import { DASHBOARD_ASSETS_DIR } from '../paths';
import { DASHBOARD_CLIENT_ID, DASHBOARD_PATH } from './people';
import type { PlainAnswer } from './issuer-endpoints';

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
};

/**
 * The page's policy (infra/dashboard-policy.ts); no Referer leaves it (the sign-in's code is in its
 * address for a moment).
 */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': dashboardContentSecurityPolicy(),
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/** What config.json tells the page locally: this server's own issuer and API, on the page's origin. */
export const localDashboardConfig = (sandbox: boolean): DashboardConfig => ({
  authorizeUrl: '/oauth2/authorize',
  tokenUrl: '/oauth2/token',
  logoutUrl: '/logout',
  clientId: DASHBOARD_CLIENT_ID,
  scope: 'openid',
  apiUrl: '',
  sandbox,
});

export type DashboardAssets = ReadonlyMap<string, { readonly type: string; readonly body: Buffer }>;

/** The built files by their path under /dashboard/, and config.json; empty when nothing was built. */
export function loadDashboardAssets(config: DashboardConfig, folder = DASHBOARD_ASSETS_DIR): DashboardAssets {
  const assets = new Map<string, { type: string; body: Buffer }>();
  if (!existsSync(folder)) return assets;
  for (const name of readdirSync(folder)) {
    const type = CONTENT_TYPES[path.extname(name)];
    if (type) assets.set(name, { type, body: readFileSync(path.join(folder, name)) });
  }
  assets.set('config.json', { type: CONTENT_TYPES['.json']!, body: Buffer.from(JSON.stringify(config)) });
  return assets;
}

const ROOT = DASHBOARD_PATH.slice(0, -1);

/** The answer for a path under /dashboard, or undefined for any other path. */
export function answerDashboardRequest(assets: DashboardAssets, method: string, url: URL): PlainAnswer | undefined {
  if (url.pathname !== ROOT && !url.pathname.startsWith(DASHBOARD_PATH)) return undefined;
  const text = (status: number, body: string, headers: Record<string, string> = {}): PlainAnswer => ({
    status,
    headers: { 'content-type': 'text/plain; charset=utf-8', ...headers },
    body,
  });
  if (method !== 'GET' && method !== 'HEAD') return text(405, 'The dashboard is read with GET', { allow: 'GET, HEAD' });
  if (url.pathname === ROOT) return text(301, '', { location: `${DASHBOARD_PATH}${url.search}` });
  if (!assets.has('index.html')) {
    return text(503, 'The dashboard is not built: run `npm run generate` (npm start runs it first)');
  }
  const asset = assets.get(url.pathname.slice(DASHBOARD_PATH.length) || 'index.html');
  if (!asset) return text(404, `No ${url.pathname} in the dashboard`);
  return { status: 200, headers: { ...DASHBOARD_HEADERS, 'content-type': asset.type }, body: asset.body };
}
