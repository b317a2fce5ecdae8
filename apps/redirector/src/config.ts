import { hostname } from 'node:os';
import path from 'node:path';
import { Type, commonEnv, commonSettings, createConfigLoader, parseTrustProxy, trustProxyEnv } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...trustProxyEnv,
  PORT: Type.Integer({ default: 3006, minimum: 1, maximum: 65535 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  /** Names the replica in click ids and its links.events consumer group; stable across restarts (a pod name). */
  REPLICA_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' })),
  LINKS_DEFAULT_DOMAIN: Type.String({ default: 'localhost:3006', minLength: 1 }),
  /** `private, max-age=90`: browsers may reuse a redirect briefly, shared caches not (every click is seen). */
  REDIRECT_CACHE_CONTROL: Type.String({ default: 'private, max-age=90' }),
  LINK_CACHE_ENTRIES: Type.Integer({ default: 100_000, minimum: 100 }),
  LINK_CACHE_TTL_MS: Type.Integer({ default: 60_000, minimum: 100 }),
  LINK_MISS_TTL_MS: Type.Integer({ default: 5_000, minimum: 0 }),
  /** The share of redirects traced (a server span each); a request that carries trace context is always continued. */
  REDIRECT_TRACE_RATIO: Type.Number({ default: 0.01, minimum: 0, maximum: 1 }),
  CLICK_BUFFER_MAX: Type.Integer({ default: 100_000, minimum: 10 }),
  /** Avro encoding and the Kafka producer in a worker thread (the built app; from sources it runs inline). */
  CLICK_PUBLISHER_THREAD: Type.Boolean({ default: true }),
  CLICK_SPOOL_DIR: Type.Optional(Type.String({ minLength: 1 })),
  CLICK_SPOOL_MAX_BYTES: Type.Integer({ default: 512 * 1024 * 1024, minimum: 1024 }),
});

export const config = createConfigLoader(schema, (env) => {
  const replicaId = env.REPLICA_ID ?? `redirector-${hostname()}`;
  return {
    ...commonSettings(env),
    env: env.NODE_ENV,
    http: { port: env.PORT, host: env.HOST, trustProxy: parseTrustProxy(env.TRUST_PROXY) },
    replicaId,
    defaultDomain: env.LINKS_DEFAULT_DOMAIN.toLowerCase(),
    cacheControl: env.REDIRECT_CACHE_CONTROL,
    traceRatio: env.REDIRECT_TRACE_RATIO,
    cache: { maxEntries: env.LINK_CACHE_ENTRIES, ttlMs: env.LINK_CACHE_TTL_MS, missTtlMs: env.LINK_MISS_TTL_MS },
    clicks: {
      maxBuffered: env.CLICK_BUFFER_MAX,
      spoolDir:
        env.CLICK_SPOOL_DIR ?? path.join(process.env['HOME'] ?? '/tmp', '.local/state/platform/redirector', replicaId),
      maxSpoolBytes: env.CLICK_SPOOL_MAX_BYTES,
    },
    publisherThread: env.CLICK_PUBLISHER_THREAD,
  };
});

export type RedirectorConfig = ReturnType<typeof config.get>;
