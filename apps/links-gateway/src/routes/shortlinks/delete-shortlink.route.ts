import { MessageTypeNames } from '@platform/contracts';
import { Type, type HttpApp } from '@platform/http';
import { assertMayEdit } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { linkFor } from './links.js';
import { shortlinkIdOf, shortlinkPaths } from './schemas.js';

export function deleteShortlinkRoute(app: HttpApp, deps: RouteDeps) {
  for (const { url, params } of shortlinkPaths) {
    app.delete(
      url,
      {
        schema: {
          summary: 'Delete a short link (not a custom one: archive it)',
          description: 'A custom short link (with a keyword) is refused with 400 INVALID_ARG_SHORTLINK.',
          tags: ['shortlinks'],
          security,
          params,
          response: {
            200: Type.Object({ links_deleted: Type.Array(Type.Object({ id: Type.String() })) }),
            ...errorResponses,
          },
        },
      },
      async (request) => {
        const caller = request.caller!;
        const { link, access } = await linkFor(deps, caller, shortlinkIdOf(request.params));
        assertMayEdit(access, caller, link);
        const result = await deps.commands.send(MessageTypeNames.DeleteShortlink, link.group_guid, {
          organization_id: caller.environment_id,
          user_id: caller._id,
          id: link._id,
        });
        return { links_deleted: [{ id: result.id }] };
      },
    );
  }
}
