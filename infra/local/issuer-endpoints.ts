/**
 * The local issuer's HTTP endpoints, which stand in for Cognito's outside the API stage (no
 * throttling, no route table): the token endpoint, a person's sign-in and sign-out, and the public keys.
 */
import type { IncomingMessage } from 'node:http';
import { answerAuthorizeRequest, answerLogoutRequest } from './authorize-endpoint';
import type { LocalIssuer } from './oauth';
import { answerTokenRequest } from './token-endpoint';

export interface PlainAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string | Buffer;
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): PlainAnswer => ({
  status,
  headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff', ...headers },
  body: JSON.stringify(body),
});

/** The answer of an issuer endpoint, or undefined when the request is for the API. */
export async function answerIssuerRequest(
  issuer: LocalIssuer,
  request: IncomingMessage,
  url: URL,
  body: Buffer,
): Promise<PlainAnswer | undefined> {
  const method = request.method ?? 'GET';
  const contentType = request.headers['content-type'];
  if (url.pathname === '/oauth2/token' && method === 'POST') {
    const answer = await answerTokenRequest(issuer, contentType, request.headers.authorization, body.toString('utf8'));
    return json(answer.status, answer.body, { 'cache-control': 'no-store' });
  }
  if (url.pathname === '/oauth2/authorize') {
    return answerAuthorizeRequest(
      issuer,
      method,
      url.searchParams,
      contentType,
      body.toString('utf8'),
      request.headers.cookie,
    );
  }
  if (url.pathname === '/logout' && method === 'GET') {
    return answerLogoutRequest(issuer, url.searchParams, request.headers.cookie);
  }
  if (url.pathname === '/.well-known/jwks.json' && method === 'GET') return json(200, issuer.jwks());
  return undefined;
}
