import type { RequestDelivery } from '@platform/contracts';
import { MessageTypeNames } from '@platform/contracts';
import {
  changeWithEvents,
  isDuplicateKeyError,
  outboxEvent,
  paginate,
  type Connection,
  type OutboxCollection,
  type PageRequest,
  type StoredOutboxEntry,
} from '@platform/mongo';
import { generateId } from '@platform/secrets';
import type { RedeliverDeliveries } from '@platform/contracts';
import { webhookModels, type AttemptDoc, type DeliveryDoc } from './models.js';

const EPOCH = new Date(0);
/** How long finished deliveries and their attempts stay readable (delivery log, redelivery). */
export const RETENTION_MS = 30 * 24 * 3600_000;
/** How long a delivery being enqueued stays unclaimable while its copy among the finished ones is looked for. */
const ENQUEUE_HOLD_MS = 60_000;

export interface AttemptRecord {
  status: number | null;
  latencyMs: number;
  error: string | null;
  responseBody: string;
  startedAt: Date;
}

/** The delivery store: owned by the webhook dispatcher alone. */
export function createDeliveryStore(connection: Connection) {
  const { Delivery, FinishedDelivery, Attempt, TargetState } = webhookModels(connection);

  /** Moves a delivery that is no longer pending out of the hot collection (copy first: a crash duplicates, never loses). */
  async function archive(id: string) {
    const doc = await Delivery.findById(id).lean<DeliveryDoc>();
    if (!doc || doc.status === 'pending') return;
    await FinishedDelivery.replaceOne(
      { _id: id },
      { ...doc, expires_at: new Date(Date.now() + RETENTION_MS) },
      { upsert: true },
    );
    await Delivery.deleteOne({ _id: id, status: doc.status });
  }

  async function archiveFinished() {
    // Every status but pending, named so that the store can use the status index ($ne cannot).
    const done = await Delivery.find({ status: { $in: ['delivered', 'dead_lettered', 'cancelled'] } }, { _id: 1 })
      .limit(500)
      .lean<Array<{ _id: string }>>();
    for (const d of done) await archive(d._id);
  }
  const targetKey = (producer: string, targetId: string) => `${producer}:${targetId}`;

  function outcomeEvent(
    d: DeliveryDoc,
    outcome: 'delivered' | 'dead_lettered',
    attempts: number,
    status: number | null,
    now: Date,
  ) {
    return outboxEvent(MessageTypeNames.DeliveryOutcome, d.target.id, {
      delivery_id: d._id,
      producer: d.producer,
      tenant_id: d.tenant_id,
      target_id: d.target.id,
      event_id: d.event_id,
      outcome,
      attempts,
      last_status: status,
      occurred_at: now.getTime(),
    });
  }

  async function saveAttempt(d: DeliveryDoc, attempt: number, record: AttemptRecord) {
    const doc: AttemptDoc = {
      _id: generateId('wha', record.startedAt.getTime()),
      delivery_id: d._id,
      producer: d.producer,
      tenant_id: d.tenant_id,
      target_id: d.target.id,
      event_id: d.event_id,
      event_type: d.event_type,
      attempt,
      started_at: record.startedAt,
      status: record.status,
      latency_ms: record.latencyMs,
      error: record.error,
      response_body: record.responseBody,
      expires_at: new Date(record.startedAt.getTime() + RETENTION_MS),
    };
    await Attempt.create(doc).catch((error: unknown) => {
      if (!isDuplicateKeyError(error)) throw error;
    });
  }

  return {
    async ensureIndexes() {
      await Promise.all([Delivery.init(), FinishedDelivery.init(), Attempt.init(), TargetState.init()]);
    },

    /** Collections whose documents expire (`expires_at`), for the sweeper. */
    expiringCollections() {
      return [FinishedDelivery.collection, Attempt.collection];
    },

    outboxCollections(): OutboxCollection[] {
      return [Delivery, FinishedDelivery].map((m) => connection.db!.collection(m.collection.collectionName));
    },

    /**
     * Idempotent: a re-published request with the same delivery id changes nothing, also while the delivery
     * it copies is being archived. The delivery is inserted held (leased to nobody), then looked for among the
     * finished ones, then released: archiving copies a delivery before it deletes it, so an insert that found
     * no pending document is followed by a look that finds the finished copy. Checking first and inserting
     * second left a window (the copy checked before the archive, inserted after its delete) in which a
     * delivered webhook was queued, and sent, again. A process that dies while it holds the delivery lets the
     * hold lapse, and the delivery goes out then.
     */
    async enqueue(
      request: RequestDelivery,
      traceHeaders: Record<string, string> = {},
      now = new Date(),
    ): Promise<boolean> {
      const held = new Date(now.getTime() + ENQUEUE_HOLD_MS);
      const result = await Delivery.updateOne(
        { _id: request.delivery_id },
        {
          $setOnInsert: {
            producer: request.producer,
            tenant_id: request.tenant_id,
            target: request.target,
            event_id: request.event_id,
            event_type: request.event_type,
            payload: request.payload,
            trace_headers: traceHeaders,
            status: 'pending',
            attempts: 0,
            schedule_offset: 0,
            next_attempt_at: now,
            lease_until: held,
            last_status: null,
            last_error: null,
            created_at: now,
            updated_at: now,
            finished_at: null,
            outbox: [],
            has_outbox: false,
          },
        },
        { upsert: true },
      );
      if (result.upsertedCount === 0) return false;
      if (await FinishedDelivery.exists({ _id: request.delivery_id })) {
        await Delivery.deleteOne({ _id: request.delivery_id, status: 'pending', attempts: 0, lease_until: held });
        return false;
      }
      await Delivery.updateOne(
        { _id: request.delivery_id, attempts: 0, lease_until: held },
        { $set: { lease_until: EPOCH } },
      );
      return true;
    },

    /** Leases one due delivery whose target is not saturated; null when none is due. */
    async claimDue(now: Date, leaseMs: number, busyTargets: string[]): Promise<DeliveryDoc | null> {
      return Delivery.findOneAndUpdate(
        {
          status: 'pending',
          next_attempt_at: { $lte: now },
          lease_until: { $lte: now },
          ...(busyTargets.length > 0 ? { 'target.id': { $nin: busyTargets } } : {}),
        },
        { $set: { lease_until: new Date(now.getTime() + leaseMs) } },
        { sort: { next_attempt_at: 1 }, new: true },
      ).lean<DeliveryDoc>();
    },

    /**
     * Hands back a claim that was not attempted (the dispatcher began to stop while it claimed): due again at
     * once for any dispatcher. Only the claim's own lease is cleared, so that a later claim is never undone.
     */
    async releaseClaim(d: DeliveryDoc) {
      await Delivery.updateOne(
        { _id: d._id, status: 'pending', attempts: d.attempts, lease_until: d.lease_until },
        { $set: { lease_until: EPOCH } },
      );
    },

    async nextDueAt(): Promise<Date | null> {
      const next = await Delivery.findOne({ status: 'pending' }, { next_attempt_at: 1, lease_until: 1 })
        .sort({ next_attempt_at: 1 })
        .lean<Pick<DeliveryDoc, 'next_attempt_at' | 'lease_until'>>();
      if (!next) return null;
      return new Date(Math.max(next.next_attempt_at.getTime(), next.lease_until.getTime()));
    },

    async markDelivered(d: DeliveryDoc, record: AttemptRecord, now = new Date()) {
      const attempt = d.attempts + 1;
      await saveAttempt(d, attempt, record);
      await Delivery.updateOne(
        { _id: d._id, attempts: d.attempts },
        changeWithEvents(
          {
            status: 'delivered',
            attempts: attempt,
            last_status: record.status,
            last_error: null,
            lease_until: EPOCH,
            updated_at: now,
            finished_at: now,
          },
          [outcomeEvent(d, 'delivered', attempt, record.status, now)],
        ),
      );
      await archive(d._id);
    },

    async scheduleRetry(
      d: DeliveryDoc,
      record: AttemptRecord,
      nextAt: Date,
      events: StoredOutboxEntry[] = [],
      now = new Date(),
    ) {
      const attempt = d.attempts + 1;
      await saveAttempt(d, attempt, record);
      await Delivery.updateOne(
        { _id: d._id, attempts: d.attempts },
        changeWithEvents(
          {
            attempts: attempt,
            next_attempt_at: nextAt,
            lease_until: EPOCH,
            last_status: record.status,
            last_error: record.error,
            updated_at: now,
          },
          events,
        ),
      );
    },

    async deadLetter(d: DeliveryDoc, record: AttemptRecord | null, events: StoredOutboxEntry[] = [], now = new Date()) {
      const attempt = record ? d.attempts + 1 : d.attempts;
      if (record) await saveAttempt(d, attempt, record);
      await Delivery.updateOne(
        { _id: d._id, attempts: d.attempts },
        changeWithEvents(
          {
            status: 'dead_lettered',
            attempts: attempt,
            lease_until: EPOCH,
            last_status: record?.status ?? d.last_status,
            last_error: record?.error ?? d.last_error,
            updated_at: now,
            finished_at: now,
          },
          [...events, outcomeEvent(d, 'dead_lettered', attempt, record?.status ?? null, now)],
        ),
      );
      await archive(d._id);
    },

    /** 410 Gone: the target is disabled, its pending deliveries cancelled, and its producer told. */
    async disableTarget(d: DeliveryDoc, record: AttemptRecord, reason: string, now = new Date()) {
      const attempt = d.attempts + 1;
      await saveAttempt(d, attempt, record);
      await TargetState.updateOne(
        { _id: targetKey(d.producer, d.target.id) },
        { $set: { disabled_at: now, disabled_reason: reason } },
        { upsert: true },
      );
      await Delivery.updateOne(
        { _id: d._id, attempts: d.attempts },
        changeWithEvents(
          {
            status: 'cancelled',
            attempts: attempt,
            lease_until: EPOCH,
            last_status: record.status,
            updated_at: now,
            finished_at: now,
          },
          [
            outboxEvent(MessageTypeNames.TargetDisabled, d.target.id, {
              producer: d.producer,
              tenant_id: d.tenant_id,
              target_id: d.target.id,
              reason,
              occurred_at: now.getTime(),
            }),
          ],
        ),
      );
      await Delivery.updateMany(
        { producer: d.producer, 'target.id': d.target.id, status: 'pending' },
        { $set: { status: 'cancelled', updated_at: now, finished_at: now } },
      );
      await archiveFinished();
    },

    async get(id: string): Promise<DeliveryDoc | null> {
      return (await Delivery.findById(id).lean<DeliveryDoc>()) ?? FinishedDelivery.findById(id).lean<DeliveryDoc>();
    },

    archiveFinished,

    async attemptsFor(deliveryId: string): Promise<AttemptDoc[]> {
      return Attempt.find({ delivery_id: deliveryId }).sort({ attempt: 1 }).lean<AttemptDoc[]>();
    },

    /** The delivery log of one target, newest first by default, paginated by attempt id. */
    async listAttempts<T>(
      scope: { producer: string; tenantId: string; targetId: string },
      page: PageRequest,
      present: (attempt: AttemptDoc) => T,
    ) {
      return paginate(
        page,
        (filter, sort, limit) =>
          Attempt.find({ ...filter, producer: scope.producer, tenant_id: scope.tenantId, target_id: scope.targetId })
            .sort({ _id: sort })
            .limit(limit)
            .lean<AttemptDoc[]>()
            .exec(),
        present,
      );
    },

    async getForTarget(scope: { producer: string; tenantId: string; targetId: string }, deliveryId: string) {
      const filter = {
        _id: deliveryId,
        producer: scope.producer,
        tenant_id: scope.tenantId,
        'target.id': scope.targetId,
      };
      return (
        (await Delivery.findOne(filter).lean<DeliveryDoc>()) ?? FinishedDelivery.findOne(filter).lean<DeliveryDoc>()
      );
    },

    /**
     * Manual redelivery: the named delivery, or every failed one of the target since a time, is due again
     * now with a fresh retry schedule (its earlier attempts stay in the log). Returns how many.
     */
    async redeliver(command: RedeliverDeliveries, now = new Date()): Promise<number> {
      const scope = { producer: command.producer, tenant_id: command.tenant_id, 'target.id': command.target_id };
      const filter = command.delivery_id
        ? { ...scope, _id: command.delivery_id }
        : {
            ...scope,
            status: { $in: ['dead_lettered', 'cancelled'] },
            created_at: { $gte: new Date(command.since ?? 0) },
          };
      const due = await FinishedDelivery.find(filter).lean<DeliveryDoc[]>();
      for (const d of due) {
        const again: DeliveryDoc = {
          ...d,
          status: 'pending',
          schedule_offset: d.attempts,
          next_attempt_at: now,
          lease_until: EPOCH,
          finished_at: null,
          updated_at: now,
          // Events not yet relayed travel along.
          outbox: d.outbox,
          has_outbox: d.outbox.length > 0,
          expires_at: null,
        };
        await Delivery.replaceOne({ _id: d._id }, again, { upsert: true });
        await FinishedDelivery.deleteOne({ _id: d._id });
      }
      if (due.length > 0) {
        await TargetState.updateOne(
          { _id: targetKey(command.producer, command.target_id) },
          { $set: { disabled_at: null, disabled_reason: null, failing_since: null } },
        );
      }
      return due.length;
    },

    /** Records a failed attempt against its target; true when the target has failed for longer than `windowMs`. */
    /**
     * Records a failed attempt against its target. `started`: this failure begins a streak (the target was
     * answering until now), which producers hear of as TargetFailing; `expired`: the streak is older than
     * `windowMs`, so the target is to be disabled.
     */
    async noteFailure(
      d: DeliveryDoc,
      windowMs: number,
      now = new Date(),
    ): Promise<{ started: boolean; expired: boolean }> {
      const key = targetKey(d.producer, d.target.id);
      const state = await TargetState.findOneAndUpdate(
        { _id: key },
        { $setOnInsert: { disabled_at: null, disabled_reason: null, failing_since: now } },
        { upsert: true, new: true },
      ).lean();
      if (!state?.failing_since) {
        const set = await TargetState.updateOne({ _id: key, failing_since: null }, { $set: { failing_since: now } });
        return { started: set.modifiedCount === 1, expired: windowMs <= 0 };
      }
      const since = state.failing_since.getTime();
      return { started: since === now.getTime(), expired: now.getTime() - since >= windowMs };
    },

    /** The event a producer hears when a target starts failing (see noteFailure). */
    failingEvent(d: DeliveryDoc, record: AttemptRecord, now = new Date()): StoredOutboxEntry {
      return outboxEvent(MessageTypeNames.TargetFailing, d.target.id, {
        producer: d.producer,
        tenant_id: d.tenant_id,
        target_id: d.target.id,
        delivery_id: d._id,
        last_status: record.status,
        error: record.error,
        occurred_at: now.getTime(),
      });
    },

    async noteSuccess(d: DeliveryDoc) {
      await TargetState.updateOne(
        { _id: targetKey(d.producer, d.target.id), failing_since: { $ne: null } },
        { $set: { failing_since: null } },
      );
    },
  };
}

export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
