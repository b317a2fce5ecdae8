import { isPlatformError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import type { UsermgmtStore, UsermgmtWriter } from '@platform/usermgmt';

/** The delivery layer gave up on an endpoint (410 Gone): its status becomes `disabled`. Idempotent. */
export async function disableEndpointOnTargetDisabled(
  deps: { store: UsermgmtStore; writer: UsermgmtWriter },
  message: IncomingMessage<'platform.webhooks.events.TargetDisabled'>,
): Promise<void> {
  const { producer, tenant_id, target_id } = message.value;
  if (producer !== 'usermgmt') return;
  const current = await deps.store.webhookEndpoints.get(tenant_id, target_id);
  if (!current || current.status === 'disabled') return;
  try {
    await deps.writer.webhookEndpoints.update({ environmentId: tenant_id, id: target_id, status: 'disabled' });
  } catch (error) {
    if (isPlatformError(error) && error.kind === 'not_found') return;
    throw error;
  }
}
