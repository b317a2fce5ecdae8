import type { IncomingMessage } from '@platform/kafka';
import { presentJwtTemplate, validateJwtTemplate } from '@platform/usermgmt';
import type { HandlerDeps } from './deps.js';

export async function updateJwtTemplate(
  deps: HandlerDeps,
  message: IncomingMessage<'platform.usermgmt.commands.UpdateJwtTemplate'>,
) {
  validateJwtTemplate(message.value.content);
  const doc = await deps.writer.jwtTemplates.put({
    environmentId: message.value.environment_id,
    content: message.value.content,
  });
  return presentJwtTemplate(doc);
}
