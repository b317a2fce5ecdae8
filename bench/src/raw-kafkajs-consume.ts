import { Kafka, logLevel } from 'kafkajs';
import { countTopic } from './count-topic.js';

/**
 * The analytics benchmark's ceiling, in a process of its own: a consumer group of kafkajs 2.2.4 as published
 * (none of the platform's changes to it, ADR 0027 and 0028) reading a whole topic and counting its messages.
 * Prints what {@link countTopic} measured once it has read `RAW_EXPECTED` of them.
 */
const env = (key: string) => {
  const value = process.env[key];
  if (!value) throw new Error(`${key} is not set`);
  return value;
};
const kafka = new Kafka({
  clientId: env('RAW_GROUP'),
  brokers: env('KAFKA_BROKERS').split(','),
  logLevel: logLevel.WARN,
});
const consumer = kafka.consumer({ groupId: env('RAW_GROUP'), allowAutoTopicCreation: false });
console.log(JSON.stringify(await countTopic(consumer, env('RAW_TOPIC'), Number(env('RAW_EXPECTED')))));
