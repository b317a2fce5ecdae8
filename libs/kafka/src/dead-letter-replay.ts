import { randomUUID } from 'node:crypto';
import { DEAD_LETTER } from '@platform/contracts';
import type { IHeaders, KafkaMessage } from 'kafkajs';
import type { KafkaClient } from './client.js';
import { HEADERS, headersToStrings } from './headers.js';
import { topicName } from './topics.js';

/** What a dead-lettered message says about itself (its headers), without decoding its body. */
export interface DeadLetter {
  offset: string;
  key: string | null;
  id: string | undefined;
  type: string | undefined;
  time: string | undefined;
  error: string | undefined;
  attempts: string | undefined;
}

export interface DeadLetterOptions {
  /** The topic whose dead letters these are (logical name, e.g. `images.commands`); they are in `<topic>.dlq`. */
  topic: string;
  /** Only messages of these types (the `ce_type` header); the others are left alone (replay) or not listed. */
  types?: readonly string[];
  /** Gives up when the dead-letter topic stops delivering before its end is reached. */
  idleTimeoutMs?: number;
}

/** The consumer group that remembers how far a topic's dead letters have been replayed. */
const replayGroupOf = (topic: string) => `dlq-replay.${topic}`;

function describe(message: KafkaMessage): DeadLetter {
  const headers = headersToStrings(message.headers);
  return {
    offset: message.offset,
    key: message.key?.toString() ?? null,
    id: headers[HEADERS.id],
    type: headers[HEADERS.type],
    time: headers[HEADERS.time],
    error: headers[HEADERS.error],
    attempts: headers[HEADERS.attempt],
  };
}

/** The message as it was first published: the dead-letter headers (`error`, `attempt`) taken off. */
function originalHeaders(headers: IHeaders | undefined): IHeaders {
  const out: IHeaders = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name !== HEADERS.error && name !== HEADERS.attempt && value !== undefined) out[name] = value;
  }
  return out;
}

/**
 * Reads `<topic>.dlq` from `groupId`'s committed offsets (or the start) up to the end it has when called, and hands
 * each message to `each`; the offsets of a partition are committed after each batch when `commit` is set.
 */
async function readToEnd(
  client: KafkaClient,
  options: DeadLetterOptions & { groupId: string; commit: boolean },
  each: (message: KafkaMessage) => Promise<void>,
): Promise<void> {
  const dlq = topicName(client, `${options.topic}${DEAD_LETTER.suffix}`);
  const groupId = `${client.topicPrefix}${options.groupId}`;
  const admin = client.kafka.admin();
  await admin.connect();
  let pending: Map<number, bigint>;
  try {
    if (!(await admin.listTopics()).includes(dlq)) throw new Error(`the topic ${dlq} does not exist`);
    const ends = await admin.fetchTopicOffsets(dlq);
    const [committed] = await admin.fetchOffsets({ groupId, topics: [dlq] });
    const from = new Map((committed?.partitions ?? []).map((p) => [p.partition, BigInt(p.offset)]));
    // Partitions with messages this group has not read yet: the last one to read is end - 1.
    pending = new Map(
      ends
        .filter((p) => BigInt(p.high) > BigInt(p.low) && BigInt(p.high) > (from.get(p.partition) ?? -1n))
        .map((p) => [p.partition, BigInt(p.high) - 1n]),
    );
  } finally {
    await admin.disconnect();
  }
  if (pending.size === 0) return;

  const consumer = client.kafka.consumer({ groupId, allowAutoTopicCreation: false, sessionTimeout: 30_000 });
  await consumer.connect();
  try {
    await consumer.subscribe({ topic: dlq, fromBeginning: true });
    await new Promise<void>((resolve, reject) => {
      let idle: NodeJS.Timeout;
      const armIdle = () => {
        clearTimeout(idle);
        idle = setTimeout(
          () => reject(new Error(`${dlq} delivered nothing for ${options.idleTimeoutMs ?? 60_000} ms before its end`)),
          options.idleTimeoutMs ?? 60_000,
        );
      };
      armIdle();
      consumer
        .run({
          autoCommit: false,
          eachBatch: async ({ batch }) => {
            armIdle();
            const last = pending.get(batch.partition);
            for (const message of batch.messages) {
              if (last === undefined || BigInt(message.offset) > last) break;
              await each(message);
              if (BigInt(message.offset) === last) pending.delete(batch.partition);
            }
            const done = batch.messages.at(-1);
            if (options.commit && done)
              await consumer.commitOffsets([
                { topic: dlq, partition: batch.partition, offset: String(BigInt(done.offset) + 1n) },
              ]);
            if (pending.size === 0) {
              clearTimeout(idle);
              resolve();
            }
          },
        })
        .catch(reject);
    });
  } finally {
    await consumer.disconnect();
  }
}

/** The dead letters of a topic, oldest first (a throwaway consumer group reads them; nothing is committed). */
export async function listDeadLetters(client: KafkaClient, options: DeadLetterOptions): Promise<DeadLetter[]> {
  const letters: DeadLetter[] = [];
  const groupId = `dlq-inspect.${options.topic}.${randomUUID()}`;
  await readToEnd(client, { ...options, groupId, commit: false }, async (message) => {
    const letter = describe(message);
    if (!options.types || (letter.type !== undefined && options.types.includes(letter.type))) letters.push(letter);
  });
  const admin = client.kafka.admin();
  await admin.connect();
  await admin.deleteGroups([`${client.topicPrefix}${groupId}`]).catch(() => undefined);
  await admin.disconnect();
  return letters;
}

/**
 * Publishes the dead letters of `<topic>.dlq` to `<topic>` again, as they were first published (same key, body and
 * headers, so the same event or command id: consumers that already applied one drop it). How far the replay got
 * is committed in the group `dlq-replay.<topic>`, so a second run publishes only what was dead-lettered since.
 * With `types`, nothing is committed: the other messages stay for a later full replay.
 */
export async function replayDeadLetters(
  client: KafkaClient,
  options: DeadLetterOptions & { onReplay?: (letter: DeadLetter) => void },
): Promise<{ replayed: number; skipped: number }> {
  const producer = client.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  const counts = { replayed: 0, skipped: 0 };
  try {
    await readToEnd(
      client,
      { ...options, groupId: replayGroupOf(options.topic), commit: !options.types },
      async (message) => {
        const letter = describe(message);
        if (options.types && (letter.type === undefined || !options.types.includes(letter.type))) {
          counts.skipped++;
          return;
        }
        await producer.send({
          topic: topicName(client, options.topic),
          acks: -1,
          messages: [{ key: message.key, value: message.value, headers: originalHeaders(message.headers) }],
        });
        counts.replayed++;
        options.onReplay?.(letter);
      },
    );
  } finally {
    await producer.disconnect();
  }
  return counts;
}
