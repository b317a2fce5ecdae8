import type { MessageType } from '@platform/contracts';
import {
  DeadlineExceededError,
  isPlatformError,
  serializeError,
  toPlatformError,
  type SerializedError,
} from '@platform/errors';
import type { Logger } from '@platform/telemetry';
import type { CommandReply, ReplyTransport } from './command-bus.js';
import type { IncomingMessage, MessageHandler } from './consumer.js';
import type { MessageMeta } from './headers.js';

export type StoredReply = { ok: true; result: unknown } | { ok: false; error: SerializedError };

/** Remembers each command's reply by command id so a redelivered or retried command answers the same. */
export interface CommandResultStore {
  get(commandId: string): Promise<StoredReply | undefined>;
  save(commandId: string, reply: StoredReply): Promise<void>;
}

export interface CommandProcessor {
  /** Tells the sender that its command was dead-lettered (an internal error, never its details). */
  replyDeadLettered(meta: MessageMeta | undefined): Promise<void>;
  wrap<T extends MessageType>(handler: (message: IncomingMessage<T>) => Promise<unknown>): MessageHandler<T>;
}

/**
 * Turns a domain handler into a command consumer: dedupe by command id, map domain rejections to a
 * reply (not a retry), let transient failures throw (the consumer retries), then reply to the sender.
 */
export function createCommandProcessor(options: {
  store: CommandResultStore;
  transport: ReplyTransport;
  logger: Logger;
  /**
   * What to do with a command first seen after its sender stopped waiting (its deadline header has
   * passed): `run` it (the default: the effect stands, a retry with the same key finds the result), or
   * `skip` it, recording a deadline error, for work that is only worth doing for a waiting client (an image
   * nobody will download, a compression nobody should be charged for).
   */
  expired?: 'run' | 'skip';
  now?: () => number;
}): CommandProcessor {
  const now = options.now ?? Date.now;
  async function reply(message: { meta: MessageMeta }, stored: StoredReply) {
    const { correlationId, replyTo } = message.meta;
    if (!correlationId || !replyTo) return;
    const body: CommandReply = stored.ok
      ? { correlation_id: correlationId, ok: true, result: stored.result }
      : { correlation_id: correlationId, ok: false, error: stored.error };
    await options.transport.publish(replyTo, JSON.stringify(body)).catch((error: unknown) => {
      options.logger.warn({ err: error, command: message.meta.id }, 'reply not delivered');
    });
  }

  return {
    async replyDeadLettered(meta) {
      if (!meta) return;
      await reply({ meta }, { ok: false, error: serializeError(toPlatformError(new Error('dead-lettered'))) });
    },
    wrap(handler) {
      return async (message) => {
        const previous = await options.store.get(message.meta.id);
        if (previous) {
          await reply(message, previous);
          return;
        }
        let outcome: StoredReply;
        const deadline = message.meta.deadline;
        if (options.expired === 'skip' && deadline !== undefined && deadline < now()) {
          options.logger.info(
            { command: message.meta.id, type: message.meta.type },
            'command skipped: its sender stopped waiting',
          );
          outcome = {
            ok: false,
            error: serializeError(
              new DeadlineExceededError('deadline_exceeded', 'The command expired before it was handled.'),
            ),
          };
          await options.store.save(message.meta.id, outcome);
          return;
        }
        try {
          outcome = { ok: true, result: (await handler(message)) ?? null };
        } catch (error) {
          // A domain rejection, or a store's unique-key violation (a conflict), is the command's answer; anything
          // else is retried by the consumer (and dead-lettered if it keeps failing).
          const known = toPlatformError(error);
          if (known.retriable || (!isPlatformError(error) && known.kind === 'internal')) throw error;
          outcome = { ok: false, error: serializeError(known) };
        }
        // The reply goes out while it is stored: a redelivery that comes before the store has it runs the handler
        // again, which every handler tolerates (as after a crash between its write and the stored reply).
        await Promise.all([options.store.save(message.meta.id, outcome), reply(message, outcome)]);
      };
    },
  };
}
