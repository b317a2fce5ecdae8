import type { MemberRecord } from '@platform/accounts';
import { bitlyTime } from '@platform/links';
import type { RouteDeps } from '../../deps.js';

/** The user of the token, with the profile the links worker keeps (name, default group). */
export async function userJson(deps: RouteDeps, caller: MemberRecord) {
  const profile = await deps.store.getProfile(caller.environment_id, caller._id);
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
