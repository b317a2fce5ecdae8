import { createKafka, type KafkaClient } from '@platform/kafka';
import { createLogger } from '@platform/telemetry';
import type { config } from './config.js';

/** The CLI's Kafka client: the deployment's brokers, topic prefix and schema registry. */
export function cliKafka(cfg: ReturnType<typeof config.get>): KafkaClient {
  return createKafka({
    brokers: cfg.kafka.brokers,
    clientId: 'cli',
    topicPrefix: cfg.kafka.topicPrefix,
    schemaRegistry: cfg.kafka.schemaRegistry,
    logger: createLogger({ name: 'cli', level: 'warn' }),
  });
}
