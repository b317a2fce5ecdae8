import { setTimeout as sleep } from 'node:timers/promises';
import type { Consumer, EachMessagePayload, Producer } from 'kafkajs';
import { isMessageType, type MessageType, type MessageTypes } from '@platform/contracts';
import { isPlatformError } from '@platform/errors';
import { backoffDelay } from './backoff.js';
import { decodeBody } from './decode.js';
import { deferredCommits } from './deferred-commits.js';
import { isGroupMembershipLost } from './group-errors.js';
import type { KafkaClient } from './client.js';
import { HEADERS, headersToStrings, readHeaders, type MessageMeta } from './headers.js';
import { joinGroup } from './join-group.js';
import { processMessage, processed } from './message-metrics.js';
import { topicName } from './topics.js';

export interface IncomingMessage<T extends MessageType = MessageType> {
  topic: string;
  partition: number;
  offset: string;
  key: string | null;
  type: T;
  value: MessageTypes[T];
  meta: MessageMeta;
  /** Long handlers call this between steps; the runner also heartbeats on a timer while a handler runs. */
  heartbeat(): Promise<void>;
}

export type MessageHandler<T extends MessageType> = (message: IncomingMessage<T>) => Promise<void>;

/** A typed map from message type to handler: a handler for a missing type is a type error at the call site. */
export type HandlerMap<K extends MessageType> = { [T in K]: MessageHandler<T> };

export interface ConsumerOptions<K extends MessageType> {
  client: KafkaClient;
  groupId: string;
  /** Logical topic names (the client's prefix is added). */
  topics: string[];
  handlers: HandlerMap<K>;
  /** Attempts for a retriable failure before the message goes to `<topic>.dlq`. */
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  partitionsConsumedConcurrently?: number;
  sessionTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  fromBeginning?: boolean;
  /** Called after a message is dead-lettered (a command's sender is told, rather than left to time out). */
  onDeadLetter?: (meta: MessageMeta | undefined, reason: string) => Promise<void>;
  /** Names the consuming process in spans (`platform.component`). */
  component?: string;
  /**
   * A known message type without a handler: `skip` it (the default: an event reaction ignores the other events
   * of its topic) or `dead-letter` it (a command group: the sender is then told through `onDeadLetter`).
   */
  unhandled?: 'skip' | 'dead-letter';
  /**
   * How often handled offsets are committed (default 1 s, every partition in one request). A crash or a
   * rebalance hands what was handled since the last commit to a member again, which every handler tolerates.
   */
  commitIntervalMs?: number;
}

/** How long `stop` waits for the handlers running to finish before it commits and leaves the group. */
const FINISH_ON_STOP_MS = 10_000;

export interface ConsumerHandle {
  /** Resolves once the group has been joined and partitions assigned. */
  ready: Promise<void>;
  /** Finishes in-flight messages, commits offsets and leaves the group. */
  stop(): Promise<void>;
  isRunning(): boolean;
}

