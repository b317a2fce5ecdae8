import type { InboxNotificationCreated } from '@platform/contracts';

type InboxNotification = InboxNotificationCreated['notification'];
import type { PreferenceDoc } from './models.js';
import { iconOf } from './templates.js';

/** An inbox notification as the API shows it (`read_at` null while unread; the icon falls back per template family). */
export interface InboxNotificationJson {
  id: string;
  user_id: string;
  template_id: string;
  targets: string[];
  title: string;
  content: string;
  icon: string;
  actions: Array<{ label: string; url: string }>;
  read_at: string | null;
  created_at: string;
}

export interface PreferenceJson {
  id: string;
  disabled: boolean;
  updated_at: string;
}

interface InboxLike {
  _id?: string;
  id?: string;
  user_id: string;
  template_id: string;
  targets: readonly string[];
  title: string;
  content: string;
  icon: string;
  actions: ReadonlyArray<{ label: string; url: string }>;
  read_at: Date | number | null;
  created_at: Date | number;
}

const iso = (at: Date | number) => new Date(at).toISOString();

export function inboxNotificationJson(doc: InboxLike): InboxNotificationJson {
  return {
    id: (doc._id ?? doc.id)!,
    user_id: doc.user_id,
    template_id: doc.template_id,
    targets: [...doc.targets],
    title: doc.title,
    content: doc.content,
    icon: iconOf({ icon: doc.icon, template_id: doc.template_id }),
    actions: doc.actions.map((a) => ({ label: a.label, url: a.url })),
    read_at: doc.read_at === null ? null : iso(doc.read_at),
    created_at: iso(doc.created_at),
  };
}

/** The notification an InboxNotificationCreated event carries, as the API shows it. */
export function inboxNotificationFromEvent(userId: string, n: InboxNotification): InboxNotificationJson {
  return inboxNotificationJson({ ...n, user_id: userId, read_at: null });
}

export function preferenceJson(doc: PreferenceDoc): PreferenceJson {
  return { id: doc.template_id, disabled: doc.disabled, updated_at: iso(doc.updated_at) };
}
