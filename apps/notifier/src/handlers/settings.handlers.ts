import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotAllowedError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { outboxEvent } from '@platform/mongo';
import { TEMPLATES, preferenceJson, type PreferenceJson } from '@platform/notifications';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;

export async function updateSettings(
  deps: HandlerDeps,
  message: IncomingMessage<N['UpdateNotificationSettings']>,
): Promise<{ notifier_paused: boolean; changed: boolean }> {
  const v = message.value;
  const user = await deps.members.get(v.deployment_id, v.user_id);
  if (!user || user.role !== 'owner')
    throw new NotAllowedError('forbidden', 'Only owners may change the notification settings.');
  const current = await deps.store.settings.get(v.deployment_id);
  if (current.notifier_paused === v.notifier_paused) return { notifier_paused: v.notifier_paused, changed: false };
  const event = outboxEvent(MessageTypeNames.NotificationSettingsChanged, v.deployment_id, {
    deployment_id: v.deployment_id,
    user_id: v.user_id,
    notifier_paused: v.notifier_paused,
    occurred_at: Date.now(),
  });
  const changed = await deps.writer.settings.setPaused(v.deployment_id, v.notifier_paused, new Date(v.requested_at), [
    event,
  ]);
  // What waited while paused goes out now, each lane in its order.
  if (!v.notifier_paused) await deps.dispatcher.kickDeployment(v.deployment_id);
  return { notifier_paused: v.notifier_paused, changed };
}

export async function updatePreferences(
  deps: HandlerDeps,
  message: IncomingMessage<N['UpdateNotificationPreferences']>,
): Promise<PreferenceJson[]> {
  const v = message.value;
  if (!(await deps.members.get(v.deployment_id, v.user_id)))
    throw new NotFoundError('user_not_found', 'The user no longer exists.');
  const unknown = Object.keys(v.template_disabled_map).filter((id) => !TEMPLATES.some((t) => t.id === id));
  if (unknown.length > 0) {
    throw new InputError('unknown_template', `Unknown notification template ${unknown.join(', ')}.`, {
      issues: unknown.map((id) => ({
        field: `template_disabled_map.${id}`,
        code: 'unknown_template',
        message: 'There is no notification template with this id.',
      })),
    });
  }
  await deps.writer.preferences.set(v.deployment_id, v.user_id, v.template_disabled_map, new Date(v.requested_at));
  return (await deps.store.preferences.list(v.deployment_id, v.user_id)).map(preferenceJson);
}
