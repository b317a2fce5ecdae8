import { MessageTypeNames } from '@platform/contracts';
import { Type, type HttpApp } from '@platform/http';
import type { RouteDeps } from '../../deps.js';
import { OptionalNullableSaying, errorResponses, security } from '../../schemas.js';
import { User } from './schemas.js';
import { userJson } from './user.js';

const Body = Type.Object({
  name: OptionalNullableSaying(
    Type.String({ maxLength: 200, pattern: '\\S' }),
    'must be a non-blank string of at most 200 characters',
  ),
  default_group_guid: OptionalNullableSaying(
    Type.String({ maxLength: 100, description: 'A group the user is in.' }),
    'must be a string of at most 100 characters',
  ),
});

export function updateUserRoute(app: HttpApp, deps: RouteDeps) {
  app.patch(
    '/v4/user',
    {
      schema: {
        summary: "Set the user's name or default group",
        tags: ['user'],
        security,
        body: Body,
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const name = request.body.name ?? null;
      const defaultGroup = request.body.default_group_guid ?? null;
      // Whether the user is in the default group is the worker's check (a 400 INVALID_ARG_DEFAULT_GROUP_GUID).
      if (name !== null || defaultGroup !== null) {
        await deps.commands.send(MessageTypeNames.UpdateLinksUser, caller._id, {
          organization_id: caller.environment_id,
          user_id: caller._id,
          name,
          default_group_guid: defaultGroup,
        });
      }
      return userJson(deps, caller);
    },
  );
}
