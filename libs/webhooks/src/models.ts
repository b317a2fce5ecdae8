import { Schema, defineModel, outboxSchemaFields, type Connection, type StoredOutboxEntry } from '@platform/mongo';

export type DeliveryStatus = 'pending' | 'delivered' | 'dead_lettered' | 'cancelled';
export type SignatureScheme = 'workos' | 'standard';

export interface DeliveryTarget {
  id: string;
  url: string;
  sealed_secret: string;
  signature_scheme: SignatureScheme;
  previous_sealed_secret: string | null;
  previous_secret_expires_at: number | null;
  oauth: { token_url: string; client_id: string; sealed_client_secret: string; scope: string | null } | null;
  /** Deliveries per second at most to this target (the endpoint's limit); null: the dispatcher's default. */
  rate_limit?: number | null;
}

export interface DeliveryDoc {
  _id: string;
  producer: string;
  tenant_id: string;
  target: DeliveryTarget;
  event_id: string;
  event_type: string;
  payload: string;
  /** Deliveries to one target sharing this key go out one at a time, in `sequence` order (null: unordered). */
  ordering_key?: string | null;
  /** The order in which the dispatcher received the request (ms since the epoch × 1000 + place in its batch). */
  sequence?: number;
  /** W3C trace context of the request, so each attempt joins the trace that caused it. */
  trace_headers: Record<string, string>;
  status: DeliveryStatus;
  attempts: number;
  /** Attempts made before the last manual redelivery: the retry schedule restarts from there. */
  schedule_offset: number;
  /** Due time of the next attempt; the lease queue in Redis schedules and leases it (ADR 0003). */
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  updated_at: Date;
  finished_at: Date | null;
  /** Set when a delivery is finished and archived; swept after the retention period. */
  expires_at?: Date | null;
  outbox: StoredOutboxEntry[];
  has_outbox: boolean;
}

export interface AttemptDoc {
  /** Time-ordered (`wha_…`), so a target's delivery log pages by time. */
  _id: string;
  delivery_id: string;
  producer: string;
  tenant_id: string;
  target_id: string;
  event_id: string;
  event_type: string;
  attempt: number;
  started_at: Date;
  status: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string;
  /** Delivery logs are kept for `RETENTION_MS`, then swept. */
  expires_at: Date;
}

export interface TargetStateDoc {
  /** `${producer}:${target_id}` */
  _id: string;
  disabled_at: Date | null;
  disabled_reason: string | null;
  /** First failure since the last success; a target failing longer than the configured window is disabled. */
  failing_since: Date | null;
}

export function webhookModels(connection: Connection) {
  const delivery = new Schema<DeliveryDoc>(
    {
      _id: String,
      producer: String,
      tenant_id: String,
      target: {
        id: String,
        url: String,
        sealed_secret: String,
        signature_scheme: String,
        previous_sealed_secret: { type: String, default: null },
        previous_secret_expires_at: { type: Number, default: null },
        oauth: { type: Schema.Types.Mixed, default: null },
        rate_limit: { type: Number, default: null },
      },
      event_id: String,
      event_type: String,
      payload: String,
      ordering_key: { type: String, default: null },
      sequence: { type: Number, default: 0 },
      trace_headers: { type: Schema.Types.Mixed, default: {} },
      status: { type: String, index: true },
      attempts: Number,
      schedule_offset: { type: Number, default: 0 },
      next_attempt_at: Date,
      last_status: { type: Number, default: null },
      last_error: { type: String, default: null },
      created_at: Date,
      updated_at: Date,
      finished_at: { type: Date, default: null },
      expires_at: { type: Date, default: null, index: true },
      ...outboxSchemaFields,
    },
    { versionKey: false, minimize: false, collection: 'webhook_deliveries' },
  );
  delivery.index({ status: 1, next_attempt_at: 1 });
  // The queue's rebuild reads the pending ones in the order received.
  delivery.index({ status: 1, sequence: 1 });
  delivery.index({ producer: 1, tenant_id: 1, 'target.id': 1, created_at: -1 });

  const attempt = new Schema<AttemptDoc>(
    {
      _id: String,
      delivery_id: String,
      producer: String,
      tenant_id: String,
      target_id: String,
      event_id: String,
      event_type: String,
      attempt: Number,
      started_at: Date,
      status: { type: Number, default: null },
      latency_ms: Number,
      error: { type: String, default: null },
      response_body: String,
      expires_at: { type: Date, index: true },
    },
    { versionKey: false, collection: 'webhook_attempts' },
  );
  attempt.index({ producer: 1, tenant_id: 1, target_id: 1, _id: -1 });
  attempt.index({ delivery_id: 1, attempt: 1 }, { unique: true });

  const target = new Schema<TargetStateDoc>(
    {
      _id: String,
      disabled_at: { type: Date, default: null },
      disabled_reason: { type: String, default: null },
      failing_since: { type: Date, default: null },
    },
    { versionKey: false, collection: 'webhook_targets' },
  );

  return {
    Delivery: defineModel(connection, 'WebhookDelivery', delivery),
    // Finished deliveries move here, so the hot collection that every claim scans holds only pending work
    // (FerretDB 1.x serves compound filters by scanning).
    FinishedDelivery: defineModel(
      connection,
      'WebhookFinishedDelivery',
      delivery.clone().set('collection', 'webhook_deliveries_finished'),
    ),
    Attempt: defineModel(connection, 'WebhookAttempt', attempt),
    TargetState: defineModel(connection, 'WebhookTargetState', target),
  };
}

export type WebhookModels = ReturnType<typeof webhookModels>;
