/**
 * The local edge (infra/local/edge-guard.ts), on a clock of its own: each address spends its own
 * bucket, refilled over the web ACL's 5-minute window; a tokenless request to the API's protected
 * paths (no `Bearer <JWT>` in its Authorization header) is refused after it is counted (the web ACL's rate rule comes before its tokenless rule);
 * the public description is no protected path.
 */
import { contractRoutes } from '../../functions/contract';
import { networkRoutes, routesFor } from '../../functions/routes';
import { BEARER_JWT_PATTERN, hasBearerJwt, isProtected, protectedPaths } from '../../infra/edge-rules';
import { EdgeGuard } from '../../infra/local/edge-guard';

const paths = protectedPaths(routesFor(true));

/** A header with a token's shape (its signature is the authorizer's business, not the edge's). */
const TOKEN = 'Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl';

test('the protected paths: /v1/, /sandbox/ and the unversioned /accounts; not the description nor /network/', () => {
  expect(paths).toEqual([{ exact: '/accounts' }, { prefix: '/sandbox/' }, { prefix: '/v1/' }]);
  for (const path of ['/v1/customers', '/v1/keys/x/resolve', '/sandbox/qr-codes/x/pay', '/accounts']) {
    expect([path, isProtected(paths, path)]).toEqual([path, true]);
  }
  // The network connector's routes carry a signature, never a token.
  const network = networkRoutes.flatMap((route) => route.paths);
  for (const path of [...contractRoutes.paths, ...network, '/dashboard/', '/accounts/x', '/v1']) {
    expect([path, isProtected(paths, path)]).toEqual([path, false]);
  }
});

test('each address has its own bucket: one past its limit is refused, another is not; it refills over 5 minutes', () => {
  let now = 0;
  const guard = new EdgeGuard({ requestsPerIpPer5Minutes: 3 }, paths, () => now);
  const from = (address: string) => guard.check(address, '/v1/customers', TOKEN);
  for (let i = 0; i < 3; i += 1) expect(from('203.0.113.7')).toEqual({ refused: false });
  expect(from('203.0.113.7')).toEqual({ refused: 'perIpRate', retryAfterSeconds: 100 });
  expect(from('198.51.100.2')).toEqual({ refused: false });
  now += 100_000;
  expect(from('203.0.113.7')).toEqual({ refused: false });
});

test('a tokenless request to the API is refused, and counted: a tokenless flood spends its own address only', () => {
  const guard = new EdgeGuard({ requestsPerIpPer5Minutes: 2 }, paths, () => 0);
  expect(guard.check('203.0.113.7', '/v1/customers', undefined)).toEqual({ refused: 'tokenless' });
  expect(guard.check('203.0.113.7', '/openapi.json', undefined)).toEqual({ refused: false });
  expect(guard.check('203.0.113.7', '/v1/customers', TOKEN)).toMatchObject({ refused: 'perIpRate' });
  expect(guard.check('198.51.100.2', '/v1/customers', TOKEN)).toEqual({ refused: false });
});

test('a token is `Bearer` and a JWT: anything else in the header is tokenless to the edge', () => {
  const guard = new EdgeGuard({ requestsPerIpPer5Minutes: 1_000 }, paths, () => 0);
  const at = (authorization: string | undefined) => guard.check('203.0.113.7', '/v1/customers', authorization);
  for (const shaped of [TOKEN, 'bearer a.b.c', 'BEARER  a-_0.b_-1.c-_2'])
    expect(at(shaped)).toEqual({ refused: false });
  for (const unshaped of [
    '',
    'x',
    'Bearer',
    'Bearer ',
    'Bearer x',
    'Bearer a.b',
    'Bearer a.b.',
    'Bearer a.b.c.d',
    'Bearer a.b.c x',
    'Basic dXNlcjpwYXNz',
    'a.b.c',
    'Bearer a.b=.c',
  ]) {
    expect([unshaped, at(unshaped)]).toEqual([unshaped, { refused: 'tokenless' }]);
  }
  // Both edges read one expression: WAF's regex match and this model.
  expect(hasBearerJwt(TOKEN)).toBe(new RegExp(BEARER_JWT_PATTERN).test(TOKEN));
});
