import { Kafka, logLevel, type LogEntry } from 'kafkajs';
import { createRegistrySchemas, createSchemaRegistryClient, type RegistrySchemas } from '@platform/contracts';
import { useFastRecordDecoder } from './record-decoder.js';
import { fixRequestQueueIdleTimer } from './request-queue-fix.js';

// Known, understood notices: the v2 partitioner change (we never relied on the old one) and the idempotent
// producer's retry cap (bounded retries are deliberate: a publish must fail rather than hang).
const QUIET = [/switched default partitioner/, /Limiting retries for the idempotent producer/];
import type { Logger } from '@platform/telemetry';

export interface KafkaOptions {
  brokers: string[];
  clientId: string;
  logger: Logger;
  /** Prepended to every topic name, so tests and tenants of one cluster never collide. */
  topicPrefix?: string;
  connectionTimeoutMs?: number;
  requestTimeoutMs?: number;
  /** With a registry, bodies are written in the Confluent wire format (ADR 0021); without, bare Avro. */
  schemaRegistry?: { url: string; timeoutMs?: number } | undefined;
}

export interface KafkaClient {
  kafka: Kafka;
  clientId: string;
  /** What a second client of the same cluster needs (the bulk publisher's, ADR 0022). */
  connection: { brokers: string[]; connectionTimeoutMs: number; requestTimeoutMs: number };
  topicPrefix: string;
  logger: Logger;
  registry?: RegistrySchemas;
}

const levels: Record<number, 'error' | 'warn' | 'info' | 'debug'> = {
  [logLevel.ERROR]: 'error',
  [logLevel.WARN]: 'warn',
  [logLevel.INFO]: 'info',
  [logLevel.DEBUG]: 'debug',
};

export function createKafka(options: KafkaOptions): KafkaClient {
  const logger = options.logger.child({ component: 'kafka' });
  if (!fixRequestQueueIdleTimer())
    logger.warn('kafkajs request queue not as expected: its idle timer fix is not applied');
  if (!useFastRecordDecoder())
    logger.warn('kafkajs record reader already loaded or not as expected: records are read by kafkajs’s own reader');
  const kafka = new Kafka({
    clientId: options.clientId,
    brokers: options.brokers,
    connectionTimeout: options.connectionTimeoutMs ?? 5000,
    requestTimeout: options.requestTimeoutMs ?? 15000,
    retry: { retries: 8, initialRetryTime: 200, maxRetryTime: 5000 },
    logLevel: logLevel.WARN,
    logCreator:
      () =>
      ({ level, log }: LogEntry) => {
        const { message, ...extra } = log;
        if (QUIET.some((q) => q.test(message))) return;
        // kafkajs reports every rebalance of a group it is leaving as an error during shutdown; keep them at warn.
        logger[levels[level] ?? 'info']({ ...extra }, message);
      },
  });
  const connection = {
    brokers: options.brokers,
    connectionTimeoutMs: options.connectionTimeoutMs ?? 5000,
    requestTimeoutMs: options.requestTimeoutMs ?? 15000,
  };
  const client: KafkaClient = {
    kafka,
    clientId: options.clientId,
    connection,
    topicPrefix: options.topicPrefix ?? '',
    logger,
  };
  if (options.schemaRegistry)
    client.registry = createRegistrySchemas(createSchemaRegistryClient(options.schemaRegistry));
  return client;
}
