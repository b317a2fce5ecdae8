import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import type { HttpApp } from '@platform/http';
import { bitlyTime } from '@platform/links';
import { bodyOf, invalid, stringField } from '../body.js';
import type { GatewayDeps } from '../deps.js';
import type { PlatformLimits } from '../platform-limits.js';

export function accountRoutes(app: HttpApp, deps: GatewayDeps & { platformLimits: PlatformLimits }) {
  async function userJson(caller: MemberRecord) {
    const profile = await deps.store.getProfile(caller._id);
    return {
      login: caller.username,
      name: profile?.name ?? caller.name,
      is_active: true,
      created: bitlyTime(caller.created_at),
      modified: bitlyTime(profile?.modified_at ?? caller.created_at),
      is_sso_user: false,
      is_2fa_enabled: false,
      default_group_guid: profile?.default_group_guid ?? '',
      emails: caller.email ? [{ email: caller.email, is_primary: true, is_verified: false }] : [],
    };
  }

  app.get('/v4/user', { schema: { summary: 'The user of the token', tags: ['user'] } }, async (request) =>
    userJson(request.caller!),
  );

  app.patch(
    '/v4/user',
    { schema: { summary: "Set the user's name or default group", tags: ['user'] } },
    async (request) => {
      const caller = request.caller!;
      const body = bodyOf(request);
      const name = stringField(body, 'name', 200);
      const defaultGroup = stringField(body, 'default_group_guid', 100);
      if (name !== null && name.trim() === '') throw invalid('name', 'name must not be empty');
      if (name !== null || defaultGroup !== null) {
        await deps.commands.send(MessageTypeNames.UpdateLinksUser, caller._id, {
          organization_id: caller.environment_id,
          user_id: caller._id,
          name,
          default_group_guid: defaultGroup,
        });
      }
      return userJson(caller);
    },
  );

  app.get<{ Querystring: { path?: string } }>(
    '/v4/user/platform_limits',
    {
      schema: {
        summary: "The organization's hourly limit and this hour's count per endpoint and method",
        tags: ['user'],
      },
    },
    async (request) => {
      const path = request.query.path;
      if (path !== undefined && (typeof path !== 'string' || path.length > 300 || !path.startsWith('/')))
        throw invalid('path', 'path is an API path such as /v4/shorten');
      return { platform_limits: await deps.platformLimits.report(request.caller!.environment_id, path || undefined) };
    },
  );

  app.get(
    '/v4/bsds',
    { schema: { summary: "The organization's branded short domains", tags: ['bsds'] } },
    async (request) => ({
      bsds: (await deps.store.domainsOfOrganization(request.caller!.environment_id)).map((d) => d._id),
    }),
  );
}
