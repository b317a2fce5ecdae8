import {
  Schema,
  aggregateWriter,
  defineModel,
  isDuplicateKeyError,
  outboxSchemaFields,
  type Connection,
  type OutboxCollection,
  type StoredOutboxEntry,
} from '@platform/mongo';
import { INBOX_PAGE_SIZE, type InboxFilter } from './inbox-query.js';
import { createUnreadCounter, readUnread, type UnreadDoc } from './unread.js';

interface Outboxed {
  outbox: StoredOutboxEntry[];
  has_outbox: boolean;
}

export interface InboxAction {
  label: string;
  url: string;
}

/** One notification in a user's inbox; `_id` is the notification's UUIDv7 (its creation order). */
export interface InboxDoc extends Outboxed {
  _id: string;
  deployment_id: string;
  user_id: string;
  template_id: string;
  targets: string[];
  title: string;
  content: string;
  icon: string;
  actions: InboxAction[];
  read_at: Date | null;
  created_at: Date;
}

export type DispatchMethod = 'inbox' | 'smtp' | 'webhook';
export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'skipped';

export interface MethodDelivery {
  method: DispatchMethod;
  status: DeliveryStatus;
  attempts: number;
  next_attempt_at: Date;
  error: string | null;
  done_at: Date | null;
}

/**
 * A notification on its way out: rendered once when it is queued, then sent through each of its methods in
 * the order the user's notifications were queued (the lane). `_id` derives from what caused it (a command or
 * an event id), so queuing it again is a no-op.
 */
export interface OutgoingDoc extends Outboxed {
  _id: string;
  deployment_id: string;
  user_id: string;
  /** `<deployment>:<user>`: the unit of ordering and of leasing. */
  lane: string;
  /** UUIDv7 given when queued: the order within the lane, and the inbox notification's id. */
  notification_id: string;
  template_id: string;
  targets: string[];
  title: string;
  content: string;
  icon: string;
  actions: InboxAction[];
  /** The recipient's address when it was queued, for `smtp`. */
  email: string | null;
  /** The labels it was rendered with, and who it was for, as the webhook payload carries them. */
  labels: Record<string, string>;
  recipient: { name: string; username: string };
  methods: MethodDelivery[];
  /** Methods not yet sent, failed or skipped; 0 when the notification is done. */
  pending: number;
  /** Those methods by name (what a lane's queue per method is read by). */
  pending_methods: DispatchMethod[];
  /** The earliest time a pending method may be tried. */
  next_attempt_at: Date;
  created_at: Date;
}

export interface PreferenceDoc {
  _id: string;
  deployment_id: string;
  user_id: string;
  template_id: string;
  disabled: boolean;
  updated_at: Date;
}

export interface SettingsDoc extends Outboxed {
  _id: string;
  notifier_paused: boolean;
  updated_at: Date;
}

/** Where a user's mark-all-as-read is recorded, with its event (one write, whatever the number marked). */
export interface ReadMarkDoc extends Outboxed {
  _id: string;
  read_at: Date;
}

export interface LaneDoc {
  _id: string;
  holder: string;
  lease_until: Date;
}

const options = { versionKey: false as const, minimize: false };
const actionSchema = { type: [{ _id: false, label: String, url: String }], default: [] };

