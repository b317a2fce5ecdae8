import type { Accounts, MemberRecord, Members } from '@platform/accounts';
import { PLATFORM_NOTICES_DEPLOYMENT as PLATFORM_DEPLOYMENT_ID } from '@platform/notifications';

export interface RecipientDeps {
  accounts: Accounts;
  members: Members;
}

/**
 * The users linked to `link`: those a deployment linked itself, or else (made on first use) the platform
 * notices deployment's user for it (who gets a key with `cli keys create notifications --link <link>`).
 */
export async function recipientsFor(
  deps: RecipientDeps,
  link: string,
  fallback: { email: string | null; name: string },
): Promise<MemberRecord[]> {
  const linked = await deps.members.linkedTo(link);
  const own = linked.filter((m) => m.environment_id !== PLATFORM_DEPLOYMENT_ID);
  if (own.length > 0) return own;
  const platform = linked.find((m) => m.environment_id === PLATFORM_DEPLOYMENT_ID);
  if (platform) return [platform];
  await deps.accounts.ensureEnvironment(PLATFORM_DEPLOYMENT_ID, 'notifications', 'platform notices');
  return [await deps.members.ensureLinked(PLATFORM_DEPLOYMENT_ID, link, fallback)];
}
