import { generateId, generateSecret, hashSecret } from '@platform/secrets';
import { NotFoundError } from '@platform/errors';
import { Schema, defineModel, type Connection } from '@platform/mongo';
import type { Redis } from '@platform/redis';
import { REVOKED_KEYS_CHANNEL, forgetKeyInThisProcess, subscribedKeyMemory, type KeyMemory } from './key-memory.js';
import { KEY_PREFIX, type Service } from './services.js';

export interface EnvironmentRecord {
  _id: string;
  name: string;
  service: Service;
  created_at: Date;
}

export interface ApiKeyRecord {
  _id: string;
  environment_id: string;
  service: Service;
  /** HMAC-SHA256(pepper, key): the key itself is never stored. */
  hash: string;
  /** The first characters, to recognise a key in listings. */
  hint: string;
  /** The user of the environment the key acts as (services whose callers are users); null for keys of the environment itself. */
  subject: string | null;
  created_at: Date;
  revoked_at: Date | null;
}

export interface ApiKeyIdentity {
  keyId: string;
  environmentId: string;
  service: Service;
  subject: string | null;
}

export interface Accounts {
  createEnvironment(service: Service, name: string): Promise<EnvironmentRecord>;
  getEnvironment(id: string): Promise<EnvironmentRecord | null>;
  /** An environment with a well-known id (a service's own), made on first use. */
  ensureEnvironment(id: string, service: Service, name: string): Promise<EnvironmentRecord>;
  listEnvironments(service?: Service): Promise<EnvironmentRecord[]>;
  /** Returns the plaintext key: it is shown once and cannot be recovered. `subject`: the user it acts as. */
  createKey(environmentId: string, options?: { subject?: string }): Promise<{ record: ApiKeyRecord; key: string }>;
  listKeys(environmentId: string): Promise<ApiKeyRecord[]>;
  revokeKey(keyId: string): Promise<void>;
  /**
   * Hot path of every authenticated request: this process's memory (with `rememberKeys`), then Redis, then
   * MongoDB as the source of truth.
   */
  verifyKey(service: Service, presented: string): Promise<ApiKeyIdentity | null>;
  ensureIndexes(): Promise<void>;
  /** Stops listening for revocations (with `rememberKeys`). */
  close(): Promise<void>;
}

const CACHE_TTL_S = 60;
const NEGATIVE_TTL_S = 5;
const MAX_KEY_LENGTH = 200;

