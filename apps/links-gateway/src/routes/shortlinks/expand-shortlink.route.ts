import { NotFoundError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import { bitlyTime } from '@platform/links';
import type { RouteDeps } from '../../deps.js';
import {
  BitlyError,
  BitlyTime,
  OptionalNullable,
  ShortlinkIdString,
  errorResponses,
  requiredUnlessAlias,
  security,
} from '../../schemas.js';
import { linkFor } from './links.js';

const ShortlinkIdMember = OptionalNullable(ShortlinkIdString);

export function expandShortlinkRoute(app: HttpApp, deps: RouteDeps) {
  app.post(
    '/v4/expand',
    {
      schema: {
        summary: 'The long URL of a short link',
        description: 'An expired link is 410 GONE.',
        tags: ['shortlinks'],
        security,
        // shortlink_id, or bitlink_id as Bitly's clients name it.
        body: Type.Object(
          { shortlink_id: ShortlinkIdMember, bitlink_id: ShortlinkIdMember },
          requiredUnlessAlias('shortlink_id', 'bitlink_id'),
        ),
        response: {
          200: Type.Object({ created_at: BitlyTime, link: Type.String(), id: Type.String(), long_url: Type.String() }),
          ...errorResponses,
          410: BitlyError,
        },
      },
    },
    async (request) => {
      const { link } = await linkFor(deps, request.caller!, (request.body.shortlink_id ?? request.body.bitlink_id)!);
      if (link.expiration_at && link.expiration_at.getTime() <= Date.now())
        throw new NotFoundError('GONE', 'The short link has expired.');
      return {
        created_at: bitlyTime(link.created_at),
        link: `${deps.scheme}://${link._id}`,
        id: link._id,
        long_url: link.long_url,
      };
    },
  );
}
