import { ConflictError, InputError } from '@platform/errors';
import { Schema, defineModel, isDuplicateKeyError, type Connection } from '@platform/mongo';
import { generateId, hashPassword, needsRehash, verifyPassword } from '@platform/secrets';

export type UserRole = 'user' | 'admin';

export interface SchedulingUserDoc {
  _id: string;
  email: string;
  name: string;
  username: string;
  password_hash: string;
  role: UserRole;
  time_zone: string;
  created_at: Date;
  updated_at: Date;
}

export interface NewSchedulingUser {
  email: string;
  name: string;
  password: string;
  role?: UserRole;
  timeZone?: string;
}

const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;
export const MIN_PASSWORD_LENGTH = 10;

function validTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * The scheduling service's users: people who log in to the web app (developers, administrators, and the
 * users who authorize clients). Passwords are Argon2id; a login against an unknown e-mail still spends one
 * hash so that timing does not tell which addresses exist.
 */
export function createUserDirectory(connection: Connection) {
  const schema = new Schema<SchedulingUserDoc>(
    {
      _id: String,
      email: { type: String, required: true },
      name: { type: String, required: true },
      username: { type: String, required: true },
      password_hash: { type: String, required: true },
      role: { type: String, required: true },
      time_zone: { type: String, required: true },
      created_at: Date,
      updated_at: Date,
    },
    { versionKey: false, collection: 'scheduling_users' },
  );
  schema.index({ email: 1 }, { unique: true });
  const User = defineModel(connection, 'SchedulingUser', schema);
  let dummyHash: Promise<string> | undefined;

  return {
    model: User,
    async ensureIndexes() {
      await User.init();
    },

    async create(input: NewSchedulingUser, now = new Date()): Promise<SchedulingUserDoc> {
      const email = input.email.trim().toLowerCase();
      if (!EMAIL.test(email)) throw new InputError('invalid_email', `${input.email} is not an e-mail address.`);
      if (input.name.trim().length === 0 || input.name.length > 200)
        throw new InputError('invalid_name', 'A name of 1 to 200 characters is required.');
      if (input.password.length < MIN_PASSWORD_LENGTH || input.password.length > 1024) {
        throw new InputError('weak_password', `A password needs ${MIN_PASSWORD_LENGTH} to 1024 characters.`);
      }
      const timeZone = input.timeZone ?? 'UTC';
      if (!validTimeZone(timeZone)) throw new InputError('invalid_time_zone', `${timeZone} is not an IANA time zone.`);
      const doc: SchedulingUserDoc = {
        _id: generateId('usr'),
        email,
        name: input.name.trim(),
        username: email.split('@')[0]!.replace(/[^a-z0-9._-]/g, '-'),
        password_hash: await hashPassword(input.password),
        role: input.role ?? 'user',
        time_zone: timeZone,
        created_at: now,
        updated_at: now,
      };
      try {
        await User.create(doc);
      } catch (error) {
        if (isDuplicateKeyError(error))
          throw new ConflictError('email_taken', `A user with the e-mail ${email} already exists.`);
        throw error;
      }
      return doc;
    },

    async get(id: string): Promise<SchedulingUserDoc | null> {
      return User.findById(id).lean<SchedulingUserDoc>();
    },

    async findByEmail(email: string): Promise<SchedulingUserDoc | null> {
      return User.findOne({ email: email.trim().toLowerCase() }).lean<SchedulingUserDoc>();
    },

    async list(limit = 100): Promise<SchedulingUserDoc[]> {
      return User.find({}).sort({ _id: 1 }).limit(limit).lean<SchedulingUserDoc[]>();
    },

    /** The user whose e-mail and password these are, or null. */
    async authenticate(email: string, password: string): Promise<SchedulingUserDoc | null> {
      const user = email.length <= 320 ? await this.findByEmail(email) : null;
      if (!user) {
        dummyHash ??= hashPassword('not a password of anyone');
        await verifyPassword(password, await dummyHash);
        return null;
      }
      if (!(await verifyPassword(password, user.password_hash))) return null;
      if (needsRehash(user.password_hash)) {
        await User.updateOne(
          { _id: user._id },
          { $set: { password_hash: await hashPassword(password), updated_at: new Date() } },
        );
      }
      return user;
    },
  };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
