import { metrics } from '@platform/telemetry';
import type { Consumer } from 'kafkajs';

export interface PartitionLag {
  group: string;
  topic: string;
  partition: number;
  lag: number;
}

/** The consumer's side of the instrumentation events that lag tracking listens to. */
export type LagSource = Pick<Consumer, 'on' | 'events'>;

/**
 * The lag of each partition held by the consumers it tracks, from their own fetches (no admin requests): when a
 * batch starts, everything from its first message to the partition's end is pending, so a handler stuck on a
 * batch keeps its backlog visible; when it ends, what remains is what arrived after it. Names are logical (the
 * topic prefix is taken off).
 */
export function createLagRegistry() {
  const consumers = new Map<LagSource, Map<string, PartitionLag>>();
  return {
    track(consumer: LagSource, topicPrefix: string): void {
      const partitions = new Map<string, PartitionLag>();
      const logical = (name: string) => (name.startsWith(topicPrefix) ? name.slice(topicPrefix.length) : name);
      let group = '';
      consumers.set(consumer, partitions);
      // A partition that moved to another member is theirs to report; here it reads 0 from then on, rather than
      // disappearing, because the metrics SDK keeps exporting the last value of a series it stops hearing about.
      const release = (keep: Set<string>) => {
        for (const [key, p] of partitions) if (!keep.has(key)) p.lag = 0;
      };
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        group = logical(payload.groupId);
        release(
          new Set(Object.entries(payload.memberAssignment).flatMap(([topic, ps]) => ps.map((p) => `${topic}:${p}`))),
        );
      });
      const record = (topic: string, partition: number, lag: string) => {
        partitions.set(`${topic}:${partition}`, {
          group,
          topic: logical(topic),
          partition,
          lag: Math.max(0, Number(lag)),
        });
      };
      consumer.on(consumer.events.START_BATCH_PROCESS, ({ payload }) =>
        record(payload.topic, payload.partition, payload.offsetLagLow),
      );
      consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) =>
        record(payload.topic, payload.partition, payload.offsetLag),
      );
      // disconnect() stops the consumer without a STOP event.
      consumer.on(consumer.events.STOP, () => release(new Set()));
      consumer.on(consumer.events.DISCONNECT, () => release(new Set()));
    },
    lags(): PartitionLag[] {
      return [...consumers.values()].flatMap((partitions) => [...partitions.values()]);
    },
  };
}

const registry = createLagRegistry();

metrics
  .getMeter('@platform/kafka')
  .createObservableGauge('platform.messaging.consumer.lag', {
    description:
      'Messages between the consumed offset and the end of each assigned partition, as of the last fetched batch',
  })
  .addCallback((result) => {
    for (const p of registry.lags()) result.observe(p.lag, { group: p.group, topic: p.topic, partition: p.partition });
  });

export const trackConsumerLag = (consumer: LagSource, topicPrefix: string): void =>
  registry.track(consumer, topicPrefix);
