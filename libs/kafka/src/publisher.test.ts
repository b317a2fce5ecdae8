import {
  KafkaJSConnectionError,
  KafkaJSNonRetriableError,
  KafkaJSNumberOfRetriesExceeded,
  KafkaJSProtocolError,
  type Kafka,
} from 'kafkajs';
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { describe, expect, it } from 'vitest';
import { MessageTypeNames } from '@platform/contracts';
import { UnavailableError } from '@platform/errors';
import type { KafkaClient } from './client.js';
import { BROKER_RETRY_AFTER_SECONDS, createPublisher, lostProducerState } from './publisher.js';

/** A client whose producer fails every send as kafkajs does once its retries are spent on an unreachable broker. */
function unreachableBroker(): KafkaClient {
  const failure = new KafkaJSNumberOfRetriesExceeded(
    new KafkaJSConnectionError('Connection error: connect ECONNREFUSED 127.0.0.1:9092'),
    { retryCount: 8, retryTime: 5000 },
  );
  const producer = { sendBatch: () => Promise.reject(failure) };
  return { kafka: { producer: () => producer } as unknown as Kafka, topicPrefix: '' } as unknown as KafkaClient;
}

const click = {
  topic: 'links.clicks' as const,
  key: 'sho.rt/abc',
  type: MessageTypeNames.ShortlinkClicked,
  value: {
    click_id: 'r1:b:1',
    id: 'sho.rt/abc',
    organization_id: 'o1',
    group_guid: 'g1',
    long_url: 'https://example.com/',
    clicked_at: 0,
    referrer: null,
    user_agent: null,
    client_ip: null,
    bot: false,
    qr: false,
    qrcode_id: null,
    passed_params: '',
  },
};

/** kafkajs's answer once a restarted broker has lost the producer's sequence state, as its retrier wraps it. */
const outOfOrder = () => {
  // kafkajs's typings leave out the constructor arguments its retrier passes.
  const protocol = new KafkaJSProtocolError({
    type: 'OUT_OF_ORDER_SEQUENCE_NUMBER',
    code: 45,
    retriable: false,
    message: 'The broker received an out of order sequence number',
  } as unknown as Error);
  const NonRetriable = KafkaJSNonRetriableError as unknown as new (e: Error, options: { cause: Error }) => Error;
  return new NonRetriable(protocol, { cause: protocol });
};

