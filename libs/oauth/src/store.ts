import {
  aggregateWriter,
  findStored,
  type AggregateWriter,
  defineModel,
  insertValidated,
  outboxSchemaFields,
  Schema,
  type Connection,
  type OutboxCollection,
  type StoredOutboxEntry,
} from '@platform/mongo';
import { stampedRecords, type Stamps } from '@platform/redis';
import type { mongo } from 'mongoose';
import type { ClientStatus } from './client-review.js';

interface Outboxed {
  outbox: StoredOutboxEntry[];
  has_outbox: boolean;
}

export type ClientKind = 'confidential' | 'public';

export interface ClientSecretEntry {
  id: string;
  /** Keyed hash (HMAC-SHA256 with the deployment's pepper): secrets are long and random, so a fast hash is enough. */
  hash: string;
  hint: string;
  created_at: Date;
}

export interface OAuthClientDoc extends Outboxed {
  _id: string;
  owner_user_id: string;
  owner_email: string;
  name: string;
  logo_url: string | null;
  website_url: string | null;
  purpose: string;
  redirect_uris: string[];
  scopes: string[];
  kind: ClientKind;
  status: ClientStatus;
  secrets: ClientSecretEntry[];
  /** Ids of secrets revoked so far: a second revocation of one is done already, an id never seen is unknown. */
  revoked_secret_ids?: string[];
  reviewed_by: string | null;
  reviewed_at: Date | null;
  review_reason: string | null;
  /** Compare-and-set counter: every change is conditional on the version it read. */
  version: number;
  created_at: Date;
  updated_at: Date;
}

export interface AuthorizationCodeDoc {
  /** Keyed hash of the code: a stolen database gives no usable codes. */
  _id: string;
  client_id: string;
  user_id: string;
  redirect_uri: string;
  scopes: string[];
  legacy: boolean;
  code_challenge: string | null;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  /** The exchange that used it (the refresh token it issued): a replay of that exchange is not a reuse. */
  used_for: string | null;
  grant_id: string | null;
}

export interface GrantDoc extends Outboxed {
  _id: string;
  client_id: string;
  user_id: string;
  scopes: string[];
  legacy: boolean;
  created_at: Date;
  revoked_at: Date | null;
  revoke_reason: string | null;
}

export interface RefreshTokenDoc extends Outboxed {
  _id: string;
  grant_id: string;
  client_id: string;
  user_id: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  replaced_by: string | null;
}

const options = { versionKey: false as const, minimize: false };

/** The OAuth collections (private to this lib: readers use the store, oauth-worker the writer). */
function oauthModels(connection: Connection) {
  const client = new Schema<OAuthClientDoc>(
    {
      _id: String,
      owner_user_id: { type: String, required: true, index: true },
      owner_email: { type: String, required: true },
      name: { type: String, required: true },
      logo_url: { type: String, default: null },
      website_url: { type: String, default: null },
      purpose: { type: String, required: true },
      redirect_uris: { type: [String], default: [] },
      scopes: { type: [String], default: [] },
      kind: { type: String, required: true },
      status: { type: String, required: true, index: true },
      secrets: { type: [{ _id: false, id: String, hash: String, hint: String, created_at: Date }], default: [] },
      revoked_secret_ids: { type: [String], default: [] },
      reviewed_by: { type: String, default: null },
      reviewed_at: { type: Date, default: null },
      review_reason: { type: String, default: null },
      version: { type: Number, required: true },
      created_at: Date,
      updated_at: Date,
      ...outboxSchemaFields,
    },
    { ...options, collection: 'oauth_clients' },
  );

  const code = new Schema<AuthorizationCodeDoc>(
    {
      _id: String,
      client_id: { type: String, required: true },
      user_id: { type: String, required: true },
      redirect_uri: { type: String, required: true },
      scopes: { type: [String], default: [] },
      legacy: { type: Boolean, required: true },
      code_challenge: { type: String, default: null },
      created_at: Date,
      expires_at: { type: Date, required: true },
      used_at: { type: Date, default: null },
      used_for: { type: String, default: null },
      grant_id: { type: String, default: null },
    },
    { ...options, collection: 'oauth_authorization_codes' },
  );

  const grant = new Schema<GrantDoc>(
    {
      _id: String,
      client_id: { type: String, required: true },
      user_id: { type: String, required: true },
      scopes: { type: [String], default: [] },
      legacy: { type: Boolean, required: true },
      created_at: Date,
      revoked_at: { type: Date, default: null },
      revoke_reason: { type: String, default: null },
      ...outboxSchemaFields,
    },
    { ...options, collection: 'oauth_grants' },
  ).index({ client_id: 1, revoked_at: 1 });

  const refresh = new Schema<RefreshTokenDoc>(
    {
      _id: String,
      grant_id: { type: String, required: true, index: true },
      client_id: { type: String, required: true },
      user_id: { type: String, required: true },
      created_at: Date,
      expires_at: { type: Date, required: true },
      used_at: { type: Date, default: null },
      replaced_by: { type: String, default: null },
      ...outboxSchemaFields,
    },
    { ...options, collection: 'oauth_refresh_tokens' },
  );

  const model = <T>(name: string, schema: Schema<T>) => defineModel(connection, name, schema);
  return {
    Client: model('OAuthClient', client),
    AuthorizationCode: model('OAuthAuthorizationCode', code),
    Grant: model('OAuthGrant', grant),
    RefreshToken: model('OAuthRefreshToken', refresh),
  };
}

