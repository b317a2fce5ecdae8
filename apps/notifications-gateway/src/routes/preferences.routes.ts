import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotAllowedError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { TEMPLATES, preferenceJson } from '@platform/notifications';
import type { GatewayDeps } from '../deps.js';
import { UUID, invalidBody, isObject } from '../validation.js';

/** `me`, a user id or a user name, in the caller's deployment; a member sees only their own, an owner anyone's. */
async function targetUser(deps: GatewayDeps, caller: MemberRecord, raw: string): Promise<MemberRecord> {
  const user = raw === 'me' ? caller : await deps.members.find(caller.environment_id, raw);
  if (!user) {
    throw new InputError('unknown_user', '"user" must be an existing uuid or username.', {
      issues: [{ field: 'user', code: 'unknown_user', message: `queried user="${raw}"` }],
    });
  }
  if (user._id !== caller._id && caller.role !== 'owner') throw new NotAllowedError('forbidden', 'Forbidden.');
  return user;
}

export function preferenceRoutes(app: HttpApp, deps: GatewayDeps) {
  app.get<{ Params: { user: string } }>(
    '/api/v2/users/:user/notifications/preferences',
    { schema: { summary: "A user's notification preferences", tags: ['preferences'] } },
    async (request) => {
      const user = await targetUser(deps, request.caller!, request.params.user);
      return (await deps.store.preferences(user.environment_id, user._id)).map(preferenceJson);
    },
  );

  app.put<{ Params: { user: string } }>(
    '/api/v2/users/:user/notifications/preferences',
    { schema: { summary: 'Disable or enable templates for a user', tags: ['preferences'] } },
    async (request) => {
      const user = await targetUser(deps, request.caller!, request.params.user);
      const body: unknown = request.body;
      const map = isObject(body) ? body['template_disabled_map'] : undefined;
      if (!isObject(map))
        throw invalidBody([
          { field: 'template_disabled_map', detail: 'an object of template ids to true or false is required' },
        ]);
      const problems: Array<{ field: string; detail: string }> = [];
      const changes: Record<string, boolean> = {};
      for (const [id, disabled] of Object.entries(map)) {
        const field = `template_disabled_map.${id}`;
        if (!UUID.test(id)) problems.push({ field, detail: 'Unable to parse notification template UUID.' });
        else if (!TEMPLATES.some((t) => t.id === id.toLowerCase()))
          problems.push({ field, detail: 'There is no notification template with this id.' });
        else if (typeof disabled !== 'boolean') problems.push({ field, detail: 'must be true or false' });
        else changes[id.toLowerCase()] = disabled;
      }
      if (problems.length > 0) throw invalidBody(problems);
      return deps.commands.send(MessageTypeNames.UpdateNotificationPreferences, user._id, {
        deployment_id: user.environment_id,
        user_id: user._id,
        template_disabled_map: changes,
      });
    },
  );
}
