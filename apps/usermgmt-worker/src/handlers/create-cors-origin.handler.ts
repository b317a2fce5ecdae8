import type { IncomingMessage } from '@platform/kafka';
import { normaliseOrigin, presentCorsOrigin } from '@platform/usermgmt';
import type { HandlerDeps } from './deps.js';

export async function createCorsOrigin(
  deps: HandlerDeps,
  message: IncomingMessage<'platform.usermgmt.commands.CreateCorsOrigin'>,
) {
  const { environment_id, cors_origin_id, origin } = message.value;
  const doc = await deps.writer.corsOrigins.create({
    environmentId: environment_id,
    id: cors_origin_id,
    origin: normaliseOrigin(origin),
  });
  return presentCorsOrigin(doc);
}
