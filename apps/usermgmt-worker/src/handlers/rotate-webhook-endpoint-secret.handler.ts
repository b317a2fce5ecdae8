import type { IncomingMessage } from '@platform/kafka';
import { generateSecret } from '@platform/secrets';
import { presentWebhookEndpoint } from '@platform/usermgmt';
import type { HandlerDeps } from './deps.js';

export async function rotateWebhookEndpointSecret(
  deps: HandlerDeps,
  message: IncomingMessage<'platform.usermgmt.commands.RotateWebhookEndpointSecret'>,
) {
  const v = message.value;
  const doc = await deps.writer.webhookEndpoints.rotateSecret({
    environmentId: v.environment_id,
    id: v.webhook_endpoint_id,
    commandId: message.meta.id,
    sealedSecret: deps.sealer.seal(generateSecret('whsec_', 40)),
    previousValidForMs: Math.max(0, v.previous_valid_for_seconds) * 1000,
  });
  return presentWebhookEndpoint(doc, deps.sealer.open(doc.sealed_secret));
}