/** The notifications collections (private to this lib: the gateway reads through the store, the notifier writes through the writer). */
function notificationModels(connection: Connection) {
  const inbox = new Schema<InboxDoc>(
    {
      _id: String,
      deployment_id: { type: String, required: true },
      user_id: { type: String, required: true },
      template_id: { type: String, required: true },
      targets: { type: [String], default: [] },
      title: String,
      content: String,
      icon: String,
      actions: actionSchema,
      read_at: { type: Date, default: null },
      created_at: Date,
      ...outboxSchemaFields,
    },
    { ...options, collection: 'notif_inbox' },
  )
    .index({ deployment_id: 1, user_id: 1, _id: -1 })
    .index({ deployment_id: 1, user_id: 1, read_at: 1 });

  const outgoing = new Schema<OutgoingDoc>(
    {
      _id: String,
      deployment_id: { type: String, required: true },
      user_id: { type: String, required: true },
      lane: { type: String, required: true },
      notification_id: { type: String, required: true },
      template_id: String,
      targets: { type: [String], default: [] },
      title: String,
      content: String,
      icon: String,
      actions: actionSchema,
      email: { type: String, default: null },
      labels: { type: Object, default: {} },
      recipient: { _id: false, name: String, username: String },
      methods: {
        type: [
          {
            _id: false,
            method: String,
            status: String,
            attempts: Number,
            next_attempt_at: Date,
            error: String,
            done_at: Date,
          },
        ],
        default: [],
      },
      pending: { type: Number, required: true },
      pending_methods: { type: [String], default: [] },
      next_attempt_at: Date,
      created_at: Date,
      ...outboxSchemaFields,
    },
    { ...options, collection: 'notif_outgoing' },
  )
    .index({ lane: 1, pending_methods: 1, notification_id: 1 })
    .index({ pending: 1, next_attempt_at: 1 });

  const preference = new Schema<PreferenceDoc>(
    { _id: String, deployment_id: String, user_id: String, template_id: String, disabled: Boolean, updated_at: Date },
    { ...options, collection: 'notif_preferences' },
  ).index({ deployment_id: 1, user_id: 1 });

  const settings = new Schema<SettingsDoc>(
    { _id: String, notifier_paused: { type: Boolean, default: false }, updated_at: Date, ...outboxSchemaFields },
    { ...options, collection: 'notif_settings' },
  );

  const readMark = new Schema<ReadMarkDoc>(
    { _id: String, read_at: Date, ...outboxSchemaFields },
    { ...options, collection: 'notif_read_marks' },
  );

  const lane = new Schema<LaneDoc>(
    { _id: String, holder: String, lease_until: Date },
    { ...options, collection: 'notif_lanes' },
  );

  const unread = new Schema<UnreadDoc>(
    { _id: String, unread: Number, pending: { type: [String], default: [] }, v: Number },
    { ...options, collection: 'notif_unread' },
  );

  const model = <T>(name: string, schema: Schema<T>) => defineModel(connection, name, schema);
  return {
    Inbox: model('NotifInbox', inbox),
    Outgoing: model('NotifOutgoing', outgoing),
    Preference: model('NotifPreference', preference),
    Settings: model('NotifSettings', settings),
    ReadMark: model('NotifReadMark', readMark),
    Lane: model('NotifLane', lane),
    Unread: model('NotifUnread', unread),
  };
}

export const laneOf = (deploymentId: string, userId: string) => `${deploymentId}:${userId}`;
const userOfLane = (lane: string) => ({
  deployment_id: lane.slice(0, lane.indexOf(':')),
  user_id: lane.slice(lane.indexOf(':') + 1),
});

/** Counts a user's unread notifications in the inbox itself (what the stored count stands for). */
const countUnread = (m: ReturnType<typeof notificationModels>, lane: string) =>
  m.Inbox.countDocuments({ ...userOfLane(lane), read_at: null }).exec();
const preferenceId = (deploymentId: string, userId: string, templateId: string) =>
  `${deploymentId}:${userId}:${templateId}`;

function inboxFilter(deploymentId: string, userId: string, filter: InboxFilter): Record<string, unknown> {
  const query: Record<string, unknown> = { deployment_id: deploymentId, user_id: userId };
  if (filter.templates.length > 0) query['template_id'] = { $in: filter.templates };
  if (filter.targets.length > 0) query['targets'] = { $all: filter.targets };
  if (filter.readStatus === 'read') query['read_at'] = { $ne: null };
  if (filter.readStatus === 'unread') query['read_at'] = null;
  return query;
}

