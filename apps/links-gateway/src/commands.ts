import { randomUUID } from 'node:crypto';
import type { CommandReplies, CommandType, MessageTypes } from '@platform/contracts';
import { LINKS_TOPICS } from '@platform/links';
import type { GatewayDeps } from './deps.js';

/** A links command to links-worker, keyed (ordered) by `key`; resolves with its reply or rejects with its error. */
export function sendLinksCommand<T extends CommandType>(deps: Pick<GatewayDeps, 'commands' | 'commandTimeoutMs'>, type: T, key: string, value: MessageTypes[T]): Promise<CommandReplies[T]> {
  return deps.commands.send({ topic: LINKS_TOPICS.commands, key, type, value, commandId: randomUUID(), timeoutMs: deps.commandTimeoutMs });
}
