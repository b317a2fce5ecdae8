import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import {
  changeWithEvents,
  insertValidated,
  isDuplicateKeyError,
  outboxEvent,
  paginate,
  withEvents,
  type PageRequest,
} from '@platform/mongo';
import { presentUser } from '../presenters.js';
import { MessageTypeNames } from '@platform/contracts';
import type { DeletedUserDoc, UserDoc, UsermgmtModels } from '../models.js';

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

/** The members an update changes; null or absent leaves one as it is, a null metadata value removes its key. */
export interface UserChanges {
  email?: string | null;
  firstName?: string | null;
  lastName?: string | null;
  emailVerified?: boolean | null;
  externalId?: string | null;
  metadata?: Record<string, string | null> | null;
  passwordHash?: string | null;
}

/** Deleted users' tombstones live until their events are relayed. */
const TOMBSTONE_MS = 24 * 60 * 60 * 1000;

/** Prefixed, so an external id can never equal another user's stand-in key. */
const keyOfExternalId = (externalId: string) => `ext:${externalId}`;
const externalKey = (externalId: string | null, userId: string) =>
  externalId === null ? `id:${userId}` : keyOfExternalId(externalId);

function notFound(id: string): never {
  throw new NotFoundError('entity_not_found', `User not found: '${id}'.`);
}

function emailTaken(email: string): never {
  throw new ConflictError('email_not_available', `A user with the email ${email} already exists.`, {
    issues: [{ field: 'email', code: 'email_not_available', message: `${email} is already in use` }],
  });
}

function externalIdTaken(externalId: string): never {
  throw new ConflictError('external_id_not_available', `A user with the external_id ${externalId} already exists.`, {
    issues: [{ field: 'external_id', code: 'external_id_not_available', message: `${externalId} is already in use` }],
  });
}

type UserSnapshot = Omit<UserDoc, 'outbox' | 'has_outbox'>;

function eventUser(doc: UserSnapshot) {
  return {
    environment_id: doc.environment_id,
    user_id: doc._id,
    email: doc.email,
    first_name: doc.first_name,
    last_name: doc.last_name,
    email_verified: doc.email_verified,
    external_id: doc.external_id,
    metadata: doc.metadata,
    created_at: doc.created_at.getTime(),
  };
}

export const MAX_METADATA_KEYS = 10;

function mergeMetadata(current: Record<string, string>, changes: Record<string, string | null>) {
  const next = { ...current };
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) delete next[key];
    else next[key] = value;
  }
  if (Object.keys(next).length > MAX_METADATA_KEYS) {
    const message = `A user may have at most ${MAX_METADATA_KEYS} metadata keys.`;
    throw new InputError('invalid_request_parameters', message, {
      issues: [{ field: 'metadata', code: 'too_many_metadata_keys', message }],
    });
  }
  return next;
}