/** Reads of the notifications data, always scoped by deployment and user. */
export function createNotificationsStore(connection: Connection) {
  const m = notificationModels(connection);
  return {
    /** The user's unread count: the stored one when it is good (one `_id` read), else the inbox counted. */
    unreadCount(deploymentId: string, userId: string): Promise<number> {
      const lane = laneOf(deploymentId, userId);
      return readUnread(m.Unread, lane, () => countUnread(m, lane));
    },
    async getInbox(deploymentId: string, userId: string, id: string): Promise<InboxDoc | null> {
      return m.Inbox.findOne({ _id: id, deployment_id: deploymentId, user_id: userId }).lean<InboxDoc>();
    },
    /**
     * A page of the inbox, newest first. `startingBefore` is a notification id: only older ones are listed (an
     * id that is not the caller's reads as "now", as Coder does). Ids are UUIDv7, so they order by creation.
     */
    async listInbox(
      deploymentId: string,
      userId: string,
      filter: InboxFilter,
      startingBefore?: string,
    ): Promise<InboxDoc[]> {
      const query = inboxFilter(deploymentId, userId, filter);
      if (startingBefore) {
        const cursor = await m.Inbox.exists({ _id: startingBefore, deployment_id: deploymentId, user_id: userId });
        if (cursor) query['_id'] = { $lt: startingBefore };
      }
      return m.Inbox.find(query).sort({ _id: -1 }).limit(INBOX_PAGE_SIZE).lean<InboxDoc[]>();
    },
    /** The notifications after `afterId`, oldest first (a stream's resume), at most `limit`. */
    async inboxAfter(
      deploymentId: string,
      userId: string,
      filter: InboxFilter,
      afterId: string,
      limit: number,
    ): Promise<InboxDoc[]> {
      const query = { ...inboxFilter(deploymentId, userId, filter), _id: { $gt: afterId } };
      return m.Inbox.find(query).sort({ _id: 1 }).limit(limit).lean<InboxDoc[]>();
    },
    async preferences(deploymentId: string, userId: string): Promise<PreferenceDoc[]> {
      return m.Preference.find({ deployment_id: deploymentId, user_id: userId })
        .sort({ template_id: 1 })
        .lean<PreferenceDoc[]>();
    },
    async disabledTemplate(deploymentId: string, userId: string, templateId: string): Promise<boolean | null> {
      const doc = await m.Preference.findById(preferenceId(deploymentId, userId, templateId)).lean<PreferenceDoc>();
      return doc ? doc.disabled : null;
    },
    async settings(deploymentId: string): Promise<{ notifier_paused: boolean }> {
      const doc = await m.Settings.findById(deploymentId).lean<SettingsDoc>();
      return { notifier_paused: doc?.notifier_paused ?? false };
    },
    async getOutgoing(id: string): Promise<OutgoingDoc | null> {
      return m.Outgoing.findById(id).lean<OutgoingDoc>();
    },
    /** The oldest notification of a lane still to be sent by `method` (each method keeps the lane's order). */
    async laneHead(lane: string, method: DispatchMethod): Promise<OutgoingDoc | null> {
      return m.Outgoing.findOne({ lane, pending_methods: method }).sort({ notification_id: 1 }).lean<OutgoingDoc>();
    },
    /** The oldest `limit` notifications of a lane with a method still to go, oldest first: every method's head at once. */
    async lanePending(lane: string, limit: number): Promise<OutgoingDoc[]> {
      // By `pending_methods`, as `laneHead`: the lane's index holds only what is still to go, never its history.
      const methods: DispatchMethod[] = ['inbox', 'smtp', 'webhook'];
      return m.Outgoing.find({ lane, pending_methods: { $in: methods } })
        .sort({ notification_id: 1 })
        .limit(limit)
        .lean<OutgoingDoc[]>();
    },
    /** The lanes of a deployment with something waiting. */
    async pendingLanes(deploymentId: string): Promise<string[]> {
      const lanes = (await m.Outgoing.distinct('lane', {
        deployment_id: deploymentId,
        pending: { $gt: 0 },
      })) as string[];
      return lanes;
    },
    /** Which of these deployments are paused. */
    async pausedAmong(deploymentIds: string[]): Promise<Set<string>> {
      const docs = await m.Settings.find({ _id: { $in: deploymentIds }, notifier_paused: true }, { _id: 1 }).lean<
        Array<{ _id: string }>
      >();
      return new Set(docs.map((d) => d._id));
    },
    /** Lanes with something due (retries, work of a crashed process, a deployment unpaused). */
    async dueLanes(now: Date, limit: number): Promise<Array<{ lane: string; deployment_id: string }>> {
      const docs = await m.Outgoing.find(
        { pending: { $gt: 0 }, next_attempt_at: { $lte: now } },
        { lane: 1, deployment_id: 1 },
      )
        .sort({ next_attempt_at: 1 })
        .limit(limit)
        .lean<Array<{ lane: string; deployment_id: string }>>();
      const seen = new Map(docs.map((d) => [d.lane, { lane: d.lane, deployment_id: d.deployment_id }]));
      return [...seen.values()];
    },
    outboxCollections(): OutboxCollection[] {
      return [m.Inbox, m.Outgoing, m.Settings, m.ReadMark].map((x) =>
        connection.db!.collection(x.collection.collectionName),
      );
    },
    async ensureIndexes() {
      await Promise.all(Object.values(m).map((x) => x.init()));
    },
  };
}

