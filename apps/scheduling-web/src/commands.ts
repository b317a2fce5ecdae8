import { MessageTypeNames } from '@platform/contracts';
import { generateId } from '@platform/secrets';
import type { WebDeps } from './deps.js';

/** A new secret for a confidential client; the worker stores only its keyed hash, the caller shows it once. */
export async function generateClientSecret(
  deps: Pick<WebDeps, 'commands' | 'credentials'>,
  clientId: string,
  ownerUserId: string,
): Promise<string> {
  const secret = deps.credentials.newClientSecret();
  await deps.commands.send(MessageTypeNames.GenerateClientSecret, clientId, {
    client_id: clientId,
    owner_user_id: ownerUserId,
    secret_id: generateId('sec'),
    secret_hash: deps.credentials.hashClientSecret(secret),
    hint: secret.slice(-4),
  });
  return secret;
}
