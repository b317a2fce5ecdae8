import { metrics } from '@platform/telemetry';
import type { Consumer } from 'kafkajs';

interface PartitionLag {
  group: string;
  topic: string;
  partition: number;
  lag: number;
}

const meter = metrics.getMeter('@platform/kafka');
/** Per running consumer, the lag of each partition it holds, keyed `topic:partition` (physical topic name). */
const consumers = new Map<Consumer, Map<string, PartitionLag>>();

meter
  .createObservableGauge('platform.messaging.consumer.lag', {
    description: 'Messages between the consumed offset and the end of each assigned partition, as of the last fetched batch',
  })
  .addCallback((result) => {
    for (const partitions of consumers.values()) {
      for (const p of partitions.values()) result.observe(p.lag, { group: p.group, topic: p.topic, partition: p.partition });
    }
  });

/**
 * Reports the consumer's lag from its own fetches (no admin requests): when a batch starts, everything from its
 * first message to the partition's end is pending, so a handler stuck on a batch keeps its backlog visible; when
 * it ends, what remains is what arrived after it. Names are logical (the topic prefix is taken off).
 */
export function trackConsumerLag(consumer: Consumer, topicPrefix: string): void {
  const partitions = new Map<string, PartitionLag>();
  const logical = (name: string) => (name.startsWith(topicPrefix) ? name.slice(topicPrefix.length) : name);
  let group = '';
  consumers.set(consumer, partitions);
  consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
    group = logical(payload.groupId);
    // Partitions that moved to another member are theirs to report: a stale value here would count twice.
    const assigned = new Set(Object.entries(payload.memberAssignment).flatMap(([topic, ps]) => ps.map((p) => `${topic}:${p}`)));
    for (const key of partitions.keys()) if (!assigned.has(key)) partitions.delete(key);
  });
  const record = (topic: string, partition: number, lag: string) => {
    partitions.set(`${topic}:${partition}`, { group, topic: logical(topic), partition, lag: Math.max(0, Number(lag)) });
  };
  consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) => record(payload.topic, payload.partition, payload.offsetLagLow));
  consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => record(payload.topic, payload.partition, payload.offsetLag));
  consumer.on(consumer.events.STOP, () => consumers.delete(consumer));
}