export function usersRepository(models: UsermgmtModels) {
  const { User, DeletedUser } = models;
  const live = (environmentId: string, id: string) => ({ _id: id, environment_id: environmentId });

  /** Which unique key a duplicate-key error was about: the e-mail or the external id. */
  async function conflictOf(
    environmentId: string,
    userId: string,
    email: string,
    externalId: string | null,
  ): Promise<never> {
    if (externalId !== null) {
      const holder = await User.findOne({ environment_id: environmentId, external_key: keyOfExternalId(externalId) })
        .select({ _id: 1 })
        .lean<{ _id: string }>();
      if (holder && holder._id !== userId) externalIdTaken(externalId);
    }
    emailTaken(email);
  }

  return {
    async create(input: NewUser, now = new Date()): Promise<UserDoc> {
      // Insert first (one write in the common case); a duplicate id is a replay of the same command.
      const email = input.email.toLowerCase();
      const doc: UserSnapshot = {
        _id: input.id,
        environment_id: input.environmentId,
        email,
        first_name: input.firstName,
        last_name: input.lastName,
        email_verified: input.emailVerified,
        external_id: input.externalId,
        external_key: externalKey(input.externalId, input.id),
        metadata: input.metadata,
        password_hash: input.passwordHash,
        created_at: now,
        updated_at: now,
      };
      const stored = withEvents(doc, [outboxEvent(MessageTypeNames.UserCreated, input.id, eventUser(doc))]);
      try {
        await insertValidated(User, stored);
        return stored;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const replay = await User.findOne(live(input.environmentId, input.id)).lean<UserDoc>();
        if (replay) return replay;
        return conflictOf(input.environmentId, input.id, email, input.externalId);
      }
    },

    /** Applies the changes once per command: a redelivered command is answered with the user as it left it. */
    async update(
      input: { environmentId: string; id: string; commandId: string; changes: UserChanges },
      now = new Date(),
    ): Promise<UserDoc> {
      const current = await User.findOne(live(input.environmentId, input.id)).lean<UserDoc>();
      if (!current) notFound(input.id);
      if (current.updated_by === input.commandId) return current;
      const c = input.changes;
      const externalId = c.externalId ?? current.external_id;
      const next: UserSnapshot = {
        ...current,
        email: c.email?.toLowerCase() ?? current.email,
        first_name: c.firstName ?? current.first_name,
        last_name: c.lastName ?? current.last_name,
        email_verified: c.emailVerified ?? current.email_verified,
        external_id: externalId,
        external_key: externalKey(externalId, current._id),
        metadata: c.metadata ? mergeMetadata(current.metadata, c.metadata) : current.metadata,
        password_hash: c.passwordHash ?? current.password_hash,
        updated_at: now,
        updated_by: input.commandId,
      };
      const event = outboxEvent(MessageTypeNames.UserUpdated, input.id, {
        ...eventUser(next),
        updated_at: now.getTime(),
      });
      try {
        const doc = await User.findOneAndUpdate(
          live(input.environmentId, input.id),
          changeWithEvents(
            {
              email: next.email,
              first_name: next.first_name,
              last_name: next.last_name,
              email_verified: next.email_verified,
              external_id: next.external_id,
              external_key: next.external_key,
              metadata: next.metadata,
              password_hash: next.password_hash,
              updated_at: now,
              updated_by: input.commandId,
            },
            [event],
          ),
          { new: true },
        ).lean<UserDoc>();
        if (!doc) notFound(input.id);
        return doc;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        return conflictOf(input.environmentId, input.id, next.email, next.external_id);
      }
    },

    /**
     * The tombstone is written first, carrying user.deleted and any events of the user still waiting to be
     * relayed, then the user goes: a process killed between the two finishes the deletion on redelivery.
     */
    async delete(input: { environmentId: string; id: string; commandId: string }, now = new Date()): Promise<void> {
      const current = await User.findOne(live(input.environmentId, input.id)).lean<UserDoc>();
      if (!current) {
        const tombstone = await DeletedUser.findOne(live(input.environmentId, input.id)).lean<DeletedUserDoc>();
        if (tombstone?.deleted_by === input.commandId) return;
        notFound(input.id);
      }
      const deleted = outboxEvent(MessageTypeNames.UserDeleted, input.id, {
        ...eventUser(current),
        deleted_at: now.getTime(),
      });
      try {
        await insertValidated(
          DeletedUser,
          withEvents(
            {
              _id: input.id,
              environment_id: input.environmentId,
              deleted_by: input.commandId,
              deleted_at: now,
              expires_at: new Date(now.getTime() + TOMBSTONE_MS),
            },
            [...current.outbox, deleted],
          ),
        );
      } catch (error) {
        // A tombstone already there is this command's, written before a crash: finish the deletion.
        if (!isDuplicateKeyError(error)) throw error;
      }
      await User.deleteOne(live(input.environmentId, input.id));
    },

    async get(environmentId: string, id: string): Promise<UserDoc | null> {
      return User.findOne(live(environmentId, id)).lean<UserDoc>();
    },

    async getByExternalId(environmentId: string, externalId: string): Promise<UserDoc | null> {
      return User.findOne({ environment_id: environmentId, external_key: keyOfExternalId(externalId) }).lean<UserDoc>();
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

    /** Gives users stored before external ids were unique their key (once, at start). */
    async backfillExternalKeys(): Promise<number> {
      const missing = await User.find({ external_key: { $exists: false } })
        .select({ _id: 1, external_id: 1 })
        .lean<{ _id: string; external_id: string | null }[]>();
      for (const doc of missing) {
        await User.updateOne(
          { _id: doc._id, external_key: { $exists: false } },
          { $set: { external_key: externalKey(doc.external_id, doc._id) } },
        );
      }
      return missing.length;
    },
  };
}