export type OAuthModels = ReturnType<typeof oauthModels>;

/** A client's scope among the stamps: the writer renews it with every change of the client. */
const clientScope = (id: string) => `client:${id}`;

/**
 * The OAuth read and write model (owned by oauth-worker; the web app and gateway read it). With `clientStamps`,
 * a client is read from memory while its stamp holds (every token request reads its client; clients change
 * rarely, and only through the writer, which renews the stamp before its command is answered).
 */
export function createOAuthStore(connection: Connection, options: { clientStamps?: Stamps } = {}) {
  const models = oauthModels(connection);
  const { clientStamps } = options;
  const clients = stampedRecords();
  return {
    /** The client; `fresh` reads the store whatever is cached (a change decides on what is stored). */
    async getClient(id: string, how: { fresh?: boolean } = {}): Promise<OAuthClientDoc | null> {
      if (id.length > 200) return null;
      const read = () => findStored<OAuthClientDoc>(models.Client, { _id: id });
      if (!clientStamps || how.fresh) return read();
      const [stamp] = await clientStamps.read([clientScope(id)]);
      return clients(stamp ?? null, id, read);
    },
    async clientsOwnedBy(userId: string): Promise<OAuthClientDoc[]> {
      return models.Client.find({ owner_user_id: userId }).sort({ _id: 1 }).limit(200).lean<OAuthClientDoc[]>();
    },
    async clientsWithStatus(status: ClientStatus): Promise<OAuthClientDoc[]> {
      return models.Client.find({ status }).sort({ updated_at: 1 }).limit(200).lean<OAuthClientDoc[]>();
    },
    async getGrant(id: string): Promise<GrantDoc | null> {
      return findStored<GrantDoc>(models.Grant, { _id: id });
    },
    /** The ids of a client's grants that are not revoked (what a rejection cuts off). */
    async liveGrantIdsOfClient(clientId: string): Promise<string[]> {
      const grants = await models.Grant.find({ client_id: clientId, revoked_at: null }, { _id: 1 }).lean<
        Array<Pick<GrantDoc, '_id'>>
      >();
      return grants.map((g) => g._id);
    },
    async getAuthorizationCode(codeHash: string): Promise<AuthorizationCodeDoc | null> {
      return findStored<AuthorizationCodeDoc>(models.AuthorizationCode, { _id: codeHash });
    },
    async getRefreshToken(hash: string): Promise<RefreshTokenDoc | null> {
      return findStored<RefreshTokenDoc>(models.RefreshToken, { _id: hash });
    },
    /** Collections of documents with an `expires_at` (codes, refresh tokens), for the expiry sweeper; grants stay (audit). */
    expiringCollections() {
      return [models.AuthorizationCode.collection, models.RefreshToken.collection];
    },
    outboxCollections(): OutboxCollection[] {
      return [models.Client, models.Grant, models.RefreshToken].map((m) =>
        connection.db!.collection(m.collection.collectionName),
      );
    },
    async ensureIndexes() {
      await Promise.all(Object.values(models).map((m) => m.init()));
    },
  };
}

