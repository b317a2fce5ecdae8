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
/** How many segments of a route's path are literal: `/teams/me` names a path more exactly than `/teams/:id`. */
function literalSegments(url: string): number {
  return url.split('/').filter((segment) => segment !== '*' && !segment.startsWith(':')).length;
}

export function allowedMethods() {
  const routes = new Map<string, { matcher: RegExp; literals: number; methods: Set<string> }>();
  const shadowsOf = new Map<string, Array<{ matcher: RegExp }>>();
  /** The routes whose path pattern is `url`'s with some parameters written out as literals. */
  const specialisationsOf = (url: string) => {
    const segments = url.split('/');
    return [...routes.entries()]
      .filter(([other]) => {
        const theirs = other.split('/');
        return (
          other !== url &&
          theirs.length === segments.length &&
          segments.every((s, i) => s === theirs[i] || (s.startsWith(':') && !theirs[i]!.startsWith(':')))
        );
      })
      .map(([, entry]) => entry);
  };
  return {
    add(route: Pick<RouteOptions, 'url' | 'method'>) {
      let entry = routes.get(route.url);
      if (!entry)
        routes.set(
          route.url,
          (entry = { matcher: matcherOf(route.url), literals: literalSegments(route.url), methods: new Set() }),
        );
      for (const method of [route.method].flat()) entry.methods.add(method);
    },
    /**
     * The methods a path is served with (empty when no route has it), as its document lists them: where a
     * literal path and a parametric one both match (`/teams/me`, `/teams/:id`), the literal one's.
     */
    /**
     * For a request the router gave to a parametric route (`/teams/:id`): the methods of a more literal route
     * that names the same path (`/teams/me`), when there is one. Its document lists the path with those methods
     * alone, so another method is 405 there, although the router found the parametric route for it.
     */
    shadowing(routeUrl: string, path: string): string[] | undefined {
      let shadows = shadowsOf.get(routeUrl);
      if (!shadows) shadowsOf.set(routeUrl, (shadows = specialisationsOf(routeUrl)));
      if (shadows.length === 0) return undefined;
      const matching = shadows.filter(({ matcher }) => matcher.test(path));
      if (matching.length === 0) return undefined;
      return this.of(path);
    },
    of(path: string): string[] {
      const matching = [...routes.values()].filter(({ matcher }) => matcher.test(path));
      const literals = Math.max(...matching.map((entry) => entry.literals));
      const methods = new Set<string>();
      for (const entry of matching) if (entry.literals === literals) for (const m of entry.methods) methods.add(m);
      return [...methods].sort();
    },
  };
}
