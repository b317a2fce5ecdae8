import { changeWithEvents, isDuplicateKeyError, type StoredOutboxEntry } from '@platform/mongo';
import type { NotificationsModels, SettingsDoc } from '../models.js';

/** A deployment's notification settings (`_id`: the deployment). */
export function settingsRepository(models: NotificationsModels) {
  const { Settings } = models;
  return {
    async get(deploymentId: string): Promise<{ notifier_paused: boolean }> {
      const doc = await Settings.findById(deploymentId).lean<SettingsDoc>();
      return { notifier_paused: doc?.notifier_paused ?? false };
    },
    /** Which of these deployments are paused. */
    async pausedAmong(deploymentIds: string[]): Promise<Set<string>> {
      const docs = await Settings.find({ _id: { $in: deploymentIds }, notifier_paused: true }, { _id: 1 }).lean<
        Array<{ _id: string }>
      >();
      return new Set(docs.map((d) => d._id));
    },
    writes: {
      source: Settings.collection.collectionName,
      /** Sets the deployment's pause flag with its events; false when it already had that value. */
      async setPaused(deploymentId: string, paused: boolean, at: Date, events: StoredOutboxEntry[]): Promise<boolean> {
        try {
          const result = await Settings.updateOne(
            { _id: deploymentId, notifier_paused: { $ne: paused } },
            changeWithEvents({ notifier_paused: paused, updated_at: at }, events),
            { upsert: true },
          );
          return result.modifiedCount + result.upsertedCount > 0;
        } catch (error) {
          if (isDuplicateKeyError(error)) return false; // the document exists with that value already
          throw error;
        }
      },
    },
  };
}
