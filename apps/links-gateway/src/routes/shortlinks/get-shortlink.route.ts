import { ref, type HttpApp } from '@platform/http';
import { shortlinkJson } from '@platform/links';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { linkFor, viewOf } from './links.js';
import { Shortlink, shortlinkIdOf, shortlinkPaths } from './schemas.js';

export function getShortlinkRoute(app: HttpApp, deps: RouteDeps) {
  for (const { url, params } of shortlinkPaths) {
    app.get(
      url,
      {
        schema: {
          summary: 'A short link',
          tags: ['shortlinks'],
          security,
          params,
          response: { 200: ref(Shortlink), ...errorResponses },
        },
      },
      async (request) => {
        const { link } = await linkFor(deps, request.caller!, shortlinkIdOf(request.params));
        return shortlinkJson(link, viewOf(deps));
      },
    );
  }
}
