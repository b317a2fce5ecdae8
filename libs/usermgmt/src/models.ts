import { Schema, defineModel, outboxSchemaFields, type Connection, type StoredOutboxEntry } from '@platform/mongo';
import type { WebhookEndpointStatus } from './rules/events.js';

interface Outboxed {
  outbox: StoredOutboxEntry[];
  has_outbox: boolean;
}

export interface CorsOriginDoc extends Outboxed {
  _id: string;
  environment_id: string;
  origin: string;
  created_at: Date;
  updated_at: Date;
}

export interface RedirectUriDoc extends Outboxed {
  _id: string;
  environment_id: string;
  uri: string;
  default: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface JwtTemplateDoc extends Outboxed {
  /** One template per environment: the environment id is the document id. */
  _id: string;
  content: string;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookEndpointDoc extends Outboxed {
  _id: string;
  environment_id: string;
  endpoint_url: string;
  /** endpoint_url while live, the id once deleted: keeps URLs unique per environment without partial indexes. */
  url_key: string;
  events: string[];
  status: WebhookEndpointStatus;
  sealed_secret: string;
  /** After a rotation, the previous secret keeps signing beside the new one until it expires. */
  previous_sealed_secret: string | null;
  previous_secret_expires_at: Date | null;
  /** Deliveries per second at most; null: no limit of its own. Absent on endpoints stored before it existed. */
  rate_limit?: number | null;
  /** Events about one aggregate are delivered in order (see orderingKeyOf). Absent means false. */
  ordered?: boolean;
  created_at: Date;
  updated_at: Date;
  /** Tombstone: kept until its outbox is relayed, then swept. */
  deleted_at: Date | null;
  expires_at: Date | null;
}

export interface UserDoc extends Outboxed {
  _id: string;
  environment_id: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  email_verified: boolean;
  external_id: string | null;
  /** external_id, or the user's own id when it has none: unique per environment without partial indexes. */
  external_key: string;
  metadata: Record<string, string>;
  password_hash: string | null;
  created_at: Date;
  updated_at: Date;
  /** The command that made the last change, so a redelivered update is answered, not applied twice. */
  updated_by?: string;
}

/**
 * A deleted user, kept until the events of its deletion (and any of its changes still waiting) are relayed:
 * the user's own document goes at once, so its e-mail and external id are free again.
 */
export interface DeletedUserDoc extends Outboxed {
  _id: string;
  environment_id: string;
  deleted_by: string;
  deleted_at: Date;
  expires_at: Date;
}

/** One event as the Events API serves it and the webhooks deliver it; the log keeps 30 days. */
export interface EventLogDoc {
  /** The event id receivers see (webhook-id and the payload's id). */
  _id: string;
  environment_id: string;
  event: string;
  data: Record<string, unknown>;
  /** When the event happened (the payload's created_at). */
  created_at: Date;
  /** When the log recorded it: the order of the Events API, which never changes once a reader saw it. */
  logged_at: Date;
  expires_at: Date;
}

const options = { versionKey: false as const, minimize: false };

export function usermgmtModels(connection: Connection) {
  const cors = new Schema<CorsOriginDoc>(
    {
      _id: String,
      environment_id: { type: String, required: true },
      origin: { type: String, required: true },
      created_at: Date,
      updated_at: Date,
      ...outboxSchemaFields,
    },
    { ...options, collection: 'usermgmt_cors_origins' },
  );
  cors.index({ environment_id: 1, origin: 1 }, { unique: true });

  const redirect = new Schema<RedirectUriDoc>(
    {
      _id: String,
      environment_id: { type: String, required: true },
      uri: { type: String, required: true },
      default: { type: Boolean, default: false },
      created_at: Date,
      updated_at: Date,
      ...outboxSchemaFields,
    },
    { ...options, collection: 'usermgmt_redirect_uris' },
  );
  redirect.index({ environment_id: 1, uri: 1 }, { unique: true });

  const jwt = new Schema<JwtTemplateDoc>(
    { _id: String, content: String, created_at: Date, updated_at: Date, ...outboxSchemaFields },
    { ...options, collection: 'usermgmt_jwt_templates' },
  );

  const webhook = new Schema<WebhookEndpointDoc>(
    {
      _id: String,
      environment_id: { type: String, required: true },
      endpoint_url: { type: String, required: true },
      url_key: { type: String, required: true },
      events: { type: [String], default: [] },
      status: { type: String, required: true },
      sealed_secret: { type: String, required: true },
      previous_sealed_secret: { type: String, default: null },
      previous_secret_expires_at: { type: Date, default: null },
      rate_limit: { type: Number, default: null },
      ordered: { type: Boolean, default: false },
      created_at: Date,
      updated_at: Date,
      deleted_at: { type: Date, default: null },
      expires_at: { type: Date, default: null },
      ...outboxSchemaFields,
    },
    { ...options, collection: 'usermgmt_webhook_endpoints' },
  );
  webhook.index({ environment_id: 1, url_key: 1 }, { unique: true });
  webhook.index({ environment_id: 1, _id: 1 });

  const user = new Schema<UserDoc>(
    {
      _id: String,
      environment_id: { type: String, required: true },
      email: { type: String, required: true },
      first_name: { type: String, default: null },
      last_name: { type: String, default: null },
      email_verified: { type: Boolean, default: false },
      external_id: { type: String, default: null },
      external_key: { type: String, required: true },
      metadata: { type: Schema.Types.Mixed, default: {} },
      password_hash: { type: String, default: null },
      created_at: Date,
      updated_at: Date,
      updated_by: { type: String },
      ...outboxSchemaFields,
    },
    { ...options, collection: 'usermgmt_users' },
  );
  user.index({ environment_id: 1, email: 1 }, { unique: true });
  user.index({ environment_id: 1, external_key: 1 }, { unique: true });

  const deletedUser = new Schema<DeletedUserDoc>(
    {
      _id: String,
      environment_id: { type: String, required: true },
      deleted_by: { type: String, required: true },
      deleted_at: Date,
      expires_at: Date,
      ...outboxSchemaFields,
    },
    { ...options, collection: 'usermgmt_deleted_users' },
  );

  const eventLog = new Schema<EventLogDoc>(
    {
      _id: String,
      environment_id: { type: String, required: true },
      event: { type: String, required: true },
      data: { type: Schema.Types.Mixed, required: true },
      created_at: Date,
      logged_at: Date,
      expires_at: Date,
    },
    { ...options, collection: 'usermgmt_events' },
  );
  eventLog.index({ environment_id: 1, logged_at: 1, _id: 1 });

  const model = <T>(name: string, schema: Schema<T>) => defineModel(connection, name, schema);

  return {
    CorsOrigin: model('UsermgmtCorsOrigin', cors),
    RedirectUri: model('UsermgmtRedirectUri', redirect),
    JwtTemplate: model('UsermgmtJwtTemplate', jwt),
    WebhookEndpoint: model('UsermgmtWebhookEndpoint', webhook),
    User: model('UsermgmtUser', user),
    DeletedUser: model('UsermgmtDeletedUser', deletedUser),
    EventLog: model('UsermgmtEventLog', eventLog),
  };
}

export type UsermgmtModels = ReturnType<typeof usermgmtModels>;
