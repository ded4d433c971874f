/**
 * The reliability suites are generated from the route table; this keeps the per-route knowledge they
 * need (test/support/route-samples.ts) in step with it, so that no route goes untested.
 */
import { routes } from '../../functions/routes';
import { ROUTE_SAMPLES } from '../support/route-samples';

describe('route samples', () => {
  it.each(routes.map((route) => [route.name, route]))('%s has an entry', (_, route) => {
    expect(ROUTE_SAMPLES[route.name]).toBeDefined();
  });

  it('has no entry for a route that is not in the table', () => {
    const names = new Set(routes.map((route) => route.name));
    expect(Object.keys(ROUTE_SAMPLES).filter((name) => !names.has(name))).toEqual([]);
  });

  it('marks lists exactly on the GET routes whose path does not end in a resource id (settings and figures aside)', () => {
    // The daily totals answer a period's figures, not a page of items.
    const figures = new Set(['/v1/payment-totals']);
    const lists = routes.filter(
      (route) =>
        route.method === 'GET' &&
        !route.paths[0]!.endsWith('}') &&
        !route.paths[0]!.startsWith('/v1/settings/') &&
        !figures.has(route.paths[0]!),
    );
    const marked = routes.filter((route) => ROUTE_SAMPLES[route.name]?.list);
    expect(marked.map((route) => route.name)).toEqual(lists.map((route) => route.name));
  });
});
