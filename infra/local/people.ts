/**
 * Who signs in to the dashboard locally: the sandbox people, each working for one tenant (a
 * client id, whose data they see), and the public client the dashboard is. A person's access
 * token carries the tenant in `tenant` and the person's scopes, as Cognito's pre-token-generation
 * trigger makes it on AWS (functions/add-person-claims.ts).
 */
import type { Access } from '../../functions/routes';

export interface SandboxPerson {
  readonly username: string;
  readonly password: string;
  /** The client id whose data the person works on. */
  readonly tenant: string;
  /** As a Cognito person's `custom:access` attribute: `full` every scope, `read` the read scopes. */
  readonly access: Access;
}

export const SANDBOX_PEOPLE: readonly SandboxPerson[] = [
  { username: 'merchant-admin-a', password: 'sandbox-password-a', tenant: 'sandbox-client-a', access: 'full' },
  { username: 'viewer-a', password: 'sandbox-password-viewer-a', tenant: 'sandbox-client-a', access: 'read' },
  { username: 'merchant-admin-b', password: 'sandbox-password-b', tenant: 'sandbox-client-b', access: 'full' },
];

/**
 * A client that runs where it cannot keep a secret (a browser): it has none, so it gets a token only
 * by the authorization code flow with PKCE, and only at one of the addresses registered for it.
 */
export interface PublicClient {
  readonly clientId: string;
  /** Compared with the request's redirect_uri character for character, as OAuth 2.1 asks. */
  readonly redirectUris: readonly string[];
}

export const DASHBOARD_CLIENT_ID = 'breb-dashboard';
/** Where the dashboard is served, and so where sign-in returns to. */
export const DASHBOARD_PATH = '/dashboard/';

/**
 * The dashboard as a public client of the server at `baseUrl` (http://127.0.0.1:<port>). A browser
 * may reach that server as `localhost` too, so both names are registered.
 */
export function dashboardClient(baseUrl: string): PublicClient {
  const url = new URL(DASHBOARD_PATH, baseUrl);
  const names = url.hostname === '127.0.0.1' ? ['127.0.0.1', 'localhost'] : [url.hostname];
  return {
    clientId: DASHBOARD_CLIENT_ID,
    redirectUris: names.map((name) => {
      url.hostname = name;
      return url.toString();
    }),
  };
}
