import type { HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, idempotentCreate, security } from '../../schemas.js';
import { createLink } from './create-link.js';
import { ShortenBody, ShortenedLink } from './schemas.js';

export function shortenLinkRoute(app: HttpApp, deps: RouteDeps) {
  app.post(
    '/v4/shorten',
    {
      schema: {
        summary: "Shorten a long URL (the group's existing link for it unless force_new_link)",
        tags: ['shortlinks'],
        security,
        headers: idempotentCreate.headers,
        body: ShortenBody,
        response: { 200: ShortenedLink, 201: ShortenedLink, ...errorResponses, ...idempotentCreate.responses },
      },
    },
    async (request, reply) => {
      const { long_url, domain, group_guid, force_new_link } = request.body;
      const { created, json } = await createLink(deps, request, {
        long_url,
        domain,
        group_guid,
        force_new_link,
      });
      // The whole link goes out; its schema keeps the members a shorten answers with.
      return reply.code(created ? 201 : 200).send(json);
    },
  );
}
