import {
  DeadlineExceededError,
  isPlatformError,
  serializeError,
  toPlatformError,
  type SerializedError,
} from '@platform/errors';
import type { Logger } from '@platform/telemetry';
import type { CommandReply, ReplyTransport } from './command-bus.js';
import type { IncomingMessage } from './consumer.js';
import type { MessageMeta } from './headers.js';

export type StoredReply = { ok: true; result: unknown } | { ok: false; error: SerializedError };

/** Remembers each command's reply by command id so a redelivered or retried command answers the same. */
export interface CommandResultStore {
  /** The replies stored for these commands, in their order (undefined: none, or expired). */
  getMany(commandIds: readonly string[]): Promise<Array<StoredReply | undefined>>;
  saveMany(replies: ReadonlyArray<{ commandId: string; reply: StoredReply }>): Promise<void>;
}

/**
 * The commands of one fetched batch of a partition: their stored replies read together before the first is
 * run, their new replies stored together once the last has run. Each reply goes to its sender as soon as its
 * command is done.
 */
export interface CommandBatch {
  /** Answers the command from its stored reply, or runs it (in the batch's order) and answers. */
  run(message: IncomingMessage, handler: (message: IncomingMessage) => Promise<unknown>): Promise<void>;
  /** Stores the replies of the commands run (a failure leaves them to store on the next call), then `afterStored`. */
  close(): Promise<void>;
}

export interface CommandProcessor {
  /** Tells the sender that its command was dead-lettered (an internal error, never its details). */
  replyDeadLettered(meta: MessageMeta | undefined): Promise<void>;
  /** Opens a batch of a partition's commands (see CommandBatch). */
  batch(messages: ReadonlyArray<{ meta: MessageMeta }>): Promise<CommandBatch>;
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
  /** Runs for each command of a batch once its reply is stored (a redelivery replays it from then on). */
  afterStored?: (message: IncomingMessage) => Promise<void>;
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

  /** Runs a command; `send` is false for one skipped because nobody waits for it any more (it is only stored). */
  async function outcomeOf(
    message: IncomingMessage,
    handler: (message: IncomingMessage) => Promise<unknown>,
  ): Promise<{ reply: StoredReply; send: boolean }> {
    const deadline = message.meta.deadline;
    if (options.expired === 'skip' && deadline !== undefined && deadline < now()) {
      options.logger.info(
        { command: message.meta.id, type: message.meta.type },
        'command skipped: its sender stopped waiting',
      );
      const expired = new DeadlineExceededError('deadline_exceeded', 'The command expired before it was handled.');
      return { reply: { ok: false, error: serializeError(expired) }, send: false };
    }
    try {
      return { reply: { ok: true, result: (await handler(message)) ?? null }, send: true };
    } catch (error) {
      // A domain rejection, or a store's unique-key violation (a conflict), is the command's answer; anything
      // else is retried by the consumer (and dead-lettered if it keeps failing).
      const known = toPlatformError(error);
      if (known.retriable || (!isPlatformError(error) && known.kind === 'internal')) throw error;
      return { reply: { ok: false, error: serializeError(known) }, send: true };
    }
  }

  async function batch(messages: ReadonlyArray<{ meta: MessageMeta }>): Promise<CommandBatch> {
    const ids = messages.map((message) => message.meta.id);
    const stored = await options.store.getMany(ids);
    /** The reply of every command of the batch known so far: stored before, or run in this batch. */
    const known = new Map<string, StoredReply>();
    stored.forEach((reply, i) => reply && known.set(ids[i]!, reply));
    let unsaved: Array<{ commandId: string; reply: StoredReply }> = [];
    const sent: Array<Promise<void>> = [];
    const done: IncomingMessage[] = [];
    return {
      async run(message, handler) {
        const id = message.meta.id;
        const previous = known.get(id);
        if (previous) {
          sent.push(reply(message, previous));
          done.push(message);
          return;
        }
        const outcome = await outcomeOf(message, handler);
        done.push(message);
        known.set(id, outcome.reply);
        unsaved.push({ commandId: id, reply: outcome.reply });
        // The reply goes out before it is stored: a redelivery that comes before the store has it runs the
        // handler again, which every handler tolerates (as after a crash between its write and the stored reply).
        if (outcome.send) sent.push(reply(message, outcome.reply));
      },
      async close() {
        if (unsaved.length > 0) {
          await options.store.saveMany(unsaved);
          unsaved = [];
        }
        await Promise.all(sent.splice(0));
        // Retried with the batch when it fails: afterStored must tolerate running twice for a command.
        if (options.afterStored) for (const message of done) await options.afterStored(message);
      },
    };
  }

  return {
    async replyDeadLettered(meta) {
      if (!meta) return;
      await reply({ meta }, { ok: false, error: serializeError(toPlatformError(new Error('dead-lettered'))) });
    },
    batch,
  };
}
