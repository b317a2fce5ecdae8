import { Schema, defineModel, outboxSchemaFields, type Connection, type StoredOutboxEntry } from '@platform/mongo';
import type { UnreadDoc } from './unread.js';

export interface Outboxed {
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

const options = { versionKey: false as const, minimize: false };
const actionSchema = { type: [{ _id: false, label: String, url: String }], default: [] };

/** The notifications collections (private to this lib: the gateway reads through the store, the notifier writes through the writer). */
export function notificationModels(connection: Connection) {
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
    Unread: model('NotifUnread', unread),
  };
}

export type NotificationsModels = ReturnType<typeof notificationModels>;

/** `<deployment>:<user>`: a user's lane (the unit of ordering and leasing), unread count and read mark. */
export const laneOf = (deploymentId: string, userId: string) => `${deploymentId}:${userId}`;
export const userOfLane = (lane: string) => ({
  deployment_id: lane.slice(0, lane.indexOf(':')),
  user_id: lane.slice(lane.indexOf(':') + 1),
});
