import type { Consumer, ConsumerRunConfig, Producer } from 'kafkajs';
import type { Logger } from '@platform/telemetry';
import type { KafkaClient } from './client.js';
import { trackConsumerLag } from './consumer-lag.js';
import { topicName } from './topics.js';

/**
 * Connects a consumer (and its dead-letter producer), subscribes it and runs it; the promise it gives back
 * settles once the consumer has joined its group. Shared by the per-message and the batch consumer.
 */
export async function joinGroup(
  client: KafkaClient,
  parts: { consumer: Consumer; deadLetters: Producer; logger: Logger },
  subscription: { topics: readonly string[]; fromBeginning: boolean },
  run: ConsumerRunConfig,
): Promise<{ ready: Promise<void> }> {
  const { consumer, deadLetters, logger } = parts;
  await deadLetters.connect();
  await consumer.connect();
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  consumer.on(consumer.events.GROUP_JOIN, () => markReady());
  consumer.on(consumer.events.CRASH, (event) => {
    logger.error({ err: event.payload.error, restart: event.payload.restart }, 'consumer crashed');
  });
  trackConsumerLag(consumer, client.topicPrefix);
  for (const topic of subscription.topics) {
    await consumer.subscribe({ topic: topicName(client, topic), fromBeginning: subscription.fromBeginning });
  }
  await consumer.run({ autoCommit: true, autoCommitInterval: 1000, ...run });
  return { ready };
}
