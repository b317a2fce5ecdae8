import { setTimeout as sleep } from 'node:timers/promises';
import { DEAD_LETTER, topicEntry } from '@platform/contracts';
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
 * A topic of the catalogue (libs/contracts `TOPIC_CATALOGUE`) and its dead-letter topic, with their partitions
 * and retention; or a spec of its own (tests).
 */
export type TopicRequest = string | TopicSpec;

function specsOf(request: TopicRequest): TopicSpec[] {
  if (typeof request !== 'string') return [request];
  const entry = topicEntry(request);
  return [
    { topic: entry.name, partitions: entry.partitions, config: { 'retention.ms': String(entry.retentionMs) } },
    {
      topic: `${entry.name}${DEAD_LETTER.suffix}`,
      partitions: DEAD_LETTER.partitions,
      config: { 'retention.ms': String(DEAD_LETTER.retentionMs) },
    },
  ];
}

/**
 * Creates missing topics at start (catalogue names with their dead-letter topics) and waits until every
 * partition has a leader. Several processes start
 * together and race to create the same topics, so "already exists" and not-yet-known metadata are expected:
 * the whole step is retried until the topics are there.
 */
export async function ensureTopics(
  client: KafkaClient,
  requests: TopicRequest[],
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const wanted = requests.flatMap(specsOf).map((s) => ({ ...s, topic: topicName(client, s.topic) }));
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
        if (ready) {
          warnAboutFewerPartitions(client, wanted, metadata.topics);
          return;
        }
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

/**
 * A topic made before the catalogue asked for more partitions (an older release, or made by hand) is left as
 * it is: adding partitions moves keys to other partitions, which breaks the per-key order of what is already
 * on the topic, so it is an operator's step (docs/operations.md), not something a starting process does. It
 * is said, though: a consumer group cannot use more members than the topic has partitions.
 */
function warnAboutFewerPartitions(
  client: KafkaClient,
  wanted: TopicSpec[],
  found: Array<{ name: string; partitions: unknown[] }>,
) {
  const count = new Map(found.map((t) => [t.name, t.partitions.length]));
  for (const spec of wanted) {
    const has = count.get(spec.topic);
    if (spec.partitions !== undefined && has !== undefined && has < spec.partitions) {
      client.logger.warn(
        { topic: spec.topic, partitions: has, catalogue: spec.partitions },
        'topic has fewer partitions than the catalogue asks for; see docs/operations.md',
      );
    }
  }
}
