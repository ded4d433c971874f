/**
 * The authorization codes of the local issuer's sign-in (RFC 6749 section 4.1 with PKCE, RFC 7636):
 * one per successful sign-in, bound to the client, the redirect_uri and the code challenge it was
 * asked with, good for one minute and for one exchange. A code is spent by its first exchange,
 * whatever the outcome, so that a code that leaked with a wrong guess at its verifier is gone.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { SandboxPerson } from './people';

export const CODE_LIFETIME_MS = 60_000;

/** RFC 7636 section 4.1: 43 to 128 unreserved characters. */
export const CODE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge is the Base64url SHA-256 of the verifier: 43 characters, no padding. */
export const S256_CHALLENGE = /^[A-Za-z0-9\-_]{43}$/;

/** What a code was issued for. */
export interface CodeGrant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly person: SandboxPerson;
}

/** Base64url(SHA-256(verifier)): the challenge a client sends for its verifier (method S256). */
export const s256 = (verifier: string): string => createHash('sha256').update(verifier).digest('base64url');

/** Why an exchange was refused (the token endpoint answers `invalid_grant` with these words). */
export type ExchangeRefusal = 'unknown code' | 'expired code' | 'other client' | 'other redirect_uri' | 'bad verifier';

export class AuthorizationCodes {
  private readonly grants = new Map<string, CodeGrant & { readonly expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  issue(grant: CodeGrant): string {
    this.forgetExpired();
    const code = randomBytes(32).toString('base64url');
    this.grants.set(code, { ...grant, expiresAt: this.now() + CODE_LIFETIME_MS });
    return code;
  }

  /**
   * Spends the code and answers its grant when the exchange names the client, redirect_uri and
   * verifier it was issued for; otherwise why not.
   */
  exchange(
    code: string,
    clientId: string,
    redirectUri: string,
    verifier: string,
  ): { grant: CodeGrant } | { refused: ExchangeRefusal } {
    const stored = this.grants.get(code);
    this.grants.delete(code);
    if (!stored) return { refused: 'unknown code' };
    const { expiresAt, ...grant } = stored;
    if (expiresAt <= this.now()) return { refused: 'expired code' };
    if (grant.clientId !== clientId) return { refused: 'other client' };
    if (grant.redirectUri !== redirectUri) return { refused: 'other redirect_uri' };
    if (!CODE_VERIFIER.test(verifier) || s256(verifier) !== grant.codeChallenge) return { refused: 'bad verifier' };
    return { grant };
  }

  private forgetExpired(): void {
    const now = this.now();
    for (const [code, grant] of this.grants) if (grant.expiresAt <= now) this.grants.delete(code);
  }
}
