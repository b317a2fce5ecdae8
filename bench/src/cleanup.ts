import type { KafkaClient } from '@platform/kafka';

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
