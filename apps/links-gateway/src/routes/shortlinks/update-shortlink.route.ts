import { MessageTypeNames } from '@platform/contracts';
import { Type, bodyChecker, deferredBodyValidation, ref, type HttpApp } from '@platform/http';
import { shortlinkJson, type LinkDoc } from '@platform/links';
import { assertMayEdit } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { OptionalNullableSaying, errorResponses, security } from '../../schemas.js';
import { expirationOf, linkFor, longUrlOf, viewOf } from './links.js';
import { ExpirationAt, Shortlink, TagList, Title, shortlinkIdOf, shortlinkPaths } from './schemas.js';

/** Each member absent or null leaves that field as it is; expiration_at null or empty clears it. */
const Body = Type.Object({
  title: Title,
  archived: OptionalNullableSaying(Type.Boolean(), 'must be true or false'),
  tags: TagList,
  long_url: OptionalNullableSaying(Type.String(), 'must be a string'),
  expiration_at: ExpirationAt,
});
const checkBody = bodyChecker(Body);

export function updateShortlinkRoute(app: HttpApp, deps: RouteDeps) {
  const deferred = deferredBodyValidation();
  for (const { url, params } of shortlinkPaths) {
    app.patch(
      url,
      {
        // Who may edit the link is decided before the body is judged: a stranger learns nothing from a 400.
        validatorCompiler: deferred,
        schema: {
          summary: 'Edit a short link: title, archived, tags, long_url, expiration_at',
          tags: ['shortlinks'],
          security,
          params,
          body: Body,
          response: { 200: ref(Shortlink), ...errorResponses },
        },
      },
      async (request) => {
        const caller = request.caller!;
        const { link, access } = await linkFor(deps, caller, shortlinkIdOf(request.params));
        assertMayEdit(access, caller, link);
        checkBody(request.body);
        const body = request.body;
        const longUrl = typeof body.long_url === 'string' ? await longUrlOf(deps, body.long_url) : null;
        const expiration = expirationOf(body.expiration_at);
        const result = await deps.commands.send(MessageTypeNames.UpdateShortlink, link.group_guid, {
          organization_id: caller.environment_id,
          user_id: caller._id,
          id: link._id,
          title: body.title ?? null,
          archived: body.archived ?? null,
          tags: body.tags ?? null,
          long_url: longUrl,
          expiration_at: expiration.at,
          clear_expiration: expiration.clear,
        });
        return shortlinkJson(result.link as LinkDoc, viewOf(deps));
      },
    );
  }
}
