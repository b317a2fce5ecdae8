import { ConflictError } from '@platform/errors';
import { insertValidated, isDuplicateKeyError, outboxEvent, withEvents } from '@platform/mongo';
import { MessageTypeNames } from '@platform/contracts';
import type { RedirectUriDoc, UsermgmtModels } from '../models.js';

export const MAX_REDIRECT_URIS = 100;

export function redirectUrisRepository(models: UsermgmtModels) {
  const { RedirectUri } = models;
  return {
    async create(input: { environmentId: string; id: string; uri: string }, now = new Date()): Promise<RedirectUriDoc> {
      const existing = await RedirectUri.findOne({
        _id: input.id,
        environment_id: input.environmentId,
      }).lean<RedirectUriDoc>();
      if (existing) return existing;
      const count = await RedirectUri.countDocuments({ environment_id: input.environmentId });
      if (count >= MAX_REDIRECT_URIS) {
        throw new ConflictError(
          'redirect_uri_limit_reached',
          `An environment may have at most ${MAX_REDIRECT_URIS} redirect URIs.`,
        );
      }
      const events = [
        outboxEvent(MessageTypeNames.RedirectUriCreated, input.environmentId, {
          environment_id: input.environmentId,
          redirect_uri_id: input.id,
          uri: input.uri,
          created_at: now.getTime(),
        }),
      ];
      const doc: RedirectUriDoc = withEvents(
        {
          _id: input.id,
          environment_id: input.environmentId,
          uri: input.uri,
          // The first URI of an environment is its default, as in the real service's dashboard.
          default: count === 0,
          created_at: now,
          updated_at: now,
        },
        events,
      );
      try {
        await insertValidated(RedirectUri, doc);
        return doc;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const replay = await RedirectUri.findOne({
          _id: input.id,
          environment_id: input.environmentId,
        }).lean<RedirectUriDoc>();
        if (replay) return replay;
        throw new ConflictError('duplicate_redirect_uri', `The redirect URI ${input.uri} already exists.`, {
          issues: [{ field: 'uri', code: 'duplicate_redirect_uri', message: `${input.uri} already exists` }],
        });
      }
    },
  };
}
