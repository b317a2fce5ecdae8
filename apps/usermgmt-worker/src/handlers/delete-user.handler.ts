import type { IncomingMessage } from '@platform/kafka';
import type { HandlerDeps } from './deps.js';

export async function deleteUser(deps: HandlerDeps, message: IncomingMessage<'platform.usermgmt.commands.DeleteUser'>) {
  await deps.writer.users.delete({
    environmentId: message.value.environment_id,
    id: message.value.user_id,
    commandId: message.meta.id,
  });
  return null;
}
