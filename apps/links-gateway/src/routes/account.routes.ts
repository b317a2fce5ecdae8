import type { HttpApp } from '@platform/http';
import { bitlyTime, type GroupDoc } from '@platform/links';
import { accessTo } from '../access.js';
import type { GatewayDeps } from '../deps.js';

export function accountRoutes(app: HttpApp, deps: GatewayDeps) {
  const groupJson = (group: GroupDoc, userId: string) => ({
    references: { organization: `${deps.publicBaseUrl}/v4/organizations/${group.organization_id}` },
    name: group.name,
    guid: group._id,
    created: bitlyTime(group.created_at),
    modified: bitlyTime(group.modified_at),
    is_active: group.is_active,
    role: group.members.find((m) => m.user_id === userId)?.role ?? '',
    organization_guid: group.organization_id,
    bsds: group.bsds,
  });

  app.get('/v4/user', { schema: { summary: 'The user of the token', tags: ['user'] } }, async (request) => {
    const caller = request.caller!;
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
  });

  app.get<{ Querystring: { organization_guid?: string } }>('/v4/groups', { schema: { summary: "The user's groups", tags: ['groups'] } }, async (request) => {
    const caller = request.caller!;
    const groups = (await deps.store.groupsOfUser(caller._id)).filter(
      (g) => g.organization_id === caller.environment_id && (!request.query.organization_guid || g.organization_id === request.query.organization_guid),
    );
    return { groups: groups.map((g) => groupJson(g, caller._id)) };
  });

  app.get<{ Params: { group_guid: string } }>('/v4/groups/:group_guid', { schema: { summary: 'A group', tags: ['groups'] } }, async (request) => {
    const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
    return groupJson(group, request.caller!._id);
  });

  app.get('/v4/bsds', { schema: { summary: "The organization's branded short domains", tags: ['bsds'] } }, async (request) => ({
    bsds: (await deps.store.domainsOfOrganization(request.caller!.environment_id)).map((d) => d._id),
  }));
}
