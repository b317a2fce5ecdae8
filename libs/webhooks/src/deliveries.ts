import { createHash } from 'node:crypto';
import type { RequestDelivery } from '@platform/contracts';
import { MessageTypeNames } from '@platform/contracts';
import type { mongo } from 'mongoose';
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
import { nextSequence, type QueuedItem } from '@platform/redis';
import { generateId } from '@platform/secrets';
import type { RedeliverDeliveries } from '@platform/contracts';
import { webhookModels, type AttemptDoc, type DeliveryDoc, type DeliveryTarget } from './models.js';

type Document = mongo.Document;
type WriteFailure = { index: number; code?: number };

/** How long finished deliveries and their attempts stay readable (delivery log, redelivery). */
export const RETENTION_MS = 30 * 24 * 3600_000;

/** Deliveries to one target of one producer share a group: its concurrency, and later its rate, is bounded. */
export function deliveryGroup(d: { producer: string; target: { id: string } }): string {
  return `${d.producer}:${d.target.id}`;
}

const QUEUE_FIELDS = {
  _id: 1,
  producer: 1,
  'target.id': 1,
  'target.rate_limit': 1,
  status: 1,
  next_attempt_at: 1,
  ordering_key: 1,
  sequence: 1,
} as const;
type QueueFields = Pick<
  DeliveryDoc,
  '_id' | 'producer' | 'status' | 'next_attempt_at' | 'ordering_key' | 'sequence'
> & {
  target: Pick<DeliveryTarget, 'id' | 'rate_limit'>;
};

function newDelivery(
  request: RequestDelivery,
  traceHeaders: Record<string, string>,
  now: Date,
  sequence: number,
): DeliveryDoc {
  return {
    _id: request.delivery_id,
    producer: request.producer,
    tenant_id: request.tenant_id,
    target: request.target,
    event_id: request.event_id,
    event_type: request.event_type,
    payload: request.payload,
    ordering_key: request.ordering_key ?? null,
    sequence,
    trace_headers: traceHeaders,
    status: 'pending',
    attempts: 0,
    schedule_offset: 0,
    next_attempt_at: now,
    last_status: null,
    last_error: null,
    created_at: now,
    updated_at: now,
    finished_at: null,
    expires_at: null,
    outbox: [],
    has_outbox: false,
  };
}

/**
 * Publishes events at once, instead of through the outbox (see `recordDelivered`); rejects when they may not all
 * have been published (the caller's timeout included).
 */
export type EventPublisher = (events: StoredOutboxEntry[]) => Promise<void>;

