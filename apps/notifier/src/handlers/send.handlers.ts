import type { MemberRecord } from '@platform/accounts';
import type { MessageTypeNames } from '@platform/contracts';
import { NotAllowedError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { TEMPLATE_IDS, type QueuedReply } from '@platform/notifications';
import { enqueueNotification, type RecipientRef } from '../enqueue.js';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

/** The calling user, read with the enqueue's other reads; `allow` refuses some (by throwing). */
function caller(
  deps: HandlerDeps,
  v: { deployment_id: string; user_id: string },
  allow: (user: MemberRecord) => void = () => undefined,
): RecipientRef {
  return {
    environment_id: v.deployment_id,
    _id: v.user_id,
    read: async () => {
      const user = await deps.members.get(v.deployment_id, v.user_id);
      if (!user) throw new NotFoundError('user_not_found', 'The user no longer exists.');
      allow(user);
      return user;
    },
  };
}

function notSystem(user: MemberRecord): void {
  if (user.role === 'system') throw new NotAllowedError('forbidden', 'System users cannot send custom notifications.');
}

export async function sendCustomNotification(
  deps: HandlerDeps,
  message: IncomingMessage<N['SendCustomNotification']>,
): Promise<QueuedReply> {
  const v = message.value;
  const id = await enqueueNotification(deps, {
    causeId: message.meta.id,
    recipient: caller(deps, v, notSystem),
    templateId: TEMPLATE_IDS.customNotification,
    labels: { custom_title: v.title, custom_message: v.message },
    now: new Date(v.requested_at),
  });
  return { notification_id: id };
}

export async function sendTestNotification(
  deps: HandlerDeps,
  message: IncomingMessage<N['SendTestNotification']>,
): Promise<QueuedReply> {
  const v = message.value;
  const id = await enqueueNotification(deps, {
    causeId: message.meta.id,
    recipient: caller(deps, v),
    templateId: TEMPLATE_IDS.testNotification,
    labels: {},
    now: new Date(v.requested_at),
  });
  return { notification_id: id };
}
