import { QuotaExceededError } from '@platform/images';
import type { GatewayDeps } from './deps.js';

/** Refuses early, without queueing work, once the month's quota is used up (the worker re-checks atomically). */
export async function assertUnderQuota(deps: GatewayDeps, accountId: string, compressions: number): Promise<void> {
  if (deps.monthlyQuota <= 0 || compressions <= 0) return;
  const count = await deps.counts.current(accountId);
  if (count + compressions > deps.monthlyQuota) throw new QuotaExceededError(deps.monthlyQuota);
}