export type NotificationsStore = ReturnType<typeof createNotificationsStore>;

/** The notifications writes, each with the events that report it: owned by the notifier (a lint rule keeps other apps out). */
export function createNotificationsWriter(connection: Connection) {
  const m = notificationModels(connection);
  const inbox = aggregateWriter<InboxDoc>(m.Inbox);
  const outgoing = aggregateWriter<OutgoingDoc>(m.Outgoing);
  return {
    inbox,
    outgoing,
    settings: aggregateWriter<SettingsDoc>(m.Settings),
    readMarks: aggregateWriter<ReadMarkDoc>(m.ReadMark),
    /** The stored unread count: every change of the inbox that may move it goes between `begin` and `end`. */
    unread: createUnreadCounter(m.Unread, (lane) => countUnread(m, lane)),
    /** Queues a notification; false when it was queued before (a redelivered cause). */
    enqueue: (doc: Omit<OutgoingDoc, 'outbox' | 'has_outbox'>) => outgoing.insertOnce(doc, []),
    /** Inserts an inbox notification once; false when it is there already (a method redone after a crash). */
    insertInbox: (doc: Omit<InboxDoc, 'outbox' | 'has_outbox'>, events: StoredOutboxEntry[]) =>
      inbox.insertOnce(doc, events),
    /** Marks every unread notification of the user created up to `readAt` read; returns how many. */
    async markAllRead(deploymentId: string, userId: string, readAt: Date): Promise<number> {
      const result = await m.Inbox.updateMany(
        { deployment_id: deploymentId, user_id: userId, read_at: null, created_at: { $lte: readAt } },
        { $set: { read_at: readAt } },
      );
      return result.modifiedCount;
    },
    async recordReadMark(
      deploymentId: string,
      userId: string,
      readAt: Date,
      events: StoredOutboxEntry[],
    ): Promise<string> {
      const _id = laneOf(deploymentId, userId);
      await m.ReadMark.updateOne(
        { _id },
        { $set: { read_at: readAt, has_outbox: true }, $push: { outbox: { $each: events } } },
        { upsert: true },
      );
      return _id;
    },
    async setPreferences(
      deploymentId: string,
      userId: string,
      changes: Record<string, boolean>,
      at: Date,
    ): Promise<void> {
      await Promise.all(
        Object.entries(changes).map(([templateId, disabled]) =>
          m.Preference.updateOne(
            { _id: preferenceId(deploymentId, userId, templateId) },
            {
              $set: { deployment_id: deploymentId, user_id: userId, template_id: templateId, disabled, updated_at: at },
            },
            { upsert: true },
          ),
        ),
      );
    },
    /** Sets the deployment's pause flag with its event; false when it already had that value. */
    async setPaused(deploymentId: string, paused: boolean, at: Date, events: StoredOutboxEntry[]): Promise<boolean> {
      try {
        const result = await m.Settings.updateOne(
          { _id: deploymentId, notifier_paused: { $ne: paused } },
          { $set: { notifier_paused: paused, updated_at: at, has_outbox: true }, $push: { outbox: { $each: events } } },
          { upsert: true },
        );
        return result.modifiedCount + result.upsertedCount > 0;
      } catch (error) {
        if (isDuplicateKeyError(error)) return false; // the document exists with that value already
        throw error;
      }
    },
    /**
     * Takes (or renews) the lease on a lane for `ms`; false when another process holds it. Leases expire, so a
     * process that dies holding one delays its lane by at most one lease.
     */
    async leaseLane(lane: string, holder: string, ms: number, now = new Date()): Promise<boolean> {
      try {
        const result = await m.Lane.updateOne(
          { _id: lane, $or: [{ holder }, { lease_until: { $lt: now } }] },
          { $set: { holder, lease_until: new Date(now.getTime() + ms) } },
          { upsert: true },
        );
        return result.modifiedCount + result.upsertedCount > 0 || result.matchedCount > 0;
      } catch (error) {
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },
    async releaseLane(lane: string, holder: string): Promise<void> {
      await m.Lane.deleteOne({ _id: lane, holder });
    },
  };
}

export type NotificationsWriter = ReturnType<typeof createNotificationsWriter>;