export type OAuthStore = ReturnType<typeof createOAuthStore>;

/** The OAuth writes, each with the events that report it: owned by oauth-worker (a lint rule keeps other apps to the store and to commands). */
export function createOAuthWriter(connection: Connection, clientStamps: Stamps) {
  const models = oauthModels(connection);
  const clientWrites = aggregateWriter<OAuthClientDoc>(models.Client);
  const renewed = <T>(id: string, result: T) => clientStamps.renew([clientScope(id)]).then(() => result);
  /** A client's writes renew its stamp before they return, so that no cached copy outlives the change's reply. */
  const clients: AggregateWriter<OAuthClientDoc> = {
    source: clientWrites.source,
    insert: async (doc, events) => renewed(doc._id, await clientWrites.insert(doc, events)),
    insertOnce: async (doc, events) => renewed(doc._id, await clientWrites.insertOnce(doc, events)),
    async change(filter, fields, events, more) {
      const changed = await clientWrites.change(filter, fields, events, more);
      return changed ? renewed(filter._id, changed) : changed;
    },
  };
  return {
    clients,
    grants: aggregateWriter<GrantDoc>(models.Grant),
    refreshTokens: aggregateWriter<RefreshTokenDoc>(models.RefreshToken),
    /** Codes carry no events (they are never published); a duplicate insert is a replay and throws as such. */
    async insertAuthorizationCode(code: AuthorizationCodeDoc): Promise<void> {
      await insertValidated(models.AuthorizationCode, code);
    },
    /**
     * The code as it was, now marked used for this exchange, when every condition of a valid exchange holds, in
     * one write: unused, issued to this client, alive at `requestedAt`, for this redirect URI, and bound to this
     * PKCE challenge (or to none). Null when any does not: the caller then reads the code to say which.
     */
    async claimValidAuthorizationCode(
      expected: {
        codeHash: string;
        clientId: string;
        redirectUri: string;
        requestedAt: number;
        codeChallenge: string | null;
      },
      use: { used_at: Date; used_for: string; grant_id: string },
    ): Promise<AuthorizationCodeDoc | null> {
      const codes = models.AuthorizationCode.collection as unknown as mongo.Collection<AuthorizationCodeDoc>;
      return codes.findOneAndUpdate(
        {
          _id: expected.codeHash,
          client_id: expected.clientId,
          used_at: null,
          expires_at: { $gt: new Date(expected.requestedAt) },
          redirect_uri: expected.redirectUri,
          code_challenge: expected.codeChallenge,
        },
        { $set: use },
        { returnDocument: 'before' },
      );
    },
    /**
     * The refresh token as it was, now marked used and replaced by `use.replaced_by`, when it is unused, this
     * client's and alive at `requestedAt`, in one write. Null when any does not hold: the caller then reads the
     * token to say which.
     */
    async claimValidRefreshToken(
      expected: { tokenHash: string; clientId: string; requestedAt: number },
      use: { used_at: Date; replaced_by: string },
    ): Promise<RefreshTokenDoc | null> {
      const tokens = models.RefreshToken.collection as unknown as mongo.Collection<RefreshTokenDoc>;
      return tokens.findOneAndUpdate(
        {
          _id: expected.tokenHash,
          client_id: expected.clientId,
          used_at: null,
          expires_at: { $gt: new Date(expected.requestedAt) },
        },
        { $set: use },
        { returnDocument: 'before' },
      );
    },
    /** Marks an unused code used, for one exchange; false when another exchange came first. */
    async claimAuthorizationCode(
      codeHash: string,
      use: { used_at: Date; used_for: string; grant_id: string },
    ): Promise<boolean> {
      const result = await models.AuthorizationCode.updateOne({ _id: codeHash, used_at: null }, { $set: use });
      return result.modifiedCount === 1;
    },
  };
}

export type OAuthWriter = ReturnType<typeof createOAuthWriter>;
