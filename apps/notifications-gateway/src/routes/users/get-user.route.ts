import type { MemberRecord } from '@platform/accounts';
import { Type, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { UserParams } from '../preferences/schemas.js';
import { targetUser } from '../preferences/target-user.js';

const Timestamp = Type.String({ format: 'date-time' });

/**
 * Coder's `codersdk.User`, as far as the platform knows its users: what it does not keep is given the value Coder
 * gives a user without it (no organizations, no avatar), and every time a Go client decodes is a real time.
 */
const User = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    username: Type.String(),
    name: Type.String(),
    email: Type.String({ description: 'Empty when the user has no address.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
    last_seen_at: Timestamp,
    status: Type.Literal('active'),
    login_type: Type.Literal('none', { description: 'Users act through API keys only (Coder’s `none`).' }),
    organization_ids: Type.Array(Type.String({ format: 'uuid' })),
    roles: Type.Array(Type.Object({ name: Type.String(), display_name: Type.String() }), {
      description: 'Site roles: `owner` for a deployment’s owners; members and system users have none (as in Coder).',
    }),
  },
  { description: 'Coder’s codersdk.User.' },
);

function userJson(user: MemberRecord, seenAt: Date) {
  const created = new Date(user.created_at).toISOString();
  return {
    id: user._id,
    username: user.username,
    name: user.name,
    email: user.email ?? '',
    created_at: created,
    updated_at: created,
    last_seen_at: seenAt.toISOString(),
    status: 'active' as const,
    login_type: 'none' as const,
    organization_ids: [],
    roles: user.role === 'owner' ? [{ name: 'owner', display_name: 'Owner' }] : [],
  };
}

/** What Coder's Go SDK asks first (`client.User(ctx, "me")`): the caller, or a user of the caller's deployment. */
export function getUserRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/api/v2/users/:user',
    {
      schema: {
        summary: 'A user (`me`: the caller)',
        description: '`me`, a user id or a user name of the caller’s deployment; a member sees only themselves.',
        tags: ['users'],
        security,
        params: UserParams,
        response: { 200: User, ...errorResponses },
      },
    },
    async (request) => userJson(await targetUser(deps, request.caller!, request.params.user), new Date()),
  );
}
