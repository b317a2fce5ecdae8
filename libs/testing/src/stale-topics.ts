import { createKafka } from '@platform/kafka';
import { createLogger } from '@platform/telemetry';
import { uniqueNameTime } from './wait.js';

/** When the isolated test stack of a topic (`<uniqueName>.<catalogue name>`) was made, if it is one's. */
function stackTime(topic: string): number | undefined {
  const dot = topic.indexOf('.');
  return dot > 0 ? uniqueNameTime(topic.slice(0, dot)) : undefined;
}

/**
 * Deletes the topics test stacks of earlier runs left behind (each stack has its own topic prefix). Left alone
 * they pile up run after run until the broker's heap cannot hold their metadata and it stops. Only topics
 * older than `maxAgeMs` (by the time in their name) go, so a run in progress elsewhere on the machine keeps
 * its own.
 */
export async function deleteStaleTestTopics(brokers: string, maxAgeMs = 3 * 3600_000): Promise<number> {
  const client = createKafka({ brokers: brokers.split(','), clientId: 'test-cleanup', topicPrefix: '', logger: createLogger({ name: 'test-cleanup', level: 'warn' }) });
  const admin = client.kafka.admin();
  await admin.connect();
  try {
    const cutoff = Date.now() - maxAgeMs;
    const stale = (await admin.listTopics()).filter((topic) => (stackTime(topic) ?? cutoff) < cutoff);
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
