import { MessageTypeNames } from '@platform/contracts';
import { NotAllowedError } from '@platform/errors';
import { NoContent, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

export function sendTestNotificationRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/api/v2/notifications/test',
    {
      schema: {
        summary: 'Send yourself the test notification (owners)',
        description: 'The spec answers 200 with no body (Coder’s SDK expects 204; the spec wins).',
        tags: ['notifications'],
        security,
        response: { 200: NoContent('Queued.'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      if (caller.role !== 'owner') throw new NotAllowedError('forbidden', 'Forbidden.');
      await deps.commands.send(MessageTypeNames.SendTestNotification, caller._id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
      });
      return reply.code(200).send();
    },
  );
}
