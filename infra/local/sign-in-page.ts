/**
 * The local issuer's sign-in page (what Cognito's hosted sign-in is on AWS): a form with the fields
 * Username and Password and a Sign in button, which posts back to /oauth2/authorize with the
 * request's parameters, and the page that says a request cannot be answered at all. The dashboard's
 * staff are in Colombia: the Spanish words stand beside the English ones (`lang="es"`), outside the
 * labels and the button, so the fields' and the button's names stay Username, Password and Sign in.
 */
import { createHash } from 'node:crypto';

const STYLE = `
body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #f3f5f8; color: #1b1f24; }
main { max-width: 22rem; margin: 4rem auto; background: #fff; padding: 2rem; border-radius: 8px;
  box-shadow: 0 1px 4px rgba(0, 0, 0, .15); }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
p { margin: 0 0 1rem; color: #4a5360; }
label { font-weight: 600; }
.name { display: flex; justify-content: space-between; gap: .5rem; margin-top: 1rem; }
.es { color: #4a5360; }
.submit { display: flex; align-items: center; gap: 1rem; margin-top: 1.5rem; }
input { display: block; width: 100%; box-sizing: border-box; font: inherit; padding: .5rem; margin-top: .25rem;
  border: 1px solid #6b7685; border-radius: 4px; }
input:focus, button:focus { outline: 3px solid #1f6feb; outline-offset: 2px; }
button { flex: 1; font: inherit; font-weight: 600; padding: .6rem; border: 0;
  border-radius: 4px; background: #0b5cad; color: #fff; cursor: pointer; }
.error { color: #a40e26; font-weight: 600; }
`;

/** The page's only style, allowed by its hash: the page runs no script and loads nothing. */
export const SIGN_IN_PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  'content-security-policy':
    `default-src 'none'; style-src 'sha256-${createHash('sha256').update(STYLE).digest('base64')}'; ` +
    "form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const page = (title: string, content: string): string =>
  `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head>
<body><main>
${content}
</main></body>
</html>
`;

export interface SignInForm {
  /** The authorization request's parameters, sent back with the form. */
  readonly parameters: Readonly<Record<string, string>>;
  readonly username?: string;
  /** Why the last attempt failed, and the same in Spanish. */
  readonly error?: string;
  readonly errorInSpanish?: string;
}

export function signInPage({ parameters, username = '', error, errorInSpanish }: SignInForm): string {
  const hidden = Object.entries(parameters)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('\n');
  return page(
    'Sign in - Bre-B merchant dashboard',
    `<h1>Sign in <span class="es" lang="es">· Ingresar</span></h1>
<p>Bre-B merchant dashboard, local sandbox · <span lang="es">Panel de comercios Bre-B, entorno local de pruebas</span></p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}${errorInSpanish ? ` <span lang="es">${escapeHtml(errorInSpanish)}</span>` : ''}</p>` : ''}
<form method="post" action="/oauth2/authorize">
${hidden}
<div class="name"><label for="username">Username</label> <span class="es" lang="es">Usuario</span></div>
<input id="username" name="username" autocomplete="username" required value="${escapeHtml(username)}"${
      username ? '' : ' autofocus'
    }>
<div class="name"><label for="password">Password</label> <span class="es" lang="es">Contraseña</span></div>
<input id="password" name="password" type="password" autocomplete="current-password" required${
      username ? ' autofocus' : ''
    }>
<div class="submit"><button type="submit">Sign in</button> <span class="es" lang="es">Ingresar</span></div>
</form>`,
  );
}

/** A request that names no registered client or return address: nothing to redirect to (RFC 6749 4.1.2.1). */
export function authorizeErrorPage(detail: string): string {
  return page(
    'Sign-in request refused - Bre-B merchant dashboard',
    `<h1>This sign-in request cannot be answered</h1>\n<p class="error" role="alert">${escapeHtml(detail)}</p>`,
  );
}