export function createAccounts(deps: {
  connection: Connection;
  redis: Redis;
  pepper: string;
  /**
   * Keys verified here are kept in memory (a gateway's every request then makes no Redis round trip for its
   * key), dropped as soon as any process revokes one; the name labels the revocation listener's connection.
   */
  rememberKeys?: { name: string };
}): Accounts {
  const { connection, redis, pepper } = deps;
  const memory: KeyMemory<ApiKeyIdentity> | undefined = deps.rememberKeys
    ? subscribedKeyMemory(redis, deps.rememberKeys)
    : undefined;
  const envSchema = new Schema<EnvironmentRecord>(
    { _id: String, name: String, service: String, created_at: Date },
    { versionKey: false, collection: 'accounts_environments' },
  );
  const keySchema = new Schema<ApiKeyRecord>(
    {
      _id: String,
      environment_id: { type: String, required: true, index: true },
      service: { type: String, required: true },
      hash: { type: String, required: true, unique: true },
      hint: String,
      subject: { type: String, default: null },
      created_at: Date,
      revoked_at: { type: Date, default: null },
    },
    { versionKey: false, collection: 'accounts_api_keys' },
  );
  const Environment = defineModel(connection, 'AccountsEnvironment', envSchema);
  const ApiKey = defineModel(connection, 'AccountsApiKey', keySchema);
  const cacheKey = (hash: string) => `apikey:${hash}`;

  return {
    async ensureIndexes() {
      await Promise.all([Environment.init(), ApiKey.init()]);
    },
    async createEnvironment(service, name) {
      const record: EnvironmentRecord = { _id: generateId('environment'), name, service, created_at: new Date() };
      await Environment.create(record);
      return record;
    },
    async ensureEnvironment(id, service, name) {
      await Environment.updateOne(
        { _id: id },
        { $setOnInsert: { name, service, created_at: new Date() } },
        { upsert: true },
      ).catch((error: unknown) => {
        if ((error as { code?: number }).code !== 11000) throw error;
      });
      return (await Environment.findById(id).lean<EnvironmentRecord>())!;
    },
    async getEnvironment(id) {
      return Environment.findById(id).lean<EnvironmentRecord>();
    },
    async listEnvironments(service) {
      return Environment.find(service ? { service } : {})
        .sort({ _id: 1 })
        .lean<EnvironmentRecord[]>();
    },
    async createKey(environmentId, options = {}) {
      const env = await Environment.findById(environmentId).lean<EnvironmentRecord>();
      if (!env) throw new NotFoundError('environment_not_found', `No environment ${environmentId}`);
      const key = generateSecret(KEY_PREFIX[env.service], 40);
      const record: ApiKeyRecord = {
        _id: generateId('key'),
        environment_id: env._id,
        service: env.service,
        hash: hashSecret(key, pepper),
        hint: `${key.slice(0, KEY_PREFIX[env.service].length + 4)}…`,
        subject: options.subject ?? null,
        created_at: new Date(),
        revoked_at: null,
      };
      await ApiKey.create(record);
      await redis.del(cacheKey(record.hash)); // drop a negative cache entry, if any
      return { record, key };
    },
    async listKeys(environmentId) {
      return ApiKey.find({ environment_id: environmentId }).sort({ _id: 1 }).lean<ApiKeyRecord[]>();
    },
    async revokeKey(keyId) {
      const record = await ApiKey.findOneAndUpdate(
        { _id: keyId },
        { $set: { revoked_at: new Date() } },
        { new: true },
      ).lean<ApiKeyRecord>();
      if (!record) throw new NotFoundError('key_not_found', `No API key ${keyId}`);
      forgetKeyInThisProcess(record.hash);
      await redis.del(cacheKey(record.hash));
      await redis.publish(REVOKED_KEYS_CHANNEL, record.hash);
    },
    async verifyKey(service, presented) {
      if (presented.length === 0 || presented.length > MAX_KEY_LENGTH) return null;
      // The lookup is by keyed hash, so comparing hashes by equality leaks nothing about the key.
      const hash = hashSecret(presented, pepper);
      const remembered = memory?.get(hash);
      if (remembered) return remembered.service === service ? { ...remembered } : null;
      const epoch = memory?.epoch() ?? 0;
      const cached = await redis.get(cacheKey(hash)).catch(() => null);
      if (cached === '-') return null;
      if (cached) {
        const stored = JSON.parse(cached) as ApiKeyIdentity;
        const identity = { ...stored, subject: stored.subject ?? null };
        memory?.remember(hash, identity, epoch);
        return identity.service === service ? { ...identity } : null;
      }
      const record = await ApiKey.findOne({ hash, revoked_at: null }).lean<ApiKeyRecord>();
      if (!record) {
        await redis.set(cacheKey(hash), '-', 'EX', NEGATIVE_TTL_S).catch(() => undefined);
        return null;
      }
      const identity: ApiKeyIdentity = {
        keyId: record._id,
        environmentId: record.environment_id,
        service: record.service,
        subject: record.subject ?? null,
      };
      await redis.set(cacheKey(hash), JSON.stringify(identity), 'EX', CACHE_TTL_S).catch(() => undefined);
      memory?.remember(hash, identity, epoch);
      return identity.service === service ? { ...identity } : null;
    },
    async close() {
      await memory?.close();
    },
  };
}

/** A service's accounts: keys verified are kept in memory (ADR 0036), the revocation listener closed with it. */
export function serviceAccounts(
  service: { name: string; onClose(name: string, close: () => Promise<void>): void },
  deps: { connection: Connection; redis: Redis; pepper: string },
): Accounts {
  const accounts = createAccounts({ ...deps, rememberKeys: { name: service.name } });
  service.onClose('API key memory', () => accounts.close());
  return accounts;
}
