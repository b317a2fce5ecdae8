import { createKafka, type KafkaClient } from '@platform/kafka';
import { connectMongo } from '@platform/mongo';
import { createLogger } from '@platform/telemetry';

/** Deletes a run's topics (every one under its prefix) and the consumer groups it names. */
export async function deleteRunTopics(kafka: KafkaClient, groups: string[] = []): Promise<void> {
  const admin = kafka.kafka.admin();
  await admin.connect();
  try {
    const topics = (await admin.listTopics()).filter((t) => t.startsWith(kafka.topicPrefix));
    if (topics.length > 0) await admin.deleteTopics({ topics, timeout: 30_000 });
    if (groups.length > 0) await admin.deleteGroups(groups).catch(() => undefined);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Deletes what a run's isolated stack (`isolatedAppEnv`) left behind: its topics and its database. Left alone,
 * every run adds its topics to the one broker of the machine, and the benchmarks after it measure a broker
 * holding thousands of them (2 088 after one day of runs: its idle CPU and the tails of every run grew).
 */
export async function cleanUpStack(env: Record<string, string>, groups: string[] = []): Promise<void> {
  const logger = createLogger({ name: 'bench-cleanup', level: 'warn' });
  const prefix = env['KAFKA_TOPIC_PREFIX']!;
  const kafka = createKafka({
    brokers: env['KAFKA_BROKERS']!.split(','),
    clientId: 'bench-cleanup',
    logger,
    topicPrefix: prefix,
  });
  await deleteRunTopics(
    kafka,
    groups.map((group) => `${prefix}${group}`),
  );
  const mongo = await connectMongo({ url: env['MONGO_URL']!, dbName: env['MONGO_DB']!, appName: 'bench-cleanup' });
  try {
    await mongo.dropDatabase();
  } finally {
    await mongo.close();
  }
}
