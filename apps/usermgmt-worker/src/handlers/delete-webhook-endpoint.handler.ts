import type { IncomingMessage } from '@platform/kafka';
import type { HandlerDeps } from './deps.js';

export async function deleteWebhookEndpoint(
  deps: HandlerDeps,
  message: IncomingMessage<'platform.usermgmt.commands.DeleteWebhookEndpoint'>,
) {
  await deps.writer.webhookEndpoints.delete({
    environmentId: message.value.environment_id,
    id: message.value.webhook_endpoint_id,
    commandId: message.meta.id,
  });
  return null;
}
