import { setTimeout as sleep } from 'node:timers/promises';
import type { KafkaClient } from './client.js';

export interface TopicSpec {
  topic: string;
  partitions?: number;
  config?: Record<string, string>;
}

export function topicName(client: KafkaClient, topic: string): string {
  return `${client.topicPrefix}${topic}`;
}

/**
 * Creates missing topics at start and waits until every partition has a leader. Several processes start
 * together and race to create the same topics, so "already exists" and not-yet-known metadata are expected:
 * the whole step is retried until the topics are there.
 */
export async function ensureTopics(client: KafkaClient, specs: TopicSpec[], options: { timeoutMs?: number } = {}): Promise<void> {
  const wanted = specs.map((s) => ({ ...s, topic: topicName(client, s.topic) }));
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  const admin = client.kafka.admin();
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        const existing = new Set(await admin.listTopics());
        const missing = wanted.filter((s) => !existing.has(s.topic));
        if (missing.length > 0) {
          await admin
            .createTopics({
              waitForLeaders: false,
              topics: missing.map((s) => ({
                topic: s.topic,
                numPartitions: s.partitions ?? 4,
                replicationFactor: -1,
                configEntries: Object.entries(s.config ?? {}).map(([name, value]) => ({ name, value })),
              })),
            })
            .catch((error: unknown) => {
              if (!/already exists/i.test(String((error as Error).message))) throw error;
            });
        }
        const metadata = await admin.fetchTopicMetadata({ topics: wanted.map((s) => s.topic) });
        const ready = metadata.topics.every((t) => t.partitions.length > 0 && t.partitions.every((p) => p.leader >= 0));
        if (ready) return;
        throw new Error('topics have no leaders yet');
      } catch (error) {
        if (Date.now() > deadline) throw error;
        client.logger.debug({ err: error, attempt }, 'topics not ready, retrying');
        await sleep(Math.min(200 * attempt, 2000));
      }
    }
  } finally {
    await admin.disconnect();
  }
}
