import { MessageTypeNames, type CommandReplies, type CommandType, type MessageTypes } from '@platform/contracts';
import { OAUTH_TOPICS } from '@platform/oauth';
import { generateId } from '@platform/secrets';
import type { WebDeps } from './deps.js';

export type OAuthCommands = ReturnType<typeof createOAuthCommands>;

/** OAuth commands to oauth-worker; each resolves with the worker's reply or rejects with its PlatformError. */
export function createOAuthCommands(deps: Pick<WebDeps, 'commands' | 'credentials' | 'commandTimeoutMs'>) {
  async function send<T extends CommandType>(type: T, key: string, value: MessageTypes[T]): Promise<CommandReplies[T]> {
    return deps.commands.send({ topic: OAUTH_TOPICS.commands, key, type, value, commandId: generateId('cmd'), timeoutMs: deps.commandTimeoutMs });
  }
  return {
    send,
    /** A new secret for a confidential client; the worker stores only its keyed hash, the caller shows it once. */
    async generateSecret(clientId: string, ownerUserId: string): Promise<string> {
      const secret = deps.credentials.newClientSecret();
      await send(MessageTypeNames.GenerateClientSecret, clientId, {
        client_id: clientId,
        owner_user_id: ownerUserId,
        secret_id: generateId('sec'),
        secret_hash: deps.credentials.hashClientSecret(secret),
        hint: secret.slice(-4),
      });
      return secret;
    },
  };
}
