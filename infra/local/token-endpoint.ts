/** POST /oauth2/token (client credentials), answered like Cognito's token endpoint (RFC 6749). */
import type { LocalIssuer } from './oauth';
import { TOKEN_LIFETIME_SECONDS } from './oauth';

export interface TokenAnswer {
  readonly status: number;
  readonly body: Record<string, unknown>;
}

const oauthError = (status: number, error: string, description: string): TokenAnswer => ({
  status,
  body: { error, error_description: description },
});

function basicCredentials(authorization: string | undefined): [string, string] | undefined {
  const match = /^Basic\s+(.+)$/i.exec(authorization ?? '');
  if (!match?.[1]) return undefined;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
}

export async function answerTokenRequest(
  issuer: LocalIssuer,
  contentType: string | undefined,
  authorization: string | undefined,
  body: string,
): Promise<TokenAnswer> {
  if (!contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return oauthError(400, 'invalid_request', 'Send application/x-www-form-urlencoded');
  }
  const form = new URLSearchParams(body);
  const credentials = basicCredentials(authorization) ?? [form.get('client_id') ?? '', form.get('client_secret') ?? ''];
  const client = issuer.authenticate(...credentials);
  if (!client) return oauthError(401, 'invalid_client', 'Unknown client or wrong secret');
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported');
  }
  const requested = form.get('scope')?.split(' ').filter(Boolean);
  if (requested?.some((scope) => !client.scopes.includes(scope))) {
    return oauthError(400, 'invalid_scope', 'A requested scope is not granted to this client');
  }
  const accessToken = await issuer.issueAccessToken(client, requested ?? client.scopes);
  return { status: 200, body: { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS } };
}
