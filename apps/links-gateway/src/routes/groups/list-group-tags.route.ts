import { Type, type HttpApp } from '@platform/http';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { GroupParams } from './schemas.js';

export function listGroupTagsRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/groups/:group_guid/tags',
    {
      schema: {
        summary: 'The tags used in a group (at most 1000)',
        tags: ['groups'],
        security,
        params: GroupParams,
        querystring: Type.Object({
          type: Type.Optional(
            Type.Union([Type.Literal('shortlink'), Type.Literal('qr_code')], {
              default: 'shortlink',
              description: 'The tags of short links or of QR codes.',
            }),
          ),
        }),
        response: { 200: Type.Object({ tags: Type.Array(Type.String()) }), ...errorResponses },
      },
    },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      return {
        tags:
          request.query.type === 'qr_code'
            ? await deps.store.qrTagsOfGroup(group.organization_id, group._id)
            : await deps.store.tagsOfGroup(group.organization_id, group._id),
      };
    },
  );
}