/** A UUID (version 5 layout) that names one outcome of one attempt: a copy of that event carries the same id. */
function outcomeId(deliveryId: string, attempt: number): string {
  const hex = createHash('sha1').update(`webhook-outcome\u0000${deliveryId}\u0000${attempt}`).digest('hex');
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A new delivery larger than this goes to the queue without its body, and its first claim reads the store. */
const MAX_QUEUED_BODY = 16 * 1024;
const DATE_FIELDS = ['next_attempt_at', 'created_at', 'updated_at', 'finished_at', 'expires_at'] as const;

/** A new delivery as its queue item's body (`QueuedItem.body`): its record as inserted, handed to its first claim. */
function bodyOf(doc: DeliveryDoc): string | undefined {
  const body = JSON.stringify(doc);
  return body.length <= MAX_QUEUED_BODY ? body : undefined;
}

/** The delivery a first claim carries (`Claim.body`), as the store holds it. */
export function deliveryFromBody(body: string): DeliveryDoc {
  const doc = JSON.parse(body) as Record<string, unknown>;
  for (const field of DATE_FIELDS) {
    const value = doc[field];
    if (typeof value === 'string') doc[field] = new Date(value);
  }
  return doc as unknown as DeliveryDoc;
}

/** The positions of an unordered insert's documents that were there already; undefined if anything else failed. */
function duplicatesOnly(error: unknown): number[] | undefined {
  // The driver names one failure alone, and several in an array.
  const named = (error as { writeErrors?: WriteFailure | WriteFailure[] }).writeErrors;
  const failures = named === undefined ? [] : [named].flat();
  if (failures.length === 0 || failures.some((f) => f.code !== 11000)) return undefined;
  return failures.map((f) => f.index);
}

const queueItemOf = (d: QueueFields): QueuedItem => ({
  id: d._id,
  group: deliveryGroup(d),
  dueAt: d.next_attempt_at.getTime(),
  key: d.ordering_key ?? null,
  rate: d.target.rate_limit ?? null,
  sequence: d.sequence ?? 0,
});

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
  // The hot writes go to the driver's collection: no document hydration or casting for what is built here.
  const deliveries = () => connection.db!.collection(Delivery.collection.collectionName);
  const finishedDeliveries = () => connection.db!.collection(FinishedDelivery.collection.collectionName);

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

  /**
   * Inserts finished copies in one command; one already there is replaced when its attempt count compares with
   * the copy's as `older` says (a copy of fewer attempts is an older finish), and kept otherwise.
   */
  async function insertFinished(copies: DeliveryDoc[], older: '$lt' | '$lte') {
    try {
      await finishedDeliveries().insertMany(copies as unknown as Document[], { ordered: false });
    } catch (error) {
      const failed = duplicatesOnly(error);
      if (failed === undefined) throw error;
      for (const index of failed) {
        const copy = copies[index]!;
        await FinishedDelivery.replaceOne({ _id: copy._id, attempts: { [older]: copy.attempts } }, copy);
      }
    }
  }

  /**
   * Moves finished deliveries out of the hot collection in batches: copies first, then deletes (a crash
   * duplicates, never loses). Those whose events the relay has not cleared yet wait for the next round, so that
   * their events are not copied along and published twice.
   */
  async function archiveFinished() {
    for (let round = 0; round < 10; round++) {
      // Every status but pending, named so that the store can use the status index ($ne cannot).
      const done = await Delivery.find({
        status: { $in: ['delivered', 'dead_lettered', 'cancelled'] },
        has_outbox: false,
      })
        .limit(500)
        .lean<DeliveryDoc[]>();
      if (done.length === 0) return;
      const expires = new Date(Date.now() + RETENTION_MS);
      // A finished copy there already is an older one (a redelivery ended again), which this one replaces, or
      // one of a later attempt (delivered while this record was cancelled by its target's disabling), kept.
      await insertFinished(
        done.map((d) => ({ ...d, expires_at: expires })),
        '$lte',
      );
      await Delivery.deleteMany({ _id: { $in: done.map((d) => d._id) }, status: { $ne: 'pending' } });
      if (done.length < 500) return;
    }
  }
  const targetKey = (producer: string, targetId: string) => deliveryGroup({ producer, target: { id: targetId } });

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

  function attemptDoc(d: DeliveryDoc, attempt: number, record: AttemptRecord): AttemptDoc {
    return {
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
  }

  async function saveAttempt(d: DeliveryDoc, attempt: number, record: AttemptRecord) {
    await Attempt.create(attemptDoc(d, attempt, record)).catch((error: unknown) => {
      if (!isDuplicateKeyError(error)) throw error;
    });
  }

  /** Inserts what is not there yet, in one command; documents already there (a retried write) are left alone. */
  async function insertNew(collection: mongo.Collection<Document>, docs: object[]) {
    if (docs.length === 0) return;
    try {
      await collection.insertMany(docs as Document[], { ordered: false });
    } catch (error) {
      if (duplicatesOnly(error) === undefined) throw error;
    }
  }

  /**
   * Idempotent: a re-published request with the same delivery id changes nothing, also while the delivery
   * it copies is being archived. Returns, for every request, the queue item of its delivery if that is
   * pending (new, or a copy of a request whose scheduling was lost), or null for one already finished;
   * scheduling them is the caller's (the queue skips what it holds already). One insert of the whole batch and
   * one look among the finished ones; a look at the pending ones only for copies.
   *
   * The insert comes first, the look among the finished ones second: archiving copies a delivery before it
   * deletes it, so an insert that found no pending document is followed by a look that finds the finished
   * copy. Checking first and inserting second left a window (the copy checked before the archive, inserted
   * after its delete) in which a delivered webhook was queued, and sent, again. Nothing claims the inserted
   * document meanwhile: claims come from the queue, which hears of it only after the look.
   */
  async function enqueueMany(
    requests: Array<{ request: RequestDelivery; trace?: Record<string, string> }>,
    now = new Date(),
  ): Promise<Array<QueuedItem | null>> {
    // A batch may carry copies of one request (at-least-once publishers): the first stands for them all.
    const unique = [...new Map(requests.map((r) => [r.request.delivery_id, r])).values()];
    // In the order received, which is the order requested for one target (its requests share a partition).
    const docs = unique.map(({ request, trace }) => newDelivery(request, trace ?? {}, now, nextSequence()));
    const copies = new Set<string>();
    try {
      await deliveries().insertMany(docs as unknown as Document[], { ordered: false });
    } catch (error) {
      const failed = duplicatesOnly(error);
      if (failed === undefined) throw error;
      for (const index of failed) copies.add(docs[index]!._id);
    }
    const inserted = docs.filter((d) => !copies.has(d._id)).map((d) => d._id);
    const [finished, pendingCopies] = await Promise.all([
      inserted.length === 0
        ? []
        : FinishedDelivery.find({ _id: { $in: inserted } }, { _id: 1 }).lean<Array<{ _id: string }>>(),
      copies.size === 0
        ? []
        : Delivery.find({ _id: { $in: [...copies] }, status: 'pending' }, QUEUE_FIELDS).lean<QueueFields[]>(),
    ]);
    const gone = new Set(finished.map((d) => d._id));
    if (gone.size > 0) await Delivery.deleteMany({ _id: { $in: [...gone] }, status: 'pending', attempts: 0 });
    const items = new Map<string, QueuedItem>();
    for (const d of docs) {
      if (copies.has(d._id) || gone.has(d._id)) continue;
      const body = bodyOf(d);
      items.set(d._id, { ...queueItemOf(d), ...(body ? { body } : {}) });
    }
    for (const d of pendingCopies) items.set(d._id, queueItemOf(d));
    return requests.map((r) => items.get(r.request.delivery_id) ?? null);
  }

  return {
    /** The database the deliveries live in: the lease queue in Redis is named after it. */
    databaseName: connection.name,

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

    enqueueMany,

    /** `enqueueMany` of one request. */
    async enqueue(
      request: RequestDelivery,
      traceHeaders: Record<string, string> = {},
      now = new Date(),
    ): Promise<QueuedItem | null> {
      const [item] = await enqueueMany([{ request, trace: traceHeaders }], now);
      return item ?? null;
    },

    /**
     * The claimed deliveries, in one read of each collection; a claim whose delivery is missing or finished is
     * absent. A pending one with a finished copy of a later attempt was delivered by a dispatcher that died
     * between the two writes of `recordDelivered`: it is removed here, not sent again.
     */
    async pendingByIds(ids: string[]): Promise<DeliveryDoc[]> {
      if (ids.length === 0) return [];
      const [pending, finished] = await Promise.all([
        Delivery.find({ _id: { $in: ids }, status: 'pending' }).lean<DeliveryDoc[]>(),
        FinishedDelivery.find({ _id: { $in: ids } }, { attempts: 1 }).lean<Array<{ _id: string; attempts: number }>>(),
      ]);
      const finishedAfter = new Map(finished.map((f) => [f._id, f.attempts]));
      const done = pending.filter((d) => (finishedAfter.get(d._id) ?? -1) > d.attempts);
      if (done.length > 0) {
        await deliveries().bulkWrite(
          done.map((d) => ({
            deleteOne: { filter: { _id: d._id, status: 'pending', attempts: d.attempts } as Document },
          })),
          { ordered: false },
        );
      }
      return pending.filter((d) => !done.includes(d));
    },

    /**
     * Every pending delivery created before `createdBefore`, as queue items: what rebuilds the queue when
     * Redis lost it (scheduling skips what it holds). Newer ones are left to their enqueue, still between its
     * insert and its look among the finished ones.
     */
    async pendingItems(createdBefore: Date): Promise<QueuedItem[]> {
      // In the order received, so that deliveries sharing an ordering key queue up again in their order.
      const docs = await Delivery.find({ status: 'pending', created_at: { $lte: createdBefore } }, QUEUE_FIELDS)
        .sort({ sequence: 1 })
        .lean<QueueFields[]>();
      return docs.map(queueItemOf);
    },

    /**
     * Several delivered attempts recorded at once, in a few store statements whatever their number: their
     * attempts inserted, the deliveries written as finished with their outcome events, and their targets marked
     * answering. Every write is conditional on the attempt count, so a retried one changes nothing.
     *
     * A delivery that was only ever pending (its first attempt, no event waiting in it) goes straight to the
     * finished collection, its pending record then deleted (a crash between the two leaves a pending record that
     * `pendingByIds` recognises); any other is marked delivered where it is, and archived later by
     * `archiveFinished`. With `publish`, the outcome events of the first kind are published before they are
     * written, and written without an outbox: the relay's read and acknowledgement of each (two statements a
     * delivery on FerretDB) are saved. Their ids derive from the delivery and the attempt, so that a dispatcher
     * that dies between the publish and the write, and attempts the delivery again, publishes the same event
     * again, which consumers drop as a copy. A publish that fails leaves the events to the outbox, as without it.
     */
    async recordDelivered(
      outcomes: Array<{ delivery: DeliveryDoc; record: AttemptRecord }>,
      options: { now?: Date; publish?: EventPublisher } = {},
    ) {
      if (outcomes.length === 0) return;
      const now = options.now ?? new Date();
      await insertNew(
        Attempt.collection as unknown as mongo.Collection<Document>,
        outcomes.map(({ delivery: d, record }) => attemptDoc(d, d.attempts + 1, record)),
      );
      const delivered = (d: DeliveryDoc, record: AttemptRecord) => ({
        status: 'delivered' as const,
        attempts: d.attempts + 1,
        last_status: record.status,
        last_error: null,
        updated_at: now,
        finished_at: now,
      });
      const direct = outcomes.filter(({ delivery: d }) => d.attempts === 0 && d.outbox.length === 0);
      const inPlace = outcomes.filter((o) => !direct.includes(o));
      if (direct.length > 0) {
        const expires = new Date(now.getTime() + RETENTION_MS);
        const events = direct.map(({ delivery: d, record }) => ({
          ...outcomeEvent(d, 'delivered', d.attempts + 1, record.status, now),
          id: outcomeId(d._id, d.attempts + 1),
        }));
        const published = options.publish
          ? await options.publish(events).then(
              () => true,
              () => false,
            )
          : false;
        const copies: DeliveryDoc[] = direct.map(({ delivery: d, record }, i) => ({
          ...d,
          ...delivered(d, record),
          expires_at: expires,
          outbox: published ? [] : [events[i]!],
          has_outbox: !published,
        }));
        // There already: this write retried (left alone, its event perhaps relayed) or an older finish of a
        // redelivered one (replaced).
        await insertFinished(copies, '$lt');
        // One statement for all (each `deleteOne` of a bulk write is read twice by FerretDB); all were on their
        // first attempt.
        await deliveries().deleteMany({
          _id: { $in: direct.map(({ delivery: d }) => d._id) },
          status: 'pending',
          attempts: 0,
          has_outbox: false,
        } as Document);
      }
      if (inPlace.length > 0) {
        await deliveries().bulkWrite(
          inPlace.map(({ delivery: d, record }) => ({
            updateOne: {
              filter: { _id: d._id, attempts: d.attempts } as Document,
              update: changeWithEvents(delivered(d, record), [
                outcomeEvent(d, 'delivered', d.attempts + 1, record.status, now),
              ]) as Document,
            },
          })),
          { ordered: false },
        );
      }
      const targets = [...new Set(outcomes.map(({ delivery: d }) => targetKey(d.producer, d.target.id)))];
      await TargetState.updateMany(
        { _id: { $in: targets }, failing_since: { $ne: null } },
        { $set: { failing_since: null } },
      );
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
     * now with a fresh retry schedule (its earlier attempts stay in the log). Returns their queue items.
     */
    async redeliver(command: RedeliverDeliveries, now = new Date()): Promise<QueuedItem[]> {
      const scope = { producer: command.producer, tenant_id: command.tenant_id, 'target.id': command.target_id };
      const filter = command.delivery_id
        ? { ...scope, _id: command.delivery_id }
        : {
            ...scope,
            status: { $in: ['dead_lettered', 'cancelled'] },
            created_at: { $gte: new Date(command.since ?? 0) },
          };
      // Finished ones wait in the hot collection until they are archived (in batches, once their events are out).
      const done = { $in: ['delivered', 'dead_lettered', 'cancelled'] };
      const hotFilter = command.delivery_id ? { ...filter, status: done } : filter;
      const [hot, archived] = await Promise.all([
        Delivery.find(hotFilter).lean<DeliveryDoc[]>(),
        FinishedDelivery.find(filter).lean<DeliveryDoc[]>(),
      ]);
      // In their first order, to the end of their ordering key's line (a new place each).
      const due = [...new Map([...archived, ...hot].map((d) => [d._id, d])).values()].sort(
        (a, b) => (a.sequence ?? 0) - (b.sequence ?? 0),
      );
      const items: QueuedItem[] = [];
      for (const d of due) {
        const again: DeliveryDoc = {
          ...d,
          sequence: nextSequence(),
          status: 'pending',
          schedule_offset: d.attempts,
          next_attempt_at: now,
          finished_at: null,
          updated_at: now,
          // Events not yet relayed travel along.
          outbox: d.outbox,
          has_outbox: d.outbox.length > 0,
          expires_at: null,
        };
        await Delivery.replaceOne({ _id: d._id }, again, { upsert: true });
        await FinishedDelivery.deleteOne({ _id: d._id });
        // The endpoint's rate may have changed since this record was made: the queue keeps the one it has.
        items.push({ ...queueItemOf(again), rate: undefined });
      }
      if (due.length > 0) {
        await TargetState.updateOne(
          { _id: targetKey(command.producer, command.target_id) },
          { $set: { disabled_at: null, disabled_reason: null, failing_since: null } },
        );
      }
      return items;
    },

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
  };
}

export type DeliveryStore = ReturnType<typeof createDeliveryStore>;
