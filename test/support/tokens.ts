/**
 * Access tokens a client could send, good and bad, made with the local issuer (or an impostor):
 * the authorization matrix sends each to every route.
 */
import { allScopes, type RouteDefinition } from '../../functions/routes';
import { LocalIssuer } from '../../infra/local/oauth';

export const claimsOf = (clientId: string, scopes: readonly string[]): Record<string, unknown> => ({
  sub: clientId,
  client_id: clientId,
  scope: scopes.join(' '),
  token_use: 'access',
});

export const base64url = (value: object): string => Buffer.from(JSON.stringify(value)).toString('base64url');

export type BadToken = 'no token' | 'expired' | 'bad signature' | 'other issuer' | 'alg none';

export const BAD_TOKENS: readonly BadToken[] = ['no token', 'expired', 'bad signature', 'other issuer', 'alg none'];

const impostors = new Map<string, Promise<LocalIssuer>>();
/** An issuer with the same name and another key (one per issuer: making RSA keys is slow). */
function impostorOf(issuer: LocalIssuer): Promise<LocalIssuer> {
  let impostor = impostors.get(issuer.issuer);
  if (!impostor) impostors.set(issuer.issuer, (impostor = LocalIssuer.create({ issuer: issuer.issuer })));
  return impostor;
}

/** The Authorization header of each bad token, for a client that otherwise holds every scope. */
export async function badAuthorization(
  issuer: LocalIssuer,
  kind: BadToken,
  clientId: string,
): Promise<string | undefined> {
  const claims = claimsOf(clientId, allScopes);
  switch (kind) {
    case 'no token':
      return undefined;
    case 'expired':
      return `Bearer ${await issuer.sign(claims, -60)}`;
    case 'bad signature':
      return `Bearer ${await (await impostorOf(issuer)).sign(claims)}`;
    case 'other issuer':
      return `Bearer ${await issuer.sign({ ...claims, iss: 'https://issuer.example.com' })}`;
    case 'alg none': {
      const now = Math.floor(Date.now() / 1000);
      const payload = { ...claims, iss: issuer.issuer, iat: now, exp: now + 600 };
      return `Bearer ${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
    }
  }
}

/** A valid token of the client with every scope except the route's. */
export const tokenWithoutScopeOf = (issuer: LocalIssuer, route: RouteDefinition, clientId: string): Promise<string> =>
  issuer.sign(
    claimsOf(
      clientId,
      allScopes.filter((scope) => !(route.scopes as readonly string[]).includes(scope)),
    ),
  );
