import { Type, ref, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { BitlyError, errorResponses, idempotentCreate, OptionalNullableSaying, security } from '../../schemas.js';
import { createLink } from './create-link.js';
import { DeeplinkInput, ExpirationAt, ShortenBody, Shortlink, TagList, Title } from './schemas.js';

const Body = Type.Object({
  ...ShortenBody.properties,
  keyword: OptionalNullableSaying(
    Type.String({ minLength: 1, maxLength: 100 }),
    'must be a string of 1 to 100 characters',
  ),
  title: Title,
  tags: TagList,
  deeplinks: OptionalNullableSaying(
    Type.Array(DeeplinkInput, { maxItems: 10 }),
    'must be a list of at most 10 objects whose members are strings of at most 2048 characters',
  ),
  expiration_at: ExpirationAt,
});

export function createShortlinkRoute(app: HttpApp, deps: RouteDeps) {
  for (const url of ['/v4/shortlinks', '/v4/bitlinks']) {
    app.post(
      url,
      {
        schema: {
          summary: 'Create a short link with title, tags, deeplinks, expiry or a keyword',
          description:
            "Without a keyword: the group's existing link for the long URL (200) unless force_new_link. 409 KEYWORD_UNAVAILABLE: the keyword is taken.",
          tags: ['shortlinks'],
          security,
          headers: idempotentCreate.headers,
          body: Body,
          response: {
            200: ref(Shortlink),
            201: ref(Shortlink),
            ...errorResponses,
            ...idempotentCreate.responses,
            409: BitlyError,
          },
        },
      },
      async (request, reply) => {
        const { created, json } = await createLink(deps, request, request.body);
        return reply.code(created ? 201 : 200).send(json);
      },
    );
  }
}
