import type { IncomingMessage } from '@platform/kafka';
import { generateSecret } from '@platform/secrets';
import { presentWebhookEndpoint, validateEventTypes, validateRateLimit } from '@platform/usermgmt';
import type { HandlerDeps } from './deps.js';

export async function createWebhookEndpoint(
  deps: HandlerDeps,
  message: IncomingMessage<'platform.usermgmt.commands.CreateWebhookEndpoint'>,
) {
  const { environment_id, webhook_endpoint_id, endpoint_url, events, rate_limit, ordered } = message.value;
  const doc = await deps.writer.webhookEndpoints.create({
    environmentId: environment_id,
    id: webhook_endpoint_id,
    endpointUrl: endpoint_url,
    events: validateEventTypes(events),
    sealedSecret: deps.sealer.seal(generateSecret('whsec_', 40)),
    rateLimit: validateRateLimit(rate_limit),
    ordered,
  });
  // The secret is shown in the creating response only (a replay of the same command shows it again).
  return presentWebhookEndpoint(doc, deps.sealer.open(doc.sealed_secret));
}
