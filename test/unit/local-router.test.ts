/** The local server's route matching over the real route table, as API Gateway matches route keys. */
import { routes, type RouteDefinition } from '../../functions/routes';
import { matchRoute, mountRoutes, type Routable, type RouteMatch } from '../../infra/local/router';

const mounted = mountRoutes(routes);

function foundRoute(match: RouteMatch<Routable & { name: string }>): {
  name: string;
  pathParameters: Record<string, string>;
} {
  if (match.kind !== 'found') throw new Error(`Expected a route, got ${JSON.stringify(match)}`);
  return { name: match.mounted.route.name, pathParameters: match.pathParameters };
}

test('every path of every route is mounted', () => {
  expect(mounted.map((m) => `${m.route.method} ${m.path}`).sort()).toEqual(
    routes.flatMap((r) => r.paths.map((p) => `${r.method} ${p}`)).sort(),
  );
});

test.each(routes.flatMap((r) => r.paths.map((p) => [`${r.method} ${p}`, r, p] as const)))(
  '%s matches its own route',
  (_key, route: RouteDefinition, path: string) => {
    const concrete = path.replace(/\{\w+\}/g, 'value-1');
    expect(foundRoute(matchRoute(mounted, route.method, concrete)).name).toBe(route.name);
  },
);

describe('found', () => {
  test('a literal path has no parameters', () => {
    expect(foundRoute(matchRoute(mounted, 'POST', '/v1/customers/business/link'))).toEqual({
      name: 'linkMerchant',
      pathParameters: {},
    });
  });

  test('a path parameter is captured', () => {
    expect(foundRoute(matchRoute(mounted, 'GET', '/v1/customers/3f1c2b9e-6a4d-4c1e-9a57-0b1f5e7d2c11'))).toEqual({
      name: 'getCustomer',
      pathParameters: { id: '3f1c2b9e-6a4d-4c1e-9a57-0b1f5e7d2c11' },
    });
  });

  test('a path parameter is percent-decoded', () => {
    expect(foundRoute(matchRoute(mounted, 'GET', '/v1/customers/a%20b%2Fc%C3%A9')).pathParameters).toEqual({
      id: 'a b/cé',
    });
  });

  test('the account routes: both link paths, both list paths, one read path', () => {
    expect(foundRoute(matchRoute(mounted, 'POST', '/accounts')).name).toBe('linkAccount');
    expect(foundRoute(matchRoute(mounted, 'POST', '/v1/accounts')).name).toBe('linkAccount');
    expect(foundRoute(matchRoute(mounted, 'GET', '/v1/accounts')).name).toBe('listAccounts');
    expect(foundRoute(matchRoute(mounted, 'GET', '/accounts')).name).toBe('listAccounts');
    expect(foundRoute(matchRoute(mounted, 'GET', '/v1/accounts/abc'))).toEqual({
      name: 'getAccount',
      pathParameters: { id: 'abc' },
    });
  });

  test('the customer list and the status change', () => {
    expect(foundRoute(matchRoute(mounted, 'GET', '/v1/customers')).name).toBe('listCustomers');
    expect(foundRoute(matchRoute(mounted, 'PATCH', '/v1/customers/abc')).name).toBe('updateCustomer');
  });

  test('the sandbox operator route is in the table', () => {
    expect(foundRoute(matchRoute(mounted, 'POST', '/sandbox/sponsor-bank/merchants')).name).toBe(
      'approveSponsorBankMerchant',
    );
  });
});

describe('wrong method', () => {
  test('a known path with another method lists the methods it allows', () => {
    expect(matchRoute(mounted, 'DELETE', '/v1/customers/abc')).toEqual({
      kind: 'wrong-method',
      allowed: ['GET', 'PATCH'],
    });
    expect(matchRoute(mounted, 'DELETE', '/v1/accounts')).toEqual({ kind: 'wrong-method', allowed: ['POST', 'GET'] });
    expect(matchRoute(mounted, 'PUT', '/accounts')).toEqual({ kind: 'wrong-method', allowed: ['POST', 'GET'] });
    expect(matchRoute(mounted, 'GET', '/v1/customers/business/link')).toEqual({
      kind: 'wrong-method',
      allowed: ['POST'],
    });
    expect(matchRoute(mounted, 'PATCH', '/sandbox/sponsor-bank/merchants')).toEqual({
      kind: 'wrong-method',
      allowed: ['POST'],
    });
  });

  test('a POST to a customer id is the wrong method, not the link route', () => {
    expect(matchRoute(mounted, 'POST', '/v1/customers/abc')).toEqual({
      kind: 'wrong-method',
      allowed: ['GET', 'PATCH'],
    });
  });

  test('every method a path serves is listed', () => {
    const twoMethods = mountRoutes([
      { name: 'getThing', method: 'GET', paths: ['/v1/things/{id}'] },
      { name: 'patchThing', method: 'PATCH', paths: ['/v1/things/{id}'] },
    ]);
    expect(matchRoute(twoMethods, 'DELETE', '/v1/things/1')).toEqual({
      kind: 'wrong-method',
      allowed: ['GET', 'PATCH'],
    });
    expect(foundRoute(matchRoute(twoMethods, 'PATCH', '/v1/things/1')).name).toBe('patchThing');
  });
});

describe('no route', () => {
  test.each([
    '/v1/unknown',
    '/',
    '',
    '/v1/customer',
    '/v1/customers/',
    '/v1/accounts/',
    '/v1/accounts/x/y',
    '/accounts/abc',
    '/v1/customers/x/y',
    '/v1/customers/abc/',
    '/v1/customers/business/link/extra',
    '/prefix/v1/customers/abc',
    '/V1/customers/abc',
    '/sandbox/sponsor-bank',
  ])('GET %j matches nothing (no partial matches)', (path) => {
    expect(matchRoute(mounted, 'GET', path)).toEqual({ kind: 'none' });
  });

  test('literal segments are matched literally, not as regular expressions', () => {
    const dotted = mountRoutes([{ name: 'report', method: 'GET', paths: ['/v1/report.csv'] }]);
    expect(matchRoute(dotted, 'GET', '/v1/report.csv').kind).toBe('found');
    expect(matchRoute(dotted, 'GET', '/v1/reportXcsv')).toEqual({ kind: 'none' });
  });
});
