import { ConflictError } from '@platform/errors';
import { isDuplicateKeyError, outboxEvent, paginate, withEvents, type PageRequest } from '@platform/mongo';
import { presentUser } from '../presenters.js';
import { MessageTypeNames } from '@platform/contracts';
import type { UserDoc, UsermgmtModels } from '../models.js';

export interface NewUser {
  environmentId: string;
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  emailVerified: boolean;
  externalId: string | null;
  metadata: Record<string, string>;
  passwordHash: string | null;
}

export function usersRepository(models: UsermgmtModels) {
  const { User } = models;
  return {
    async create(input: NewUser, now = new Date()): Promise<UserDoc> {
      // Insert first (one write in the common case); a duplicate id is a replay of the same command.
      const email = input.email.toLowerCase();
      const events = [
        outboxEvent(MessageTypeNames.UserCreated, input.id, {
          environment_id: input.environmentId,
          user_id: input.id,
          email,
          first_name: input.firstName,
          last_name: input.lastName,
          email_verified: input.emailVerified,
          external_id: input.externalId,
          metadata: input.metadata,
          created_at: now.getTime(),
        }),
      ];
      const doc: UserDoc = withEvents(
        {
          _id: input.id,
          environment_id: input.environmentId,
          email,
          first_name: input.firstName,
          last_name: input.lastName,
          email_verified: input.emailVerified,
          external_id: input.externalId,
          metadata: input.metadata,
          password_hash: input.passwordHash,
          created_at: now,
          updated_at: now,
        },
        events,
      );
      try {
        await User.create(doc);
        return doc;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const replay = await User.findOne({ _id: input.id, environment_id: input.environmentId }).lean<UserDoc>();
        if (replay) return replay;
        throw new ConflictError('email_not_available', `A user with the email ${email} already exists.`, {
          issues: [{ field: 'email', code: 'email_not_available', message: `${email} is already in use` }],
        });
      }
    },

    async get(environmentId: string, id: string): Promise<UserDoc | null> {
      return User.findOne({ _id: id, environment_id: environmentId }).lean<UserDoc>();
    },

    async getByExternalId(environmentId: string, externalId: string): Promise<UserDoc | null> {
      return User.findOne({ environment_id: environmentId, external_id: externalId }).lean<UserDoc>();
    },

    /** A page of the environment's users (newest first by default), by e-mail address if one is given. */
    async list(environmentId: string, page: PageRequest, filters: { email?: string | undefined } = {}) {
      return paginate(
        page,
        (filter, sort, limit) =>
          User.find({
            ...filter,
            environment_id: environmentId,
            ...(filters.email !== undefined ? { email: filters.email.toLowerCase() } : {}),
          })
            .sort({ _id: sort })
            .limit(limit)
            .lean<UserDoc[]>()
            .exec(),
        (doc) => presentUser(doc),
      );
    },
  };
}
