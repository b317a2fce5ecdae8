import type { MemberRecord } from '@platform/accounts';
import {
  TEMPLATES,
  laneOf,
  renderActions,
  renderTemplate,
  type DispatchMethod,
  type NotificationsStore,
  type NotificationsWriter,
  type OutgoingDoc,
  type RenderData,
} from '@platform/notifications';
import { uuidv7 } from '@platform/secrets';
import type { Kicker } from './handlers/deps.js';

/**
 * A recipient not read yet: its record is read beside the other reads of the enqueue (one round trip less);
 * `read` may throw to refuse it (a user who no longer exists, or may not send this).
 */
export interface RecipientRef {
  environment_id: string;
  _id: string;
  read: () => Promise<MemberRecord>;
}

export interface EnqueueRequest {
  /** What caused it (a command's or an event's id): queuing the same cause again is a no-op. */
  causeId: string;
  recipient: MemberRecord | RecipientRef;
  templateId: string;
  labels: Record<string, string>;
  targets?: string[];
  /** An address to e-mail instead of the recipient's own (an OAuth client's registered owner address). */
  email?: string | null;
  now?: Date;
}

export interface EnqueueDeps {
  store: NotificationsStore;
  writer: NotificationsWriter;
  methods: ReadonlyArray<'smtp' | 'webhook'>;
  dispatcher: Kicker;
}

/**
 * Renders a notification for one recipient and queues it on the recipient's lane, one delivery per method
 * (the inbox always; the template's own method, or else every enabled one), and has the lane dispatched. A
 * template the recipient disabled, or one disabled by default that they never enabled, queues nothing.
 * Returns the notification id (the first one, when the cause was queued before), or null.
 */
export async function enqueueNotification(deps: EnqueueDeps, request: EnqueueRequest): Promise<string | null> {
  const template = TEMPLATES.find((t) => t.id === request.templateId);
  if (!template) throw new Error(`no template ${request.templateId}`);
  const ref = request.recipient;
  const id = `${request.causeId}:${ref._id}`;
  const [recipient, disabled, existing] = await Promise.all([
    'read' in ref ? ref.read() : ref,
    deps.store.preferences.disabledTemplate(ref.environment_id, ref._id, template.id),
    deps.store.outgoing.get(ref.environment_id, ref._id, id),
  ]);
  const lane = laneOf(ref.environment_id, ref._id);
  if (existing) {
    deps.dispatcher.kick(lane);
    return existing.notification_id;
  }
  if (disabled ?? !template.enabled_by_default) return null;

  const data: RenderData = {
    labels: request.labels,
    userName: recipient.name,
    userUsername: recipient.username,
    userEmail: recipient.email ?? '',
    userId: recipient._id,
    notificationName: template.name,
  };
  const now = request.now ?? new Date();
  const methods: DispatchMethod[] = ['inbox', ...(template.method ? [template.method] : deps.methods)];
  const notificationId = uuidv7(now.getTime());
  const doc: Omit<OutgoingDoc, 'outbox' | 'has_outbox'> = {
    _id: id,
    deployment_id: recipient.environment_id,
    user_id: recipient._id,
    lane,
    notification_id: notificationId,
    template_id: template.id,
    targets: request.targets ?? [],
    title: renderTemplate(template.title_template, data),
    content: renderTemplate(template.body_template, data),
    icon: '',
    actions: renderActions(template.actions, data),
    email: request.email !== undefined ? request.email : recipient.email,
    labels: request.labels,
    recipient: { name: recipient.name, username: recipient.username },
    methods: [...new Set(methods)].map((method) => ({
      method,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now,
      error: null,
      done_at: null,
    })),
    pending: new Set(methods).size,
    pending_methods: [...new Set(methods)],
    next_attempt_at: now,
    created_at: now,
  };
  const insert = deps.writer.outgoing.enqueue(doc);
  // The dispatch reads the lease, the pause flag and the unread count while the insert is on its way: the
  // first frame on a watch stream waits for one round trip less.
  // A failed insert fails this enqueue below; the dispatch then reads the lane as usual.
  deps.dispatcher.kick(
    lane,
    insert.then(
      (queued) => (queued ? { ...doc, outbox: [], has_outbox: false } : null),
      () => null,
    ),
  );
  if (await insert) return notificationId;
  return (await deps.store.outgoing.get(ref.environment_id, ref._id, id))?.notification_id ?? null;
}
