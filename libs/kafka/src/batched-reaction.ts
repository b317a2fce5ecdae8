import type { MessageType } from '@platform/contracts';
import { isPlatformError } from '@platform/errors';
import { runBatchConsumer, type BatchConsumerHandle, type IncomingBatch } from './batch-consumer.js';
import type { ConsumerOptions, IncomingMessage, MessageHandler } from './consumer.js';
import { isGroupMembershipLost } from './group-errors.js';

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
}

export async function runBatchedReaction<K extends MessageType>(
  options: BatchedReactionOptions<K>,
): Promise<BatchConsumerHandle> {
  const handlers = options.handlers as unknown as Record<string, MessageHandler<MessageType> | undefined>;
  const maxAttempts = options.maxAttempts ?? 5;
  /** Per batch being handled: the next message to run and the attempts made on it (a retry resumes there). */
  const progress = new WeakMap<IncomingBatch<K>, { next: number; attempts: number }>();

  async function handle(batch: IncomingBatch<K>): Promise<void> {
    let state = progress.get(batch);
    if (!state) progress.set(batch, (state = { next: 0, attempts: 0 }));
    for (; state.next < batch.messages.length; state.next++, state.attempts = 0) {
      const message = batch.messages[state.next]!;
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
      try {
        await handlers[message.type]!(incoming);
      } catch (error) {
        if (isGroupMembershipLost(error)) throw error;
        state.attempts++;
        const retriable = !isPlatformError(error) || error.retriable;
        if (retriable && state.attempts < maxAttempts) throw error; // the batch consumer backs off and calls again
        await batch.deadLetter(
          message,
          error instanceof Error ? `${error.name}: ${error.message}` : String(error),
          state.attempts,
        );
        await options
          .onDeadLetter?.(message.meta, error instanceof Error ? error.message : String(error))
          .catch((hookError: unknown) => {
            options.client.logger.warn({ err: hookError, group: options.groupId }, 'dead-letter hook failed');
          });
      }
    }
  }

  return runBatchConsumer<K>({
    client: options.client,
    groupId: options.groupId,
    topics: options.topics,
    types: Object.keys(options.handlers) as K[],
    handle,
    fetchMaxWaitMs: options.fetchMaxWaitMs ?? 50,
    fetchMinBytes: options.fetchMinBytes ?? 256 * 1024,
    commitIntervalMs: options.commitIntervalMs ?? 1000,
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
