import { MessageTypeNames, type MessageType } from '@platform/contracts';
import { isPlatformError } from '@platform/errors';
import { runBatchConsumer, type BatchConsumerHandle, type BatchMessage, type IncomingBatch } from './batch-consumer.js';
import type { ConsumerOptions, IncomingMessage, MessageHandler } from './consumer.js';
import { isGroupMembershipLost } from './group-errors.js';
import { processMessage, processed } from './message-metrics.js';

/**
 * Work the messages of one batch share (the command processor's reads and writes of stored replies): each
 * handler call goes through `run`, and `close` follows the batch's last message, before its commit.
 */
export interface BatchScope {
  run(message: IncomingMessage, handler: (message: IncomingMessage) => Promise<unknown>): Promise<void>;
  /** Retried with the batch until it succeeds (a failing close leaves the batch uncommitted). */
  close(): Promise<void>;
}

/**
 * A reaction's handler map run over fetched batches rather than message by message: the same handlers, called
 * in offset order within a partition, with one span and one heartbeat timer per batch instead of one per message,
 * and one commit a second for all partitions. For reactions on busy topics (every click), where the per-message machinery costs more than the
 * handlers, most of which return at once.
 *
 * Failures keep `runConsumer`'s rules, per message: a retriable error retries the batch from that message (the
 * ones before it are not run again) with backoff, up to `maxAttempts`, after which the message is dead-lettered
 * and the batch goes on; a non-retriable error dead-letters the message at once.
 */
export interface BatchedReactionOptions<K extends MessageType> extends ConsumerOptions<K> {
  /** How long a fetch may wait for `fetchMinBytes` (default 50 ms and 256 KiB: a message waits at most that long). */
  fetchMaxWaitMs?: number;
  fetchMinBytes?: number;
  /**
   * How often handled batches are committed (default 1 s, all partitions in one request; 0: after every batch).
   * A crash or a rebalance hands the batches since the last commit again, which a reaction tolerates.
   */
  commitIntervalMs?: number;
  /** The most messages in one batch (default 2000). */
  maxBatchSize?: number;
  /** Opens the scope a batch's messages are handled in (opened once: a retried batch keeps it). */
  scope?: (messages: ReadonlyArray<BatchMessage<K>>) => Promise<BatchScope>;
  /**
   * Each message in a span of its own, a child of the trace it carries, and counted and timed by type as
   * `runConsumer` does: for commands, whose traces and per-type latency operators follow.
   */
  traced?: boolean;
}

/** Every message type: a group that dead-letters what it does not handle must be handed every type to see them. */
const ALL_TYPES = Object.values(MessageTypeNames) as MessageType[];

export async function runBatchedReaction<K extends MessageType>(
  options: BatchedReactionOptions<K>,
): Promise<BatchConsumerHandle> {
  const handlers = options.handlers as unknown as Record<string, MessageHandler<MessageType> | undefined>;
  const maxAttempts = options.maxAttempts ?? 5;
  const component = options.component ?? options.groupId;
  /** Per batch being handled: the next message to run, the attempts made on it (a retry resumes there), its scope. */
  const progress = new WeakMap<IncomingBatch<K>, { next: number; attempts: number; scope?: BatchScope }>();

  async function deadLetter(batch: IncomingBatch<K>, message: BatchMessage<K>, reason: string, attempts: number) {
    await batch.deadLetter(message, reason, attempts);
    await options.onDeadLetter?.(message.meta, reason).catch((hookError: unknown) => {
      options.client.logger.warn({ err: hookError, group: options.groupId }, 'dead-letter hook failed');
    });
  }

  async function handle(batch: IncomingBatch<K>): Promise<void> {
    let state = progress.get(batch);
    if (!state) {
      state = { next: 0, attempts: 0 };
      if (options.scope) state.scope = await options.scope(batch.messages);
      progress.set(batch, state);
    }
    const { scope } = state;
    for (; state.next < batch.messages.length; state.next++, state.attempts = 0) {
      const message = batch.messages[state.next]!;
      const handler = handlers[message.type];
      if (!handler) {
        // Only handed on when unhandled types are dead-lettered (a command nobody handles must be answered).
        await deadLetter(batch, message, `no handler for ${message.type} in ${options.groupId}`, 0);
        continue;
      }
      const incoming: IncomingMessage = {
        topic: batch.topic,
        partition: batch.partition,
        offset: message.offset,
        key: message.key,
        type: message.type,
        value: message.value,
        meta: message.meta,
        heartbeat: batch.heartbeat,
      };
      const run = () => (scope ? scope.run(incoming, handler) : handler(incoming));
      const counted = { group: options.groupId, type: message.type };
      try {
        if (!options.traced) await run();
        else {
          await processMessage(
            { topic: batch.topic, offset: message.offset, groupId: options.groupId, component },
            message.meta,
            run,
          );
          processed.add(1, { ...counted, outcome: 'ok' });
        }
      } catch (error) {
        if (isGroupMembershipLost(error)) {
          if (options.traced) processed.add(batch.messages.length - state.next, { ...counted, outcome: 'handed_over' });
          throw error;
        }
        state.attempts++;
        const retriable = !isPlatformError(error) || error.retriable;
        if (retriable && state.attempts < maxAttempts) {
          if (options.traced) processed.add(1, { ...counted, outcome: 'retried' });
          throw error; // the batch consumer backs off and calls again
        }
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        await deadLetter(batch, message, reason, state.attempts);
      }
    }
    await scope?.close();
  }

  return runBatchConsumer<K>({
    client: options.client,
    groupId: options.groupId,
    topics: options.topics,
    types: options.unhandled === 'dead-letter' ? (ALL_TYPES as K[]) : (Object.keys(options.handlers) as K[]),
    handle,
    fetchMaxWaitMs: options.fetchMaxWaitMs ?? 50,
    fetchMinBytes: options.fetchMinBytes ?? 256 * 1024,
    commitIntervalMs: options.commitIntervalMs ?? 1000,
    ...(options.traced ? { countsMessages: false } : {}),
    ...(options.maxBatchSize ? { maxBatchSize: options.maxBatchSize } : {}),
    ...(options.partitionsConsumedConcurrently
      ? { partitionsConsumedConcurrently: options.partitionsConsumedConcurrently }
      : {}),
    ...(options.sessionTimeoutMs ? { sessionTimeoutMs: options.sessionTimeoutMs } : {}),
    ...(options.heartbeatIntervalMs ? { heartbeatIntervalMs: options.heartbeatIntervalMs } : {}),
    ...(options.fromBeginning !== undefined ? { fromBeginning: options.fromBeginning } : {}),
    ...(options.backoffBaseMs ? { backoffBaseMs: options.backoffBaseMs } : {}),
    ...(options.backoffMaxMs ? { backoffMaxMs: options.backoffMaxMs } : {}),
    ...(options.component ? { component: options.component } : {}),
  });
}
