import type { RouteOptions } from 'fastify';

/** A route's path pattern as a matcher of concrete paths (`:param` one segment, `*` the rest). */
function matcherOf(url: string): RegExp {
  const pattern = url
    .split('/')
    .map((segment) =>
      segment === '*' ? '.*' : segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${pattern}/?$`);
}

/**
 * The methods each known path is served with, so that a request for a known path with another method is
 * answered 405 with `Allow` (RFC 9110 §15.5.6) rather than 404.
 */
export function allowedMethods() {
  const routes = new Map<string, { matcher: RegExp; methods: Set<string> }>();
  return {
    add(route: Pick<RouteOptions, 'url' | 'method'>) {
      let entry = routes.get(route.url);
      if (!entry) routes.set(route.url, (entry = { matcher: matcherOf(route.url), methods: new Set() }));
      for (const method of [route.method].flat()) entry.methods.add(method);
    },
    /** The methods a path is served with (empty when no route has it). */
    of(path: string): string[] {
      const methods = new Set<string>();
      for (const { matcher, methods: served } of routes.values())
        if (matcher.test(path)) for (const m of served) methods.add(m);
      return [...methods].sort();
    },
  };
}
