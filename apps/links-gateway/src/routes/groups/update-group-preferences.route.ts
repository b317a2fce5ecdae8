import { Type, bodyChecker, deferredBodyValidation, type HttpApp } from '@platform/http';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { OptionalNullableSaying, errorResponses, security } from '../../schemas.js';
import { adminOnly, invalid, preferencesJson, updateGroup } from './group.js';
import { GroupParams, GroupPreferences } from './schemas.js';

const Body = Type.Object({
  group_guid: OptionalNullableSaying(Type.String({ maxLength: 100 }), 'must be the group of the path'),
  domain_preference: Type.String({
    minLength: 1,
    maxLength: 64,
    description: 'The default short domain or a branded domain of the group.',
    errorMessage: 'is a domain of at most 64 characters',
  }),
});
const checkBody = bodyChecker(Body);

export function updateGroupPreferencesRoute(app: HttpApp, deps: RouteDeps) {
  app.patch(
    '/v4/groups/:group_guid/preferences',
    {
      // Who may change the group is decided before the body is judged: a stranger learns nothing from a 400.
      validatorCompiler: deferredBodyValidation(),
      schema: {
        summary: "Set a group's preferred domain (admins)",
        tags: ['groups'],
        security,
        params: GroupParams,
        body: Body,
        response: { 200: GroupPreferences, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const access = await accessTo(deps, caller, request.params.group_guid);
      adminOnly(access);
      checkBody(request.body);
      const { group_guid, domain_preference } = request.body;
      if ((group_guid ?? access.group._id) !== access.group._id)
        throw invalid('group_guid', 'group_guid must be the group of the path');
      // Whether the group may use the domain is the worker's check (against the group as it is then).
      const group = await updateGroup(deps, caller, access.group, {
        domain_preference: domain_preference.toLowerCase(),
      });
      return preferencesJson(deps, group);
    },
  );
}
