/**
 * The local OAuth2 issuer: a stand-in for Cognito (docs/sandbox.md, docs/dashboard.md). It issues
 * RS256 access tokens to the sandbox clients (client credentials) and to the sandbox people who
 * sign in to the dashboard (authorization code with PKCE), and verifies them the way API Gateway's
 * JWT authorizer does: signature by `kid` from the JWKS, `iss`, `aud` (or `client_id` without one)
 * in the audience, `exp`, `nbf`.
 */
import { randomUUID, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import {
  createLocalJWKSet,
  decodeProtectedHeader,
  errors,
  exportJWK,
  generateKeyPair,
  importJWK,
  jwtVerify,
  SignJWT,
  type CryptoKey,
  type JSONWebKeySet,
  type JWK,
  type JWTPayload,
} from 'jose';
import { allScopes, readScopes, scopesFor } from '../../functions/routes';
import { SignInSessions } from './sign-in-sessions';
import { AuthorizationCodes } from './authorization-codes';
import { dashboardClient, SANDBOX_PEOPLE, type PublicClient, type SandboxPerson } from './people';
import type { TokenFault } from './token-refusals';

export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly scopes: readonly string[];
}

export const SANDBOX_CLIENTS: readonly OAuthClient[] = [
  { clientId: 'sandbox-client-a', clientSecret: 'sandbox-secret-a', scopes: allScopes },
  { clientId: 'sandbox-client-b', clientSecret: 'sandbox-secret-b', scopes: allScopes },
  { clientId: 'sandbox-client-readonly', clientSecret: 'sandbox-secret-readonly', scopes: readScopes },
];

export const TOKEN_LIFETIME_SECONDS = 3600;
const ALGORITHM = 'RS256';

export interface VerifiedToken {
  readonly claims: JWTPayload & Record<string, unknown>;
  readonly scopes: readonly string[];
}

export class TokenRejected extends Error {
  constructor(readonly fault: Exclude<TokenFault, { kind: 'missing' }>) {
    super(`token rejected: ${fault.kind}`);
  }
}

const dateOf = (numericDate: unknown): Date => new Date(Number(numericDate) * 1000);

/** Which of the authorizer's checks a token failed, from the error jose threw. */
function faultOf(error: unknown, token: string): TokenRejected['fault'] {
  if (error instanceof errors.JWTExpired) return { kind: 'expired', expiredAt: dateOf(error.payload['exp']) };
  if (error instanceof errors.JWTClaimValidationFailed && error.reason !== 'invalid') {
    if (error.claim === 'nbf') return { kind: 'not-yet-valid', notBefore: dateOf(error.payload['nbf']) };
    if (error.claim === 'iss') return { kind: 'issuer', issuer: error.payload.iss };
  }
  // The header parsed (jose read its alg): it names an algorithm other than RS256.
  if (error instanceof errors.JOSEAlgNotAllowed) {
    return { kind: 'signature', algorithm: String(decodeProtectedHeader(token).alg) };
  }
  if (
    error instanceof errors.JWSSignatureVerificationFailed ||
    error instanceof errors.JWKSNoMatchingKey ||
    error instanceof errors.JWKSMultipleMatchingKeys
  ) {
    return { kind: 'signature' };
  }
  return { kind: 'malformed' };
}

interface SigningKey {
  readonly kid: string;
  readonly privateKey: CryptoKey;
  readonly publicJwk: JWK;
}

/** Keeps the signing key in the data folder, so tokens stay valid across restarts. */
async function loadOrCreateKey(keyFile: string | undefined): Promise<SigningKey> {
  if (keyFile && existsSync(keyFile)) {
    const { kid, privateJwk, publicJwk } = JSON.parse(readFileSync(keyFile, 'utf8')) as {
      kid: string;
      privateJwk: JWK;
      publicJwk: JWK;
    };
    return { kid, privateKey: (await importJWK(privateJwk, ALGORITHM)) as CryptoKey, publicJwk };
  }
  const { privateKey, publicKey } = await generateKeyPair(ALGORITHM, { extractable: true });
  const kid = randomUUID();
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: ALGORITHM, use: 'sig' };
  if (keyFile) {
    writeFileSync(keyFile, JSON.stringify({ kid, privateJwk: await exportJWK(privateKey), publicJwk }), {
      mode: 0o600,
    });
  }
  return { kid, privateKey, publicJwk };
}

const sameSecret = (a: string, b: string): boolean => {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
};

