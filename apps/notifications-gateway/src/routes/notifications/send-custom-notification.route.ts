import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotAllowedError } from '@platform/errors';
import { NoContent, Type, type HttpApp } from '@platform/http';
import type { GatewayDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

const TITLE_MAX_BYTES = 120;
const MESSAGE_MAX_BYTES = 2000;

/** Byte limits of the stored title and message (a character can take up to four). */
function sizeIssues(title: string, message: string) {
  const issues = [];
  if (Buffer.byteLength(title) > TITLE_MAX_BYTES)
    issues.push({ field: 'content.title', code: 'invalid', message: `must be at most ${TITLE_MAX_BYTES} bytes` });
  if (Buffer.byteLength(message) > MESSAGE_MAX_BYTES)
    issues.push({ field: 'content.message', code: 'invalid', message: `must be at most ${MESSAGE_MAX_BYTES} bytes` });
  return issues;
}

const Title = Type.String({ maxLength: TITLE_MAX_BYTES });
const Message = Type.String({ maxLength: MESSAGE_MAX_BYTES });
const saying = (text: string) => ({ pattern: '\\S', description: text });

/** As Coder: a title or a message that is not blank (or both). */
const Content = Type.Union(
  [
    Type.Object({ title: Type.String({ ...Title, ...saying('Not blank.') }), message: Type.Optional(Message) }),
    Type.Object({ title: Type.Optional(Title), message: Type.String({ ...Message, ...saying('Not blank.') }) }),
  ],
  { errorMessage: "needs a non-empty 'content.title' or 'content.message'" },
);

export function sendCustomNotificationRoute(app: HttpApp, deps: GatewayDeps) {
  app.post(
    '/api/v2/notifications/custom',
    {
      schema: {
        summary: 'Send a custom notification to yourself',
        description: 'To the inbox, and by e-mail or webhook as the deployment dispatches. System users cannot.',
        tags: ['notifications'],
        security,
        body: Type.Object({ content: Content }),
        response: { 204: NoContent('Queued.'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const { title = '', message = '' } = request.body.content;
      const issues = sizeIssues(title, message);
      if (issues.length > 0) throw new InputError('validation_failed', 'Invalid request body', { issues });
      if (caller.role === 'system')
        throw new NotAllowedError('system_user', 'System users cannot send custom notifications.');
      await deps.commands.send(MessageTypeNames.SendCustomNotification, caller._id, {
        deployment_id: caller.environment_id,
        user_id: caller._id,
        title,
        message,
      });
      return reply.code(204).send();
    },
  );
}