describe('createPublisher', () => {
  it('replaces a producer whose sequence state the broker lost, so that the retry goes out on a new producer id', async () => {
    const made: Array<{ connects: number; disconnects: number }> = [];
    const kafka = {
      producer: () => {
        const counts = { connects: 0, disconnects: 0 };
        made.push(counts);
        const first = made.length === 1;
        return {
          connect: async () => void counts.connects++,
          disconnect: async () => void counts.disconnects++,
          sendBatch: () => (first ? Promise.reject(outOfOrder()) : Promise.resolve([])),
        };
      },
    } as unknown as Kafka;
    const client = { kafka, topicPrefix: '' } as unknown as KafkaClient;
    const publisher = createPublisher(client, { source: '/links-gateway' });
    await publisher.connect();
    await expect(publisher.publish(click)).rejects.toBeInstanceOf(UnavailableError);
    expect(made).toEqual([
      { connects: 1, disconnects: 1 },
      { connects: 1, disconnects: 0 },
    ]);
    await expect(publisher.publish(click)).resolves.toEqual(expect.any(String));
    expect(lostProducerState(new KafkaJSConnectionError('Connection error'))).toBe(false);
  });

  it('connects a replacement producer that could not connect at once with the next send, not never', async () => {
    const made: Array<{ connects: number; sends: number }> = [];
    let brokerBack = false;
    const kafka = {
      producer: () => {
        const counts = { connects: 0, sends: 0 };
        made.push(counts);
        const first = made.length === 1;
        let connected = false;
        return {
          connect: async () => {
            counts.connects++;
            if (!first && !brokerBack) throw new KafkaJSConnectionError('Connection error: connect ECONNREFUSED');
            connected = true;
          },
          disconnect: async () => undefined,
          sendBatch: async () => {
            counts.sends++;
            if (first) throw outOfOrder();
            // As kafkajs does: a producer whose connect failed refuses every send.
            if (!connected) throw new KafkaJSNonRetriableError('The producer is disconnected');
            return [];
          },
        };
      },
    } as unknown as Kafka;
    const publisher = createPublisher({ kafka, topicPrefix: '' } as unknown as KafkaClient, { source: '/e2e' });
    await publisher.connect();
    await expect(publisher.publish(click)).rejects.toBeInstanceOf(UnavailableError);
    await expect(publisher.publish(click)).rejects.toBeInstanceOf(UnavailableError);
    expect(made).toEqual([
      { connects: 1, sends: 1 },
      { connects: 2, sends: 0 },
    ]);
    brokerBack = true;
    await expect(publisher.publishMany([click, click])).resolves.toHaveLength(2);
    await expect(publisher.publish(click)).resolves.toEqual(expect.any(String));
    expect(made[1]).toEqual({ connects: 3, sends: 2 });
  });

  it('reports a broker it cannot reach as unavailable, retriable, with a Retry-After, the cause kept', async () => {
    const publisher = createPublisher(unreachableBroker(), { source: '/links-gateway' });
    const published = publisher.publish(click);
    const error = await published.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(UnavailableError);
    expect(error).toMatchObject({
      kind: 'unavailable',
      code: 'broker_unavailable',
      retriable: true,
      retryAfterSeconds: BROKER_RETRY_AFTER_SECONDS,
    });
    expect((error as Error).cause).toBeInstanceOf(KafkaJSNumberOfRetriesExceeded);
  });

  it('sends the publishes made while one is on its way together, each under its own trace, a malformed one failing alone', async () => {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    const sent: Array<{ headers: Record<string, string> }[]> = [];
    const answers: Array<() => void> = [];
    const producer = {
      connect: async () => undefined,
      sendBatch: (batch: { topicMessages: Array<{ messages: Array<{ headers: Record<string, string> }> }> }) => {
        sent.push(batch.topicMessages.flatMap((t) => t.messages));
        return new Promise<[]>((resolve) => answers.push(() => resolve([])));
      },
    };
    const client = { kafka: { producer: () => producer }, topicPrefix: '' } as unknown as KafkaClient;
    const publisher = createPublisher(client, { source: '/links-gateway' });
    await publisher.connect();
    const traced = (traceId: string) =>
      trace.setSpanContext(context.active(), { traceId, spanId: 'b7ad6b7169203331', traceFlags: 1 });
    const first = context.with(traced('11111111111111111111111111111111'), () => publisher.publish(click));
    const second = context.with(traced('22222222222222222222222222222222'), () => publisher.publish(click));
    const untraced = publisher.publish(click);
    const malformed = publisher.publish({ ...click, value: { ...click.value, clicked_at: 'not a time' as never } });
    await expect(malformed).rejects.toThrow();
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((batch) => batch.length)).toEqual([1]);
    answers.shift()!();
    await first;
    await new Promise((resolve) => setImmediate(resolve));
    expect(sent.map((batch) => batch.length)).toEqual([1, 2]);
    answers.shift()!();
    const ids = await Promise.all([first, second, untraced]);
    expect(new Set(ids).size).toBe(3);
    const traceOf = (headers: Record<string, string>) => headers['traceparent']?.split('-')[1];
    expect(traceOf(sent[0]![0]!.headers)).toBe('11111111111111111111111111111111');
    expect(traceOf(sent[1]![0]!.headers)).toBe('22222222222222222222222222222222');
    expect(sent[1]![1]!.headers['traceparent']).toBeUndefined();
    context.disable();
    propagation.disable();
  });
});
