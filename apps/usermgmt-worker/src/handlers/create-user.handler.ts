import type { IncomingMessage } from '@platform/kafka';
import { presentUser } from '@platform/usermgmt';
import type { HandlerDeps } from './deps.js';

export async function createUser(deps: HandlerDeps, message: IncomingMessage<'platform.usermgmt.commands.CreateUser'>) {
  const v = message.value;
  const doc = await deps.writer.users.create({
    environmentId: v.environment_id,
    id: v.user_id,
    email: v.email,
    firstName: v.first_name,
    lastName: v.last_name,
    emailVerified: v.email_verified,
    externalId: v.external_id,
    metadata: v.metadata,
    passwordHash: v.password_hash,
  });
  return presentUser(doc);
}
