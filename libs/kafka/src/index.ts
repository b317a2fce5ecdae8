export { createKafka } from './client.js';
export type { KafkaClient, KafkaOptions } from './client.js';
export { ensureTopics, topicName } from './topics.js';
export type { TopicRequest, TopicSpec } from './topics.js';
export { createPublisher } from './publisher.js';
export { createBulkPublisher } from './bulk-publisher.js';
export type { Publisher, OutgoingMessage } from './publisher.js';
export { runConsumer } from './consumer.js';
export { runBatchConsumer } from './batch-consumer.js';
export { runBatchedReaction } from './batched-reaction.js';
export type {
  BatchConsumerHandle,
  BatchConsumerOptions,
  BatchMessage,
  Finishing,
  IncomingBatch,
} from './batch-consumer.js';
export type { ConsumerHandle, ConsumerOptions, IncomingMessage, MessageHandler, HandlerMap } from './consumer.js';
export { HEADERS, readHeaders } from './headers.js';
export type { MessageMeta } from './headers.js';
export { createCommandBus } from './command-bus.js';
export type { CommandBus, CommandReply, CommandValue, ReplyTransport, SendOptions } from './command-bus.js';
export { createCommandProcessor } from './command-processor.js';
export type { CommandProcessor, CommandResultStore, StoredReply } from './command-processor.js';
export { createOutboxRelay, outboxMessage } from './outbox-relay.js';
export { commandGroup, createCommandWorker, runHandler } from './command-worker.js';
export type {
  BatchPrefetch,
  CommandWorker,
  CommandWorkerOptions,
  CommandHandler,
  CommandHandlerMap,
} from './command-worker.js';
export { batchReaction, createEventWorker, reaction } from './event-worker.js';
export type { EventWorker, EventWorkerOptions, Reaction, BackgroundTask, WorkerTools } from './event-worker.js';
export type { OutboxRelay, OutboxSource, OutboxEntry, OutboxHint } from './outbox-relay.js';
export { listDeadLetters, replayDeadLetters } from './dead-letter-replay.js';
export type { DeadLetter, DeadLetterOptions } from './dead-letter-replay.js';
export { backoffDelay } from './backoff.js';
export { startBatchMessageSpan } from './message-metrics.js';
export { systemClock } from './clock.js';
export type { Clock } from './clock.js';
