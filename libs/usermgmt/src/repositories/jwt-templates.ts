import { changeWithEvents, outboxEvent } from '@platform/mongo';
import { MessageTypeNames } from '@platform/contracts';
import type { JwtTemplateDoc, UsermgmtModels } from '../models.js';

export function jwtTemplatesRepository(models: UsermgmtModels) {
  const { JwtTemplate } = models;
  return {
    /** Upsert of the environment's one template; replaying the same content changes nothing visible. */
    async put(input: { environmentId: string; content: string }, now = new Date()): Promise<JwtTemplateDoc> {
      const doc = await JwtTemplate.findOneAndUpdate(
        { _id: input.environmentId },
        changeWithEvents(
          { content: input.content, updated_at: now },
          [
            outboxEvent(MessageTypeNames.JwtTemplateUpdated, input.environmentId, {
              environment_id: input.environmentId,
              updated_at: now.getTime(),
            }),
          ],
          { $setOnInsert: { created_at: now } },
        ),
        { upsert: true, new: true },
      ).lean<JwtTemplateDoc>();
      return doc!;
    },
    async get(environmentId: string): Promise<JwtTemplateDoc | null> {
      return JwtTemplate.findById(environmentId).lean<JwtTemplateDoc>();
    },
  };
}
