/**
 * The local issuer's sign-in sessions, as Cognito's hosted sign-in keeps one in its own cookie: a
 * person who signed in is answered a new code without the password while the session lasts, so a
 * reload of the dashboard (whose token lives in the page's memory only) signs them back in. The
 * cookie is the issuer's (HttpOnly, SameSite=Lax, one origin locally, Path=/): no page script reads
 * it, and another site's page cannot send it with a form POST. It holds a random id; the person is
 * in this process's memory, forgotten by /logout or after SESSION_LIFETIME_MS.
 */
import { randomBytes } from 'node:crypto';
import type { SandboxPerson } from './people';

/** One hour, as Cognito's default for its hosted sign-in session. */
export const SESSION_LIFETIME_MS = 60 * 60 * 1000;
export const SESSION_COOKIE = 'breb_issuer_session';

export class SignInSessions {
  private readonly sessions = new Map<string, { readonly person: SandboxPerson; readonly expiresAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A new session for the person: the Set-Cookie header that hands its id to the browser. */
  open(person: SandboxPerson): string {
    const id = randomBytes(32).toString('base64url');
    const now = this.now();
    for (const [key, session] of this.sessions) if (session.expiresAt <= now) this.sessions.delete(key);
    this.sessions.set(id, { person, expiresAt: now + SESSION_LIFETIME_MS });
    return cookie(id, SESSION_LIFETIME_MS / 1000);
  }

  /** The person of the session the request's Cookie header names, while it lasts. */
  personOf(cookieHeader: string | undefined): SandboxPerson | undefined {
    const id = idOf(cookieHeader);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (!session || session.expiresAt <= this.now()) return undefined;
    return session.person;
  }

  /** Ends the session the Cookie header names: the Set-Cookie header that clears it. */
  close(cookieHeader: string | undefined): string {
    const id = idOf(cookieHeader);
    if (id !== undefined) this.sessions.delete(id);
    return cookie('', 0);
  }
}

/** Path=/ so that /logout receives it too; the dashboard's scripts cannot read an HttpOnly cookie. */
const cookie = (value: string, maxAgeSeconds: number): string =>
  `${SESSION_COOKIE}=${value}; Path=/; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax`;

function idOf(cookieHeader: string | undefined): string | undefined {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SESSION_COOKIE && value.join('=')) return value.join('=');
  }
  return undefined;
}
