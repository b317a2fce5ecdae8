import { MessageTypeNames } from '@platform/contracts';
import { Type, bodyChecker, deferredBodyValidation, type HttpApp } from '@platform/http';
import { formatShortlinkId, parseShortlinkId } from '@platform/links';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import {
  OptionalNullableSaying,
  ShortlinkIdString,
  errorResponses,
  requiredUnlessAlias,
  security,
} from '../../schemas.js';
import { GroupParams, TagList } from './schemas.js';

const MAX_BULK = 100;

const LinkIds = OptionalNullableSaying(
  Type.Array(ShortlinkIdString, { minItems: 1, maxItems: MAX_BULK }),
  `must be a list of 1 to ${MAX_BULK} short link ids such as sho.rt/abc1234`,
);

const Body = Type.Object(
  {
    action: Type.Union([Type.Literal('archive'), Type.Literal('edit_tags')]),
    links: LinkIds,
    bitlinks: LinkIds, // another name of links
    archive: OptionalNullableSaying(Type.Boolean(), 'must be true or false'),
    add_tags: TagList,
    remove_tags: TagList,
  },
  {
    allOf: [
      requiredUnlessAlias('links', 'bitlinks'),
      // edit_tags changes some tag: add_tags or remove_tags lists one.
      {
        if: { required: ['action'], properties: { action: { const: 'edit_tags' } } },
        then: {
          if: { required: ['remove_tags'], properties: { remove_tags: { type: 'array', minItems: 1 } } },
          else: {
            required: ['add_tags'],
            properties: {
              add_tags: {
                type: 'array',
                minItems: 1,
                errorMessage: 'must list a tag for edit_tags, unless remove_tags does',
              },
            },
          },
        },
      },
    ],
  },
);
const checkBody = bodyChecker(Body);

export function bulkEditShortlinksRoute(app: HttpApp, deps: RouteDeps) {
  const deferred = deferredBodyValidation();
  for (const url of ['/v4/groups/:group_guid/shortlinks', '/v4/groups/:group_guid/bitlinks']) {
    app.patch(
      url,
      {
        // Who may edit the group's links is decided before the body is judged: a stranger learns nothing from a 400.
        validatorCompiler: deferred,
        schema: {
          summary: 'Archive or retag up to 100 links of a group',
          description:
            'Answers the ids now in the asked state; a GROUP_USER edits only their own links, and unknown ids are skipped.',
          tags: ['shortlinks'],
          security,
          params: GroupParams,
          body: Body,
          response: { 200: Type.Object({ links: Type.Array(Type.String()) }), ...errorResponses },
        },
      },
      async (request) => {
        const caller = request.caller!;
        const access = await accessTo(deps, caller, request.params.group_guid);
        checkBody(request.body);
        const body = request.body;
        const ids = (body.links ?? body.bitlinks)!.map((raw) => parseShortlinkId(raw)!);
        const addTags = body.add_tags ?? [];
        const removeTags = body.remove_tags ?? [];
        const result = await deps.commands.send(MessageTypeNames.BulkEditShortlinks, access.group._id, {
          organization_id: caller.environment_id,
          user_id: caller._id,
          group_guid: access.group._id,
          action: body.action,
          archive: body.archive ?? true,
          add_tags: addTags,
          remove_tags: removeTags,
          ids: ids.map(formatShortlinkId),
          own_links_only: access.role === 'GROUP_USER',
        });
        return { links: result.ids };
      },
    );
  }
}
