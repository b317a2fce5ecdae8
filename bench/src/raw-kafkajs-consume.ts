import { Kafka, logLevel } from 'kafkajs';

/**
 * The analytics benchmark's ceiling, in a process of its own: a consumer group of kafkajs 2.2.4 as published
 * (none of the platform's changes to it, ADR 0027 and 0028) reading a whole topic and counting its messages.
 * Prints `{messages, seconds, events_per_second, cpu_us_per_event}` once it has read `RAW_EXPECTED` of them;
 * the CPU is this process's from its first batch to its last.
 */
const env = (key: string) => {
  const value = process.env[key];
  if (!value) throw new Error(`${key} is not set`);
  return value;
};
const expected = Number(env('RAW_EXPECTED'));
const kafka = new Kafka({ clientId: env('RAW_GROUP'), brokers: env('KAFKA_BROKERS').split(','), logLevel: logLevel.WARN });
const consumer = kafka.consumer({ groupId: env('RAW_GROUP'), allowAutoTopicCreation: false });
const timeout = setTimeout(() => {
  console.error(`read ${count} of ${expected} messages in 10 minutes`);
  process.exit(1);
}, 600_000);

let count = 0;
let first = 0;
let last = 0;
let cpu = process.cpuUsage();
let done: () => void = () => undefined;
const finished = new Promise<void>((resolve) => (done = resolve));
await consumer.connect();
await consumer.subscribe({ topic: env('RAW_TOPIC'), fromBeginning: true });
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
await finished;
const used = process.cpuUsage(cpu);
await consumer.disconnect();
clearTimeout(timeout);
const seconds = (last - first) / 1000;
const round2 = (n: number) => Math.round(n * 100) / 100;
console.log(JSON.stringify({ messages: count, seconds: round2(seconds), events_per_second: Math.round(count / seconds), cpu_us_per_event: round2((used.user + used.system) / count) }));
