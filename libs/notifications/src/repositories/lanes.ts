import { isDuplicateKeyError } from '@platform/mongo';
import type { NotificationsModels } from '../models.js';

/** Leases on lanes: which notifier process sends a user's notifications. */
export function lanesRepository(models: NotificationsModels) {
  const { Lane } = models;
  return {
    /**
     * Takes (or renews) the lease on a lane for `ms`; false when another process holds it. Leases expire, so a
     * process that dies holding one delays its lane by at most one lease.
     */
    async lease(lane: string, holder: string, ms: number, now = new Date()): Promise<boolean> {
      try {
        const result = await Lane.updateOne(
          { _id: lane, $or: [{ holder }, { lease_until: { $lt: now } }] },
          { $set: { holder, lease_until: new Date(now.getTime() + ms) } },
          { upsert: true },
        );
        return result.modifiedCount + result.upsertedCount > 0 || result.matchedCount > 0;
      } catch (error) {
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },
    async release(lane: string, holder: string): Promise<void> {
      await Lane.deleteOne({ _id: lane, holder });
    },
  };
}
