import { randomUUID } from 'node:crypto';
import { CompressionTypes, type Producer } from 'kafkajs';
import { roundTripBatcher } from '@platform/batching';
import { UnavailableError } from '@platform/errors';
import {
  TOPIC_CATALOGUE,
  encodeMessage,
  frameConfluent,
  registrySubject,
  type MessageType,
  type MessageTypes,
} from '@platform/contracts';
import { SpanKind, injectTraceContext, withSpan } from '@platform/telemetry';
import type { KafkaClient } from './client.js';
import { HEADERS } from './headers.js';
import { topicName } from './topics.js';

export interface OutgoingMessage<T extends MessageType = MessageType> {
  topic: string;
  /** The aggregate id: one aggregate's messages land on one partition, in order. */
  key: string;
  type: T;
  value: MessageTypes[T];
  /** Defaults to a random UUID; pass a stable id to make a re-publish recognisable downstream. */
  id?: string;
  headers?: Record<string, string>;
}

export interface Publisher {
  connect(): Promise<void>;
  publish<T extends MessageType>(message: OutgoingMessage<T>): Promise<string>;
  publishMany(messages: OutgoingMessage[]): Promise<string[]>;
  disconnect(): Promise<void>;
}

/** What a client is told to wait after a publish failed for the broker's sake. */
export const BROKER_RETRY_AFTER_SECONDS = 5;

/** A record as both producers send it: the topic with its prefix, the key, the encoded body and the headers. */
export interface OutgoingRecord {
  id: string;
  topic: string;
  record: { key: string; value: Buffer; headers: Record<string, string> };
}

/**
 * Turns messages into records: the Avro body (framed for the registry when there is one) and the CloudEvents
 * headers. Shared by the kafkajs publisher and the bulk publisher (ADR 0022), so both write the same records.
 */
