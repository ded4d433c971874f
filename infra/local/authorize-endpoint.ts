/**
 * /oauth2/authorize: a person's sign-in, the authorization code flow with PKCE (RFC 6749 section
 * 4.1, RFC 7636), as Cognito's hosted sign-in serves it on AWS. GET shows the sign-in page; its
 * form POSTs the username and password with the request's parameters, and a right pair is answered
 * by a redirect to the client's registered address with a one-time code and the client's `state`.
 * Only the code flow, only public clients, only S256 challenges.
 *
 * A right pair also opens a sign-in session at the issuer (sign-in-sessions.ts): while it lasts, an
 * authorization request is answered with a code at once, without the page, as Cognito's hosted
 * sign-in does; `prompt=none` (OpenID Connect) asks for that or an error, never the page, and
 * `prompt=login` for the page whatever the session. /logout ends the session.
 */
import { S256_CHALLENGE } from './authorization-codes';
import type { LocalIssuer } from './oauth';
import type { PublicClient, SandboxPerson } from './people';
import { authorizeErrorPage, SIGN_IN_PAGE_HEADERS, signInPage } from './sign-in-page';

export interface AuthorizeAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

/** The parameters the sign-in form carries back, in the order it lists them. */
const PARAMETERS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const;

const WRONG_PASSWORD = 'Incorrect username or password.';
const WRONG_PASSWORD_ES = 'Usuario o contraseña incorrectos.';

interface AuthorizeRequest {
  readonly client: PublicClient;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly state: string | undefined;
  readonly parameters: Record<string, string>;
}

type Checked = { readonly request: AuthorizeRequest } | { readonly answer: AuthorizeAnswer };

const page = (status: number, body: string): AuthorizeAnswer => ({ status, headers: SIGN_IN_PAGE_HEADERS, body });

/** A redirect to the client with the code, or with an error, and its state either way. */
function redirect(redirectUri: string, state: string | undefined, result: Record<string, string>): AuthorizeAnswer {
  const location = new URL(redirectUri);
  for (const [name, value] of Object.entries({ ...result, ...(state === undefined ? {} : { state }) })) {
    location.searchParams.set(name, value);
  }
  return { status: 302, headers: { location: location.toString(), 'cache-control': 'no-store' }, body: '' };
}

/**
 * The checks of RFC 6749 4.1.2.1: an unknown client or an unregistered redirect_uri is told to the
 * person (a redirect there could hand a code to anyone); anything else wrong goes back to the client.
 */
function check(issuer: LocalIssuer, source: URLSearchParams): Checked {
  const get = (name: string): string | undefined => source.get(name) ?? undefined;
  const client = issuer.publicClient(get('client_id') ?? '');
  if (!client) return { answer: page(400, authorizeErrorPage('client_id names no client that may sign people in.')) };
  const redirectUri = get('redirect_uri') ?? '';
  if (!client.redirectUris.includes(redirectUri)) {
    return { answer: page(400, authorizeErrorPage('redirect_uri is not an address registered for this client.')) };
  }
  const state = get('state');
  const refuse = (error: string, description: string): Checked => ({
    answer: redirect(redirectUri, state, { error, error_description: description }),
  });
  if (get('response_type') !== 'code') {
    return refuse('unsupported_response_type', 'Only response_type=code (the authorization code flow) is supported');
  }
  const codeChallenge = get('code_challenge');
  if (!codeChallenge) return refuse('invalid_request', 'code_challenge is required (PKCE)');
  if (get('code_challenge_method') !== 'S256') {
    return refuse('invalid_request', 'code_challenge_method must be S256');
  }
  if (!S256_CHALLENGE.test(codeChallenge)) {
    return refuse('invalid_request', 'code_challenge must be the Base64url SHA-256 of the verifier (43 characters)');
  }
  const parameters = Object.fromEntries(
    PARAMETERS.flatMap((name) => {
      const value = get(name);
      return value === undefined ? [] : [[name, value]];
    }),
  );
  return { request: { client, redirectUri, codeChallenge, state, parameters } };
}

/** The redirect with a new code for the person, as a right username and password earn. */
function codeFor(issuer: LocalIssuer, request: AuthorizeRequest, person: SandboxPerson): AuthorizeAnswer {
  const code = issuer.codes.issue({
    clientId: request.client.clientId,
    redirectUri: request.redirectUri,
    codeChallenge: request.codeChallenge,
    person,
  });
  return redirect(request.redirectUri, request.state, { code });
}

export function answerAuthorizeRequest(
  issuer: LocalIssuer,
  method: string,
  query: URLSearchParams,
  contentType: string | undefined,
  body: string,
  cookie?: string,
): AuthorizeAnswer {
  if (method === 'GET') {
    const checked = check(issuer, query);
    if ('answer' in checked) return checked.answer;
    const { request } = checked;
    const prompt = query.get('prompt');
    const person = prompt === 'login' ? undefined : issuer.sessions.personOf(cookie);
    if (person) return codeFor(issuer, request, person);
    if (prompt === 'none') {
      return redirect(request.redirectUri, request.state, {
        error: 'login_required',
        error_description: 'No sign-in session at the issuer: the person signs in',
      });
    }
    return page(200, signInPage({ parameters: request.parameters }));
  }
  if (method !== 'POST') return { status: 405, headers: { allow: 'GET, POST' }, body: '' };
  if (!contentType?.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return page(415, authorizeErrorPage('The sign-in form is sent as application/x-www-form-urlencoded.'));
  }
  const form = new URLSearchParams(body);
  const checked = check(issuer, form);
  if ('answer' in checked) return checked.answer;
  const { request } = checked;
  const username = form.get('username') ?? '';
  const person = issuer.signIn(username, form.get('password') ?? '');
  if (!person)
    return page(
      401,
      signInPage({
        parameters: request.parameters,
        username,
        error: WRONG_PASSWORD,
        errorInSpanish: WRONG_PASSWORD_ES,
      }),
    );
  const answer = codeFor(issuer, request, person);
  return { ...answer, headers: { ...answer.headers, 'set-cookie': issuer.sessions.open(person) } };
}

/**
 * /logout?client_id=…&logout_uri=…, as Cognito's: ends the person's session at the issuer and sends
 * the browser back to the client's page, an address registered for the client only.
 */
export function answerLogoutRequest(issuer: LocalIssuer, query: URLSearchParams, cookie?: string): AuthorizeAnswer {
  const client = issuer.publicClient(query.get('client_id') ?? '');
  const back = query.get('logout_uri') ?? '';
  if (!client || !client.redirectUris.includes(back)) {
    return page(400, authorizeErrorPage('logout_uri is not an address registered for this client_id.'));
  }
  return {
    status: 302,
    headers: { location: back, 'cache-control': 'no-store', 'set-cookie': issuer.sessions.close(cookie) },
    body: '',
  };
}
