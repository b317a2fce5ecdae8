import type { NotificationsModels, PreferenceDoc } from '../models.js';

const preferenceId = (deploymentId: string, userId: string, templateId: string) =>
  `${deploymentId}:${userId}:${templateId}`;

/** A user's per-template preferences: deployment and user first. */
export function preferencesRepository(models: NotificationsModels) {
  const { Preference } = models;
  return {
    async list(deploymentId: string, userId: string): Promise<PreferenceDoc[]> {
      return Preference.find({ deployment_id: deploymentId, user_id: userId })
        .sort({ template_id: 1 })
        .lean<PreferenceDoc[]>();
    },
    async disabledTemplate(deploymentId: string, userId: string, templateId: string): Promise<boolean | null> {
      const doc = await Preference.findById(preferenceId(deploymentId, userId, templateId)).lean<PreferenceDoc>();
      return doc ? doc.disabled : null;
    },
    writes: {
      async set(deploymentId: string, userId: string, changes: Record<string, boolean>, at: Date): Promise<void> {
        await Promise.all(
          Object.entries(changes).map(([templateId, disabled]) =>
            Preference.updateOne(
              { _id: preferenceId(deploymentId, userId, templateId) },
              {
                $set: {
                  deployment_id: deploymentId,
                  user_id: userId,
                  template_id: templateId,
                  disabled,
                  updated_at: at,
                },
              },
              { upsert: true },
            ),
          ),
        );
      },
    },
  };
}