export function createRecordBuilder(client: KafkaClient, options: { source: string }) {
  /** The registry id of each (topic, record) of a batch; none without a registry. */
  async function registryIdsOf(
    messages: ReadonlyArray<{ topic: string; type: MessageType }>,
  ): Promise<Map<string, number> | undefined> {
    const { registry } = client;
    if (!registry) return undefined;
    const wanted = new Map<string, [string, MessageType]>();
    for (const m of messages)
      wanted.set(registrySubject(topicName(client, m.topic), m.type), [topicName(client, m.topic), m.type]);
    const ids = await Promise.all([...wanted.values()].map(([topic, type]) => registry.idOf(topic, type)));
    return new Map([...wanted.keys()].map((subject, i) => [subject, ids[i]!]));
  }

  /** `time` and `trace` are the batch's: one clock read and one trace context for all its messages. */
  function toRecord(
    message: OutgoingMessage,
    time: string,
    trace: Record<string, string>,
    registryIds?: Map<string, number>,
  ): OutgoingRecord {
    const encoded = encodeMessage(message.type, message.value as never);
    const registryId = registryIds?.get(registrySubject(topicName(client, message.topic), message.type));
    const id = message.id ?? randomUUID();
    const headers: Record<string, string> = {
      ...message.headers,
      [HEADERS.id]: id,
      [HEADERS.type]: message.type,
      [HEADERS.source]: options.source,
      [HEADERS.time]: time,
      [HEADERS.schema]: encoded.schemaId,
    };
    if (registryId !== undefined) headers[HEADERS.registryId] = String(registryId);
    // An outbox entry carries the trace of the change that wrote it; otherwise the current context is used.
    if (!headers[HEADERS.traceparent]) Object.assign(headers, trace);
    const value = registryId === undefined ? encoded.value : frameConfluent(registryId, encoded.value);
    return { id, topic: topicName(client, message.topic), record: { key: message.key, value, headers } };
  }

  return {
    registryIdsOf,
    /** The records of a batch, in its order, under the current trace context. */
    async records(messages: OutgoingMessage[]): Promise<OutgoingRecord[]> {
      const time = new Date().toISOString();
      const trace = injectTraceContext({});
      const registryIds = await registryIdsOf(messages);
      return messages.map((message) => toRecord(message, time, trace, registryIds));
    },
    /** Looks up the registry ids of what this app produces, so that a schema missing from the registry stops the start. */
    async checkProduced(): Promise<void> {
      const app = options.source.replace(/^\//, '');
      const produced = TOPIC_CATALOGUE.filter((topic) => topic.producers.includes(app));
      if (client.registry)
        await registryIdsOf(produced.flatMap((topic) => topic.records.map((type) => ({ topic: topic.name, type }))));
    },
  };
}

type RecordBuilder = ReturnType<typeof createRecordBuilder>;

/**
 * `publish` of both publishers: single publishes (a gateway's commands) made while one is on its way to the
 * broker go out together in the next produce request (issue 41: one request per command was a quarter of a
 * gateway's CPU). Each caller builds its own record first, under its own trace context, so a message that
 * cannot be encoded fails alone.
 */
export function joinedPublish(
  builder: RecordBuilder,
  send: (records: OutgoingRecord[]) => Promise<void>,
): Publisher['publish'] {
  const sendJoined = roundTripBatcher(async (records: OutgoingRecord[]) => {
    await send(records);
    return records.map(() => undefined);
  });
  return (message) =>
    withSpan('@platform/kafka', 'publish', { kind: SpanKind.PRODUCER }, async () => {
      const [record] = await builder.records([message as OutgoingMessage]);
      await sendJoined(record!);
      return record!.id;
    });
}

/** A send the producer gave up on: the broker is away, which a caller may retry, not a bug to hide as a 500. */
export const brokerUnavailable = (cause: unknown) =>
  new UnavailableError('broker_unavailable', 'The message broker is unavailable; try again later.', {
    cause,
    retryAfterSeconds: BROKER_RETRY_AFTER_SECONDS,
  });

/** Errors after which an idempotent producer's sequence numbers no longer match the broker's: a new producer id. */
const LOST_PRODUCER_STATE = new Set(['OUT_OF_ORDER_SEQUENCE_NUMBER', 'UNKNOWN_PRODUCER_ID', 'INVALID_PRODUCER_EPOCH']);

/** Whether kafkajs's error, or one it wraps, says the broker lost (or never had) this producer's state. */
export function lostProducerState(error: unknown, depth = 0): boolean {
  if (!error || typeof error !== 'object' || depth > 5) return false;
  const e = error as { type?: unknown; cause?: unknown; originalError?: unknown; errors?: unknown };
  if (typeof e.type === 'string' && LOST_PRODUCER_STATE.has(e.type)) return true;
  const inner = [e.cause, e.originalError, ...(Array.isArray(e.errors) ? (e.errors as unknown[]) : [])];
  return inner.some((cause) => lostProducerState(cause, depth + 1));
}

export function createPublisher(client: KafkaClient, options: { source: string }): Publisher {
  const newProducer = (): Producer =>
    client.kafka.producer({ idempotent: true, maxInFlightRequests: 5, allowAutoTopicCreation: false });
  let producer = newProducer();
  let connected = false;
  let replacing: Promise<void> | undefined;
  /** The replacement producer's connect failed (the broker not back yet): the next send connects it first. */
  let unconnected = false;
  let reconnecting: Promise<void> | undefined;
  const builder = createRecordBuilder(client, options);

  /**
   * A broker killed and restarted can lose the producer's sequence state (kafkajs then fails every send with
   * OUT_OF_ORDER_SEQUENCE_NUMBER, and does not recover by itself): the producer is replaced, taking a new
   * producer id, and the caller's retry goes out on it. What the old one sent unanswered may go out twice;
   * every consumer tolerates redelivery. A replacement that cannot connect yet is connected by the next send:
   * left as it is, kafkajs would refuse every send with "The producer is disconnected" for good.
   */
  function replaceProducer(): Promise<void> {
    replacing ??= (async () => {
      const old = producer;
      producer = newProducer();
      unconnected = connected;
      // Not awaited: a disconnect from a broker that went away must not hold up the sends on the new producer.
      void old.disconnect().catch(() => undefined);
      if (connected) await connectReplacement();
    })().finally(() => (replacing = undefined));
    return replacing;
  }

  function connectReplacement(): Promise<void> {
    const replacement = producer;
    reconnecting ??= replacement
      .connect()
      .then(() => {
        if (producer === replacement) unconnected = false;
      })
      .finally(() => (reconnecting = undefined));
    return reconnecting;
  }

  /** One produce request for the records (of one caller, or of several joined). */
  async function send(records: OutgoingRecord[]): Promise<void> {
    const byTopic = new Map<string, OutgoingRecord['record'][]>();
    for (const r of records) {
      const list = byTopic.get(r.topic);
      if (list) list.push(r.record);
      else byTopic.set(r.topic, [r.record]);
    }
    await replacing?.catch(() => undefined);
    try {
      if (unconnected) await connectReplacement();
      await producer.sendBatch({
        acks: -1,
        compression: CompressionTypes.None,
        timeout: 15000,
        topicMessages: [...byTopic].map(([topic, msgs]) => ({ topic, messages: msgs })),
      });
    } catch (error) {
      if (lostProducerState(error)) await replaceProducer().catch(() => undefined);
      // The producer has spent its retries: the broker is away, which a caller may retry (a gateway answers
      // 503 with Retry-After in its API's shape, a worker retries the message), not a bug to hide as a 500.
      throw brokerUnavailable(error);
    }
  }

  async function publishMany(messages: OutgoingMessage[]): Promise<string[]> {
    if (messages.length === 0) return [];
    return withSpan('@platform/kafka', 'publish', { kind: SpanKind.PRODUCER }, async (span) => {
      const records = await builder.records(messages);
      span.setAttribute('messaging.batch.message_count', records.length);
      await send(records);
      return records.map((r) => r.id);
    });
  }

  return {
    async connect() {
      connected = true;
      await producer.connect();
      await builder.checkProduced();
    },
    async disconnect() {
      connected = false;
      await replacing?.catch(() => undefined);
      await producer.disconnect();
    },
    publishMany,
    publish: joinedPublish(builder, send),
  };
}
