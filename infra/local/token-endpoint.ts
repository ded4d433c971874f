/**
 * POST /oauth2/token, answered like Cognito's token endpoint (RFC 6749): client credentials for the
 * sandbox clients, and the authorization code of a person's sign-in (with its PKCE verifier, RFC
 * 7636) for the public clients, which have no secret.
 */
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

const tokenAnswer = (accessToken: string): TokenAnswer => ({
  status: 200,
  body: { access_token: accessToken, token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS },
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
  if (form.get('grant_type') === 'authorization_code') {
    if (client) {
      return oauthError(
        400,
        'unauthorized_client',
        'A client with a secret uses grant_type=client_credentials; the authorization code grant is for people',
      );
    }
    return exchangeCode(issuer, form, authorization);
  }
  if (!client) return oauthError(401, 'invalid_client', 'Unknown client or wrong secret');
  if (form.get('grant_type') !== 'client_credentials') {
    return oauthError(400, 'unsupported_grant_type', 'Use grant_type=client_credentials (or authorization_code)');
  }
  const requested = form.get('scope')?.split(' ').filter(Boolean);
  if (requested?.some((scope) => !client.scopes.includes(scope))) {
    return oauthError(400, 'invalid_scope', 'A requested scope is not granted to this client');
  }
  return tokenAnswer(await issuer.issueAccessToken(client, requested ?? client.scopes));
}

/** The authorization code grant of a public client: client_id in the form, no secret, the PKCE verifier. */
async function exchangeCode(
  issuer: LocalIssuer,
  form: URLSearchParams,
  authorization: string | undefined,
): Promise<TokenAnswer> {
  const client = issuer.publicClient(form.get('client_id') ?? '');
  if (!client)
    return oauthError(401, 'invalid_client', 'Unknown client: the authorization code grant is for public clients');
  // A secret sent from a browser is a secret no longer: a public client must not have one to send.
  if (authorization !== undefined || form.has('client_secret')) {
    return oauthError(401, 'invalid_client', 'A public client authenticates with its code_verifier, never a secret');
  }
  const code = form.get('code');
  if (!code)
    return oauthError(400, 'invalid_request', 'Send the code of the sign-in, with redirect_uri and code_verifier');
  // Any exchange spends the code, also one without a verifier.
  const outcome = issuer.codes.exchange(
    code,
    client.clientId,
    form.get('redirect_uri') ?? '',
    form.get('code_verifier') ?? '',
  );
  if ('refused' in outcome) {
    const why = {
      'unknown code': 'The code is unknown or was already used: sign in again',
      'expired code': 'The code expired: sign in again',
      'other client': 'The code was issued to another client',
      'other redirect_uri': 'redirect_uri is not the one the code was issued for',
      'bad verifier': 'code_verifier is missing or does not match the code_challenge of the sign-in',
    }[outcome.refused];
    return oauthError(400, 'invalid_grant', why);
  }
  return tokenAnswer(await issuer.issuePersonToken(outcome.grant.person, client));
}
