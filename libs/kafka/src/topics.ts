import type { KafkaClient } from './client.js';

export interface TopicSpec {
  topic: string;
  partitions?: number;
  config?: Record<string, string>;
}

export function topicName(client: KafkaClient, topic: string): string {
  return `${client.topicPrefix}${topic}`;
}

/** Creates missing topics at start; existing ones are left as they are. */
export async function ensureTopics(client: KafkaClient, specs: TopicSpec[]): Promise<void> {
  const admin = client.kafka.admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = specs
      .map((s) => ({ ...s, topic: topicName(client, s.topic) }))
      .filter((s) => !existing.has(s.topic));
    if (missing.length === 0) return;
    await admin.createTopics({
      waitForLeaders: true,
      topics: missing.map((s) => ({
        topic: s.topic,
        numPartitions: s.partitions ?? 4,
        replicationFactor: -1,
        configEntries: Object.entries(s.config ?? {}).map(([name, value]) => ({ name, value })),
      })),
    });
  } finally {
    await admin.disconnect();
  }
}