export async function runConsumer<K extends MessageType>(options: ConsumerOptions<K>): Promise<ConsumerHandle> {
  const { client } = options;
  const logger = client.logger.child({ group: options.groupId });
  const maxAttempts = options.maxAttempts ?? 5;
  const heartbeatIntervalMs = options.heartbeatIntervalMs ?? 3000;
  const consumer: Consumer = client.kafka.consumer({
    groupId: `${client.topicPrefix}${options.groupId}`,
    sessionTimeout: options.sessionTimeoutMs ?? 30000,
    heartbeatInterval: heartbeatIntervalMs,
    allowAutoTopicCreation: false,
  });
  const deadLetters: Producer = client.kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  let stopping = false;
  let running = false;

  const handlers = options.handlers as unknown as Record<string, MessageHandler<MessageType> | undefined>;

  async function deadLetter(payload: EachMessagePayload, reason: string, attempts: number) {
    const headers: Record<string, string> = {
      ...headersToStrings(payload.message.headers),
      [HEADERS.error]: reason.slice(0, 1000),
      [HEADERS.attempt]: String(attempts),
    };
    await deadLetters.send({
      topic: `${payload.topic}.dlq`,
      acks: -1,
      messages: [{ key: payload.message.key, value: payload.message.value, headers }],
    });
    logger.error({ topic: payload.topic, offset: payload.message.offset, reason }, 'message dead-lettered');
    processed.add(1, { group: options.groupId, outcome: 'dead_lettered' });
    await options.onDeadLetter?.(readHeaders(payload.message.headers), reason).catch((error: unknown) => {
      logger.warn({ err: error }, 'dead-letter hook failed');
    });
  }

  async function handle(payload: EachMessagePayload): Promise<void> {
    const { message, topic, partition } = payload;
    const meta = readHeaders(message.headers);
    if (!meta || !message.value) {
      await deadLetter(payload, 'missing ce_* headers or empty body', 0);
      return;
    }
    if (!isMessageType(meta.type)) {
      await deadLetter(payload, `unknown message type ${meta.type}`, 0);
      return;
    }
    const handler = handlers[meta.type];
    if (!handler) {
      // An event reaction skips the other events of its topic; a command nobody handles must not be lost
      // silently (its sender would wait for a reply that never comes): it is dead-lettered and answered.
      if (options.unhandled === 'dead-letter')
        await deadLetter(payload, `no handler for ${meta.type} in ${options.groupId}`, 0);
      return;
    }
    let value: MessageTypes[MessageType];
    try {
      value = await decodeBody(client.registry, meta.type, meta, message.value);
    } catch (error) {
      if (isPlatformError(error) && error.retriable) throw error; // the registry is away: the message comes again
      await deadLetter(payload, (error as Error).message, 0);
      return;
    }
    const incoming: IncomingMessage = {
      topic,
      partition,
      offset: message.offset,
      key: message.key?.toString() ?? null,
      type: meta.type,
      value,
      meta,
      heartbeat: payload.heartbeat,
    };
    const where = {
      topic,
      offset: message.offset,
      groupId: options.groupId,
      component: options.component ?? options.groupId,
    };
    for (let attempt = 1; ; attempt++) {
      const timer = setInterval(() => void payload.heartbeat().catch(() => undefined), heartbeatIntervalMs);
      try {
        await processMessage(where, meta, () => handler(incoming));
        processed.add(1, { group: options.groupId, type: meta.type, outcome: 'ok' });
        return;
      } catch (error) {
        if (isGroupMembershipLost(error)) {
          // The partition is moving to another member, which redoes this message (handlers are idempotent).
          processed.add(1, { group: options.groupId, type: meta.type, outcome: 'handed_over' });
          logger.info({ topic, offset: message.offset }, 'group rebalancing: message left to the next owner');
          throw error;
        }
        const retriable = !isPlatformError(error) || error.retriable;
        const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        if (!retriable || attempt >= maxAttempts) {
          await deadLetter(payload, reason, attempt);
          return;
        }
        processed.add(1, { group: options.groupId, type: meta.type, outcome: 'retried' });
        if (stopping) throw error; // leave the offset uncommitted: the next owner retries it
        const delay = backoffDelay(attempt, options.backoffBaseMs ?? 200, options.backoffMaxMs ?? 10_000);
        logger.warn({ err: error, topic, offset: message.offset, attempt, delay }, 'handler failed, retrying');
        await sleep(delay);
      } finally {
        clearInterval(timer);
      }
    }
  }

  // Offsets are committed once a second for every partition at once, not after every fetch (kafkajs's
  // autoCommit), which at a worker's pace is a broker round trip per message (issue 41).
  const commits = deferredCommits(consumer, { intervalMs: options.commitIntervalMs ?? 1000, logger });
  /** The handlers running, which `stop` waits for before it commits. */
  const inFlight = new Set<Promise<void>>();
  async function handleThenDefer(payload: EachMessagePayload): Promise<void> {
    const run = handle(payload);
    inFlight.add(run);
    try {
      await run;
    } finally {
      inFlight.delete(run);
    }
    // Handled, skipped or dead-lettered: the message is done (a handler that throws leaves it to be read again).
    commits.defer(payload.topic, payload.partition, String(BigInt(payload.message.offset) + 1n));
  }

  const { ready } = await joinGroup(
    client,
    { consumer, deadLetters, logger },
    { topics: options.topics, fromBeginning: options.fromBeginning ?? true },
    {
      autoCommit: false,
      partitionsConsumedConcurrently: options.partitionsConsumedConcurrently ?? 1,
      eachMessage: handleThenDefer,
    },
  );
  running = true;

  return {
    ready,
    isRunning: () => running,
    async stop() {
      if (stopping) return;
      stopping = true;
      // No new fetches; the handlers running finish (a retrying one gives up at once: `stopping`), and what they
      // finished is committed while this member still owns the partitions.
      consumer.pause(options.topics.map((topic) => ({ topic: topicName(client, topic) })));
      const deadline = performance.now() + FINISH_ON_STOP_MS;
      while (inFlight.size > 0 && performance.now() < deadline) {
        await Promise.race([
          Promise.allSettled(inFlight),
          sleep(Math.max(0, deadline - performance.now()), undefined, { ref: false }),
        ]);
      }
      await commits.stop();
      await consumer.disconnect();
      await deadLetters.disconnect();
      running = false;
    },
  };
}
