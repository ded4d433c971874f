/** Matches request paths against the route table, as API Gateway does with its route keys. */
import type { HttpMethod, RouteDefinition } from '../../functions/routes';

/** What matching needs of a route: its method and paths (the route table's entries, or any other). */
export type Routable = Pick<RouteDefinition, 'method' | 'paths'>;

export interface MountedRoute<R extends Routable = RouteDefinition> {
  readonly route: R;
  readonly path: string;
  readonly pattern: RegExp;
  readonly parameterNames: readonly string[];
}

export type RouteMatch<R extends Routable = RouteDefinition> =
  | { readonly kind: 'found'; readonly mounted: MountedRoute<R>; readonly pathParameters: Record<string, string> }
  | { readonly kind: 'wrong-method'; readonly allowed: readonly HttpMethod[] }
  | { readonly kind: 'none' };

const escape = (text: string): string => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

export function mountRoutes<R extends Routable>(routes: readonly R[]): MountedRoute<R>[] {
  return routes.flatMap((route) =>
    route.paths.map((path) => {
      const parameterNames: string[] = [];
      const source = path
        .split('/')
        .map((segment) => {
          const parameter = /^\{(\w+)\}$/.exec(segment);
          if (!parameter?.[1]) return escape(segment);
          parameterNames.push(parameter[1]);
          return '([^/]+)';
        })
        .join('/');
      return { route, path, pattern: new RegExp(`^${source}$`), parameterNames };
    }),
  );
}

function decodeParameters(names: readonly string[], match: RegExpExecArray): Record<string, string> | undefined {
  try {
    return Object.fromEntries(names.map((name, index) => [name, decodeURIComponent(match[index + 1] ?? '')]));
  } catch {
    return undefined;
  }
}

export function matchRoute<R extends Routable>(
  mounted: readonly MountedRoute<R>[],
  method: string,
  path: string,
): RouteMatch<R> {
  const allowed: HttpMethod[] = [];
  for (const entry of mounted) {
    const match = entry.pattern.exec(path);
    if (!match) continue;
    if (entry.route.method !== method) {
      allowed.push(entry.route.method);
      continue;
    }
    const pathParameters = decodeParameters(entry.parameterNames, match);
    // A parameter that is not valid percent-encoding names nothing that could exist.
    if (!pathParameters) return { kind: 'none' };
    return { kind: 'found', mounted: entry, pathParameters };
  }
  return allowed.length > 0 ? { kind: 'wrong-method', allowed } : { kind: 'none' };
}
