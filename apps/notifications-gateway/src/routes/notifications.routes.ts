import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotAllowedError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import {
  INVALID_QUERY_MESSAGE,
  inboxNotificationJson,
  readInboxListQuery,
  templatesOfKind,
} from '@platform/notifications';
import type { GatewayDeps } from '../deps.js';
import { UUID, invalidBody, isObject } from '../validation.js';

const TITLE_MAX = 120;
const MESSAGE_MAX = 2000;

const forbidden = (detail?: string) => new NotAllowedError('forbidden', detail ?? 'Forbidden.');

export function notificationRoutes(app: HttpApp, deps: GatewayDeps) {
  const send = deps.commands.send.bind(deps.commands);

  app.post(
    '/api/v2/notifications/custom',
    { schema: { summary: 'Send a custom notification to yourself', tags: ['notifications'] } },
    async (request, reply) => {
      const caller = request.caller!;
      const body: unknown = request.body;
      if (!isObject(body) || !isObject(body['content']))
        throw invalidBody([{ field: 'content', detail: 'content is required' }]);
      const { title = '', message = '' } = body['content'] as { title?: unknown; message?: unknown };
      const problems: Array<{ field: string; detail: string }> = [];
      if (typeof title !== 'string') problems.push({ field: 'content.title', detail: 'must be a string' });
      if (typeof message !== 'string') problems.push({ field: 'content.message', detail: 'must be a string' });
      if (problems.length > 0) throw invalidBody(problems);
      const [t, m] = [title as string, message as string];
      if (t.trim() === '' && m.trim() === '') {
        throw invalidBody([
          { field: 'content.title', detail: "provide a non-empty 'content.title' or 'content.message'" },
          { field: 'content.message', detail: "provide a non-empty 'content.title' or 'content.message'" },
        ]);
      }
      if (Buffer.byteLength(t) > TITLE_MAX)
        problems.push({ field: 'content.title', detail: `must be at most ${TITLE_MAX} bytes` });
      if (Buffer.byteLength(m) > MESSAGE_MAX)
        problems.push({ field: 'content.message', detail: `must be at most ${MESSAGE_MAX} bytes` });
      if (problems.length > 0) throw invalidBody(problems);
      if (caller.role === 'system')
        throw new NotAllowedError('system_user', 'System users cannot send custom notifications.');
      await send(MessageTypeNames.SendCustomNotification, caller._id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
        title: t,
        message: m,
      });
      return reply.code(204).send();
    },
  );

  app.get(
    '/api/v2/notifications/dispatch-methods',
    { schema: { summary: 'The dispatch methods', tags: ['notifications'] } },
    async () => [{ available: [...deps.methods], default: deps.methods[0] ?? '' }],
  );

  app.get(
    '/api/v2/notifications/inbox',
    { schema: { summary: 'List inbox notifications, newest first', tags: ['inbox'] } },
    async (request) => {
      const caller = request.caller!;
      const query = readInboxListQuery(request.query as Record<string, string | string[] | undefined>);
      if (!query.ok) throw invalidBody(query.validations, INVALID_QUERY_MESSAGE);
      const [docs, unread] = await Promise.all([
        deps.store.listInbox(caller.environment_id, caller._id, query.value, query.value.startingBefore ?? undefined),
        deps.store.unreadCount(caller.environment_id, caller._id),
      ]);
      return { notifications: docs.map(inboxNotificationJson), unread_count: unread };
    },
  );

  app.put(
    '/api/v2/notifications/inbox/mark-all-as-read',
    { schema: { summary: 'Mark every notification read', tags: ['inbox'] } },
    async (request, reply) => {
      const caller = request.caller!;
      await send(MessageTypeNames.MarkAllInboxNotificationsRead, caller._id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
      });
      return reply.code(204).send();
    },
  );

  app.put<{ Params: { id: string } }>(
    '/api/v2/notifications/inbox/:id/read-status',
    { schema: { summary: 'Mark one notification read or unread', tags: ['inbox'] } },
    async (request) => {
      const caller = request.caller!;
      const { id } = request.params;
      if (!UUID.test(id)) throw new InputError('invalid_uuid', `Invalid UUID "${id}".`);
      const body: unknown = request.body;
      if (!isObject(body) || typeof body['is_read'] !== 'boolean')
        throw invalidBody([{ field: 'is_read', detail: 'must be true or false' }]);
      const result = await send(MessageTypeNames.SetInboxNotificationReadStatus, caller._id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
        notification_id: id.toLowerCase(),
        is_read: body['is_read'],
      });
      return {
        message: body['is_read'] ? 'Notification marked as read.' : 'Notification marked as unread.',
        ...result,
      };
    },
  );

  app.get(
    '/api/v2/notifications/settings',
    { schema: { summary: 'The notification settings', tags: ['settings'] } },
    async (request) => deps.store.settings(request.caller!.environment_id),
  );

  app.put(
    '/api/v2/notifications/settings',
    { schema: { summary: 'Pause or resume the notifier (owners)', tags: ['settings'] } },
    async (request, reply) => {
      const caller = request.caller!;
      const body: unknown = request.body;
      if (!isObject(body) || typeof body['notifier_paused'] !== 'boolean')
        throw invalidBody([{ field: 'notifier_paused', detail: 'must be true or false' }]);
      const paused = body['notifier_paused'];
      // As Coder: a request that changes nothing is 304, whoever sends it.
      if ((await deps.store.settings(caller.environment_id)).notifier_paused === paused) return reply.code(304).send();
      if (caller.role !== 'owner') throw forbidden();
      const result = await send(MessageTypeNames.UpdateNotificationSettings, caller.environment_id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
        notifier_paused: paused,
      });
      if (!result.changed) return reply.code(304).send();
      return { notifier_paused: result.notifier_paused };
    },
  );

  app.get(
    '/api/v2/notifications/templates/system',
    { schema: { summary: 'System notification templates', tags: ['templates'] } },
    async () => templatesOfKind('system'),
  );
  app.get(
    '/api/v2/notifications/templates/custom',
    { schema: { summary: 'Custom notification templates', tags: ['templates'] } },
    async () => templatesOfKind('custom'),
  );

  app.post(
    '/api/v2/notifications/test',
    { schema: { summary: 'Send yourself the test notification (owners)', tags: ['notifications'] } },
    async (request, reply) => {
      const caller = request.caller!;
      if (caller.role !== 'owner') throw forbidden();
      await send(MessageTypeNames.SendTestNotification, caller._id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
      });
      return reply.code(200).send();
    },
  );
}
