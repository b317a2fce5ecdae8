import { InputError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import {
  WEBHOOK_ENDPOINT_STATUSES,
  presentWebhookEndpoint,
  validateEventTypes,
  validateRateLimit,
  type WebhookEndpointStatus,
} from '@platform/usermgmt';
import type { HandlerDeps } from './deps.js';

function status(value: string | null): WebhookEndpointStatus | null {
  if (value === null) return null;
  if (!(WEBHOOK_ENDPOINT_STATUSES as readonly string[]).includes(value)) {
    throw new InputError(
      'invalid_request_parameters',
      `status must be one of ${WEBHOOK_ENDPOINT_STATUSES.join(', ')}`,
      {
        issues: [{ field: 'status', code: 'invalid_status', message: 'status must be enabled or disabled' }],
      },
    );
  }
  return value as WebhookEndpointStatus;
}

/** A new limit, null to remove the limit, or undefined to keep it. */
function rateLimitChange(value: number | null, clear: boolean): number | null | undefined {
  if (value !== null) return validateRateLimit(value);
  return clear ? null : undefined;
}

export async function updateWebhookEndpoint(
  deps: HandlerDeps,
  message: IncomingMessage<'platform.usermgmt.commands.UpdateWebhookEndpoint'>,
) {
  const v = message.value;
  const doc = await deps.writer.webhookEndpoints.update({
    environmentId: v.environment_id,
    id: v.webhook_endpoint_id,
    endpointUrl: v.endpoint_url,
    events: v.events === null ? null : validateEventTypes(v.events),
    status: status(v.status),
    rateLimit: rateLimitChange(v.rate_limit, v.clear_rate_limit),
    ordered: v.ordered,
  });
  return presentWebhookEndpoint(doc, deps.sealer.open(doc.sealed_secret));
}
