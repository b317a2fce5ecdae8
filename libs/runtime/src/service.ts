import type { HttpApp, ReadinessCheck } from '@platform/http';
import type { CommandBus, KafkaClient, Publisher } from '@platform/kafka';
import type { MongoConnection, startExpirySweeper } from '@platform/mongo';
import type { Redis } from '@platform/redis';
import type { Logger, MetricsHandler } from '@platform/telemetry';

/** What the runtime reads from every process's configuration (libs/config `commonSettings`, `workerSettings`). */
export interface RuntimeSettings {
  logLevel: string;
  kafka: { brokers: string[]; topicPrefix: string; schemaRegistry?: { url: string; timeoutMs: number } | undefined };
  mongo: { url: string; db: string };
  /** Absent for processes without Redis (the webhook dispatcher). */
  redisUrl?: string | undefined;
  otlpEndpoint?: string | undefined;
  traceSampleRatio?: number | undefined;
  shutdownTimeoutMs: number;
  /** A probe server for processes without an HTTP API of their own (workers); gateways serve probes themselves. */
  health?: { port: number; host: string } | undefined;
}

export type SweptCollections = Parameters<typeof startExpirySweeper>[0];

/**
 * What a service's `build` gets: its settings and logger, and the process's connections, each made once, on
 * first use, with its readiness check registered and its close scheduled. `readiness` and `metrics` are what a
 * gateway's app factory serves at /readyz and /metrics.
 */
export interface ServiceContext<S extends RuntimeSettings = RuntimeSettings> {
  readonly name: string;
  readonly settings: S;
  readonly logger: Logger;
  readonly metrics: MetricsHandler | undefined;
  /** The checks behind /readyz (a live list: connections made later add theirs). */
  readonly readiness: ReadinessCheck[];
  kafka(): KafkaClient;
  mongo(): Promise<MongoConnection>;
  redis(): Redis;
  /**
   * The process's Kafka producer (connected before the service starts, disconnected after it stops): the
   * gateways' commands go out on it, on @platformatic/kafka (ADR 0037).
   */
  publisher(): Publisher;
  /**
   * The process's command bus: commands out through the publisher, replies back on this replica's Redis
   * channel. Started before the HTTP listener opens, stopped once in-flight requests have drained.
   */
  commands(options: { replicaId: string; timeoutMs: number }): CommandBus;
  /** Deletes the expired documents (`expires_at` in the past) of these collections while the process runs. */
  sweep(collections: SweptCollections, options?: { intervalMs?: number }): void;
  /** A resource of the service's own (an HTTP client pool, say), closed after the service stops. */
  onClose(name: string, close: () => Promise<void> | void): void;
}

/**
 * A running process's parts, which the runtime starts in this order: `start` (consumers, relays, buses), then
 * the HTTP listener. Shutdown is the reverse and drains: the listener stops accepting and finishes in-flight
 * requests while `closeStreams` ends long-lived connections (WebSocket, SSE) with a reason; then `stop`
 * (consumers finish in-flight messages and commit offsets, relays publish what they hold), then sweepers,
 * the probe server, the service's own resources and the connections.
 */
export interface Service {
  http?: { app: HttpApp; port: number; host: string };
  start?(): Promise<void>;
  /** Resolves once the service can do its work (consumer groups joined); tests wait for it. */
  ready?(): Promise<void>;
  closeStreams?(): Promise<void>;
  stop?(): Promise<void>;
}

export type BuildService<S extends RuntimeSettings, X extends Service> = (context: ServiceContext<S>) => Promise<X>;