export interface LocalIssuerOptions {
  readonly issuer: string;
  readonly keyFile?: string;
  readonly clients?: readonly OAuthClient[];
  /** The clients without a secret; by default the dashboard served beside the issuer. */
  readonly publicClients?: readonly PublicClient[];
  readonly people?: readonly SandboxPerson[];
}

export class LocalIssuer {
  private readonly keySet: ReturnType<typeof createLocalJWKSet>;
  /** The codes of sign-ins not yet exchanged for a token. */
  readonly codes = new AuthorizationCodes();
  /** The people signed in at the issuer, by their session cookie. */
  readonly sessions = new SignInSessions();

  private constructor(
    readonly issuer: string,
    readonly clients: readonly OAuthClient[],
    readonly publicClients: readonly PublicClient[],
    private readonly people: readonly SandboxPerson[],
    private readonly key: SigningKey,
  ) {
    this.keySet = createLocalJWKSet(this.jwks());
  }

  static async create(options: LocalIssuerOptions): Promise<LocalIssuer> {
    return new LocalIssuer(
      options.issuer,
      options.clients ?? SANDBOX_CLIENTS,
      options.publicClients ?? [dashboardClient(options.issuer)],
      options.people ?? SANDBOX_PEOPLE,
      await loadOrCreateKey(options.keyFile),
    );
  }

  /**
   * The client ids the authorizer accepts (API Gateway's `audience`): the machine clients and the
   * public ones, as the deployed authorizer accepts both kinds of app client.
   */
  get audience(): readonly string[] {
    return [...this.clients, ...this.publicClients].map((client) => client.clientId);
  }

  jwks(): JSONWebKeySet {
    return { keys: [this.key.publicJwk] };
  }

  authenticate(clientId: string, clientSecret: string): OAuthClient | undefined {
    const client = this.clients.find((c) => c.clientId === clientId);
    return client && sameSecret(client.clientSecret, clientSecret) ? client : undefined;
  }

  publicClient(clientId: string): PublicClient | undefined {
    return this.publicClients.find((client) => client.clientId === clientId);
  }

  /** The person with this username and password; the password is compared in constant time. */
  signIn(username: string, password: string): SandboxPerson | undefined {
    const person = this.people.find((p) => p.username === username);
    return person && sameSecret(person.password, password) ? person : undefined;
  }

  /** Signs an access token with any claims: the token endpoint's work, and tests' expired tokens. */
  async sign(claims: Record<string, unknown>, lifetimeSeconds = TOKEN_LIFETIME_SECONDS): Promise<string> {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ iss: this.issuer, iat: now, exp: now + lifetimeSeconds, jti: randomUUID(), ...claims })
      .setProtectedHeader({ alg: ALGORITHM, kid: this.key.kid, typ: 'JWT' })
      .sign(this.key.privateKey);
  }

  async issueAccessToken(client: OAuthClient, scopes: readonly string[]): Promise<string> {
    return this.sign({
      sub: client.clientId,
      client_id: client.clientId,
      scope: scopes.join(' '),
      token_use: 'access',
    });
  }

  /**
   * A person's access token, as Cognito's is after the pre-token-generation trigger: `client_id`
   * the public client signed in through, `sub` and `username` the person, `tenant` whose data the
   * person works on, `scope` the person's scopes.
   */
  async issuePersonToken(person: SandboxPerson, client: PublicClient): Promise<string> {
    return this.sign({
      sub: person.username,
      username: person.username,
      client_id: client.clientId,
      tenant: person.tenant,
      scope: scopesFor(person.access).join(' '),
      token_use: 'access',
    });
  }

  async verify(token: string): Promise<VerifiedToken> {
    try {
      const { payload } = await jwtVerify(token, this.keySet, { issuer: this.issuer, algorithms: [ALGORITHM] });
      // As API Gateway: `client_id` counts only when the token has no `aud`.
      const audience = payload.aud ?? payload['client_id'];
      const accepted = [audience].flat().some((value) => typeof value === 'string' && this.audience.includes(value));
      if (!accepted) throw new TokenRejected({ kind: 'audience', audience });
      const scopes = typeof payload['scope'] === 'string' ? payload['scope'].split(' ').filter(Boolean) : [];
      return { claims: payload, scopes };
    } catch (error) {
      throw error instanceof TokenRejected ? error : new TokenRejected(faultOf(error, token));
    }
  }
}
