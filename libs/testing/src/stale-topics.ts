import { createKafka } from '@platform/kafka';
import { createLogger } from '@platform/telemetry';
import { leftBehind, type LeftBehind } from './left-behind.js';
import { parseUniqueName } from './wait.js';

/** The name of the isolated test stack a topic belongs to (`<uniqueName>.<catalogue name>`), if it is one's. */
function stackOf(topic: string) {
  const dot = topic.indexOf('.');
  return dot > 0 ? parseUniqueName(topic.slice(0, dot)) : undefined;
}

/**
 * Deletes the topics test stacks left behind (each stack has its own topic prefix): those of earlier runs older
 * than `maxAgeMs` (by the time in their name), or with `{ run }` those of one test run, at its end. Left alone they
 * pile up run after run until the broker's heap cannot hold their metadata and it stops, and a benchmark after a
 * test run measures a broker busy with thousands of partitions. A run in progress elsewhere keeps its own.
 */
export async function deleteStaleTestTopics(brokers: string, which: LeftBehind = {}): Promise<number> {
  const client = createKafka({
    brokers: brokers.split(','),
    clientId: 'test-cleanup',
    topicPrefix: '',
    logger: createLogger({ name: 'test-cleanup', level: 'warn' }),
  });
  const admin = client.kafka.admin();
  await admin.connect();
  try {
    const isLeft = leftBehind(which);
    const stale = (await admin.listTopics()).filter((topic) => isLeft(stackOf(topic)));
    let deleted = 0;
    for (let i = 0; i < stale.length; i += 200) {
      const batch = stale.slice(i, i + 200);
      try {
        await admin.deleteTopics({ topics: batch, timeout: 60_000 });
        deleted += batch.length;
      } catch {
        // One of them went meanwhile (another run's cleanup, or the other project's setup of this run, started at
        // the same moment): one at a time, of those still there. kafkajs retries the deletion of a topic that is
        // gone for seconds, which over hundreds of topics held the run up for half an hour.
        const left = new Set(await admin.listTopics());
        for (const topic of batch.filter((t) => left.has(t))) {
          await admin.deleteTopics({ topics: [topic], timeout: 60_000 }).then(
            () => void deleted++,
            () => undefined,
          );
        }
      }
    }
    return deleted;
  } finally {
    await admin.disconnect();
  }
}
