/**
 * Where the dashboard signs people in and finds the API, read from config.json beside the page:
 * the local server writes it for its own issuer, the stack for Cognito's hosted sign-in and the
 * distribution. It holds no secret: the dashboard is a public client.
 */
export interface DashboardConfig {
  /** The OAuth2 authorization endpoint (the sign-in page). */
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  /** Ends the sign-in's session at the identity provider (Cognito's /logout, the local issuer's /logout). */
  readonly logoutUrl?: string;
  /** The dashboard's app client: public, no secret, code flow with PKCE only. */
  readonly clientId: string;
  /** What the authorization request asks for; the person's scopes come with the token either way. */
  readonly scope: string;
  /** The API's base URL; empty when the API is served from the dashboard's own origin. */
  readonly apiUrl: string;
  /** Whether the stage runs the sandbox (a shopper can pay a QR code from its page). */
  readonly sandbox: boolean;
}

export async function loadConfig(): Promise<DashboardConfig> {
  const answer = await fetch('config.json');
  if (!answer.ok) throw new Error(`config.json answered ${answer.status}`);
  return (await answer.json()) as DashboardConfig;
}
