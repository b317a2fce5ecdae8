import type { Accounts, MemberRecord, Members } from '@platform/accounts';

/**
 * The deployment that holds the users the platform notifies about their things elsewhere (an OAuth client's
 * owner, an image account) when no user of another deployment is linked to them. Its users get keys with
 * `cli keys create notifications --link <kind>:<id>`.
 */
export const PLATFORM_DEPLOYMENT_ID = 'environment_platform_notices';

export interface RecipientDeps {
  accounts: Accounts;
  members: Members;
}

/**
 * The users linked to `link`: those a deployment linked itself, or else (made on first use) the platform
 * deployment's user for it.
 */
export async function recipientsFor(deps: RecipientDeps, link: string, fallback: { email: string | null; name: string }): Promise<MemberRecord[]> {
  const linked = await deps.members.linkedTo(link);
  const own = linked.filter((m) => m.environment_id !== PLATFORM_DEPLOYMENT_ID);
  if (own.length > 0) return own;
  const platform = linked.find((m) => m.environment_id === PLATFORM_DEPLOYMENT_ID);
  if (platform) return [platform];
  await deps.accounts.ensureEnvironment(PLATFORM_DEPLOYMENT_ID, 'notifications', 'platform notices');
  return [await deps.members.ensureLinked(PLATFORM_DEPLOYMENT_ID, link, fallback)];
}
