import type { Consumer } from 'kafkajs';

export interface TopicRead {
  messages: number;
  seconds: number;
  events_per_second: number;
  /** This process's CPU from the first batch to the last, per message. */
  cpu_us_per_event: number;
}

/**
 * A bare consumer group reading a whole topic from the beginning and counting its messages, nothing else: the
 * analytics benchmark's ceiling. Resolves once `expected` messages are read, or rejects after `timeoutMs`.
 */
export async function countTopic(
  consumer: Consumer,
  topic: string,
  expected: number,
  timeoutMs = 600_000,
): Promise<TopicRead> {
  let count = 0;
  let first = 0;
  let last = 0;
  let cpu = process.cpuUsage();
  let done: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (done = resolve));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<never>(
    (_, reject) =>
      (timer = setTimeout(
        () => reject(new Error(`read ${count} of ${expected} messages of ${topic} in ${timeoutMs} ms`)),
        timeoutMs,
      )),
  );
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      partitionsConsumedConcurrently: 4,
      eachBatch: async ({ batch, resolveOffset }) => {
        if (first === 0) {
          first = performance.now();
          cpu = process.cpuUsage();
        }
        count += batch.messages.length;
        resolveOffset(batch.lastOffset());
        last = performance.now();
        if (count >= expected) done();
      },
    });
    await Promise.race([finished, timedOut]);
  } finally {
    clearTimeout(timer);
  }
  const used = process.cpuUsage(cpu);
  await consumer.disconnect();
  const seconds = (last - first) / 1000;
  const round2 = (n: number) => Math.round(n * 100) / 100;
  return {
    messages: count,
    seconds: round2(seconds),
    events_per_second: Math.round(count / seconds),
    cpu_us_per_event: round2((used.user + used.system) / count),
  };
}
