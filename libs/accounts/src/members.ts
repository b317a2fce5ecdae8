import { createHash, randomUUID } from 'node:crypto';
import { ConflictError, InputError } from '@platform/errors';
import { Schema, defineModel, isDuplicateKeyError, type Connection } from '@platform/mongo';

/**
 * The users of an environment, for services whose callers are people with roles (a notifications
 * deployment's owner, members and system users). Each may hold API keys that act as them (`subject`).
 */
export const MEMBER_ROLES = ['owner', 'member', 'system'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];

export interface MemberRecord {
  /** A UUID, as the real services address users. */
  _id: string;
  environment_id: string;
  username: string;
  name: string;
  email: string | null;
  role: MemberRole;
  /**
   * Who this user is elsewhere on the platform (`scheduling-user:<id>`, `images-account:<id>`): notifications
   * about those (an OAuth client's review, an image account's quota) reach the users linked to them.
   */
  links: string[];
  created_at: Date;
}

export interface Members {
  create(
    environmentId: string,
    input: { username: string; name?: string; email?: string | null; role: MemberRole; links?: string[] },
  ): Promise<MemberRecord>;
  /**
   * The user of the environment linked to `link`, made on first use with an id derived from the link (so two
   * processes doing it at once make one).
   */
  ensureLinked(
    environmentId: string,
    link: string,
    input: { email: string | null; name: string },
  ): Promise<MemberRecord>;
  /** Every user, in any environment, linked to `link`. */
  linkedTo(link: string): Promise<MemberRecord[]>;
  get(environmentId: string, id: string): Promise<MemberRecord | null>;
  /** A user addressed as its id or its user name (the caller resolves `me`). */
  find(environmentId: string, idOrUsername: string): Promise<MemberRecord | null>;
  list(environmentId: string): Promise<MemberRecord[]>;
  ensureIndexes(): Promise<void>;
}

const USERNAME = /^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A UUID (version 8, name-based) for the user linked to `link` in an environment. */
export function linkedUserId(environmentId: string, link: string): string {
  const h = createHash('sha256').update(`${environmentId}\n${link}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function createMembers(connection: Connection): Members {
  const Member = defineModel(
    connection,
    'AccountsMember',
    new Schema<MemberRecord>(
      {
        _id: String,
        environment_id: { type: String, required: true },
        username: { type: String, required: true },
        name: String,
        email: { type: String, default: null },
        role: { type: String, required: true },
        links: { type: [String], default: [], index: true },
        created_at: Date,
      },
      { versionKey: false, collection: 'accounts_members' },
    ).index({ environment_id: 1, username: 1 }, { unique: true }),
  );
  return {
    async create(environmentId, input) {
      if (!USERNAME.test(input.username)) {
        throw new InputError(
          'invalid_username',
          'A user name is 1 to 32 lower-case letters, digits and inner hyphens.',
        );
      }
      const record: MemberRecord = {
        _id: randomUUID(),
        environment_id: environmentId,
        username: input.username,
        name: input.name ?? input.username,
        email: input.email ?? null,
        role: input.role,
        links: input.links ?? [],
        created_at: new Date(),
      };
      try {
        await Member.create(record);
      } catch (error) {
        if (isDuplicateKeyError(error))
          throw new ConflictError('username_taken', `The user name ${input.username} is taken in this environment.`);
        throw error;
      }
      return record;
    },
    async ensureLinked(environmentId, link, input) {
      const _id = linkedUserId(environmentId, link);
      const username = `linked-${_id.slice(0, 8)}`;
      try {
        await Member.updateOne(
          { _id },
          {
            $setOnInsert: {
              environment_id: environmentId,
              username,
              name: input.name,
              email: input.email,
              role: 'member',
              links: [link],
              created_at: new Date(),
            },
          },
          { upsert: true },
        );
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error; // made at the same moment by another process
      }
      return (await Member.findById(_id).lean<MemberRecord>())!;
    },
    linkedTo: (link) => Member.find({ links: link }).sort({ created_at: 1 }).limit(100).lean<MemberRecord[]>(),
    get: (environmentId, id) => Member.findOne({ _id: id, environment_id: environmentId }).lean<MemberRecord>(),
    async find(environmentId, idOrUsername) {
      if (UUID.test(idOrUsername))
        return Member.findOne({ _id: idOrUsername, environment_id: environmentId }).lean<MemberRecord>();
      return Member.findOne({
        environment_id: environmentId,
        username: idOrUsername.toLowerCase(),
      }).lean<MemberRecord>();
    },
    list: (environmentId) =>
      Member.find({ environment_id: environmentId }).sort({ created_at: 1 }).lean<MemberRecord[]>(),
    async ensureIndexes() {
      await Member.init();
    },
  };
}

/**
 * Members whose `get` keeps what it found (at most `max`, the oldest dropped first): a member is written once
 * (`create`, `ensureLinked`) and never changed or removed, so a record found stays true. A user not found is
 * asked for again: they may be made next.
 */
export function rememberingMembers(members: Members, max = 10_000): Members {
  const found = new Map<string, MemberRecord>();
  return {
    ...members,
    async get(environmentId, id) {
      const key = `${environmentId}\n${id}`;
      const known = found.get(key);
      if (known) return known;
      const member = await members.get(environmentId, id);
      if (member) {
        if (found.size >= max) found.delete(found.keys().next().value!);
        found.set(key, member);
      }
      return member;
    },
  };
}
