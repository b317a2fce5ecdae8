import { ConflictError } from '@platform/errors';
import { insertValidated, isDuplicateKeyError, outboxEvent, withEvents } from '@platform/mongo';
import { MessageTypeNames } from '@platform/contracts';
import type { UsermgmtModels, CorsOriginDoc } from '../models.js';

export function corsOriginsRepository(models: UsermgmtModels) {
  const { CorsOrigin } = models;
  return {
    /** Idempotent: replaying the same id returns the origin created the first time. */
    async create(
      input: { environmentId: string; id: string; origin: string },
      now = new Date(),
    ): Promise<CorsOriginDoc> {
      const events = [
        outboxEvent(MessageTypeNames.CorsOriginCreated, input.environmentId, {
          environment_id: input.environmentId,
          cors_origin_id: input.id,
          origin: input.origin,
          created_at: now.getTime(),
        }),
      ];
      const doc: CorsOriginDoc = withEvents(
        {
          _id: input.id,
          environment_id: input.environmentId,
          origin: input.origin,
          created_at: now,
          updated_at: now,
        },
        events,
      );
      try {
        await insertValidated(CorsOrigin, doc);
        return doc;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const replay = await CorsOrigin.findOne({
          _id: input.id,
          environment_id: input.environmentId,
        }).lean<CorsOriginDoc>();
        if (replay) return replay;
        throw new ConflictError('duplicate_cors_origin', `The CORS origin ${input.origin} already exists.`, {
          issues: [{ field: 'origin', code: 'duplicate_cors_origin', message: `${input.origin} already exists` }],
        });
      }
    },
  };
}
