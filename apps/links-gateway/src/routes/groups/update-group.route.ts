import { Type, bodyChecker, deferredBodyValidation, type HttpApp } from '@platform/http';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { OptionalNullableSaying, errorResponses, security } from '../../schemas.js';
import { adminOnly, groupJson, invalid, updateGroup } from './group.js';
import { Group, GroupParams } from './schemas.js';

const Body = Type.Object({
  name: OptionalNullableSaying(
    Type.String({ maxLength: 100, pattern: '\\S' }),
    'must be a non-blank string of at most 100 characters',
  ),
  organization_guid: OptionalNullableSaying(
    Type.String({ maxLength: 100 }),
    'must be the organization of the group (a group cannot move)',
  ),
  bsds: OptionalNullableSaying(
    Type.Array(Type.String({ minLength: 1, maxLength: 32 }), { maxItems: 100 }),
    'is a list of at most 100 branded domains (strings of 1 to 32 characters)',
  ),
});
const checkBody = bodyChecker(Body);

export function updateGroupRoute(app: HttpApp, deps: RouteDeps) {
  app.patch(
    '/v4/groups/:group_guid',
    {
      // Who may change the group is decided before the body is judged: a stranger learns nothing from a 400.
      validatorCompiler: deferredBodyValidation(),
      schema: {
        summary: 'Rename a group or set its branded domains (admins)',
        tags: ['groups'],
        security,
        params: GroupParams,
        body: Body,
        response: { 200: Group, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const access = await accessTo(deps, caller, request.params.group_guid);
      adminOnly(access);
      checkBody(request.body);
      const { name, organization_guid, bsds } = request.body;
      if ((organization_guid ?? access.group.organization_id) !== access.group.organization_id)
        throw invalid('organization_guid', 'A group cannot move to another organization.');
      return groupJson(deps, await updateGroup(deps, caller, access.group, { name, bsds }), caller._id);
    },
  );
}
