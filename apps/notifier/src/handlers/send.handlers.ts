import type { MessageTypeNames } from '@platform/contracts';
import { NotAllowedError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { TEMPLATE_IDS, laneOf, type QueuedReply } from '@platform/notifications';
import { enqueueNotification } from '../enqueue.js';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

async function caller(deps: HandlerDeps, v: { deployment_id: string; user_id: string }) {
  const user = await deps.members.get(v.deployment_id, v.user_id);
  if (!user) throw new NotFoundError('user_not_found', 'The user no longer exists.');
  return user;
}

export async function sendCustomNotification(deps: HandlerDeps, message: IncomingMessage<N['SendCustomNotification']>): Promise<QueuedReply> {
  const v = message.value;
  const user = await caller(deps, v);
  if (user.role === 'system') throw new NotAllowedError('forbidden', 'System users cannot send custom notifications.');
  const id = await enqueueNotification(deps, {
    causeId: message.meta.id,
    recipient: user,
    templateId: TEMPLATE_IDS.customNotification,
    labels: { custom_title: v.title, custom_message: v.message },
    now: new Date(v.requested_at),
  });
  if (id) deps.dispatcher.kick(laneOf(v.deployment_id, v.user_id));
  return { notification_id: id };
}

export async function sendTestNotification(deps: HandlerDeps, message: IncomingMessage<N['SendTestNotification']>): Promise<QueuedReply> {
  const v = message.value;
  const user = await caller(deps, v);
  const id = await enqueueNotification(deps, {
    causeId: message.meta.id,
    recipient: user,
    templateId: TEMPLATE_IDS.testNotification,
    labels: {},
    now: new Date(v.requested_at),
  });
  if (id) deps.dispatcher.kick(laneOf(v.deployment_id, v.user_id));
  return { notification_id: id };
}
