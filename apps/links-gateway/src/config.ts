import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Type, commonEnv, commonSettings, createConfigLoader, parseTrustProxy, trustProxyEnv } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...trustProxyEnv,
  PORT: Type.Integer({ default: 3005, minimum: 1, maximum: 65535 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  API_KEY_PEPPER: Type.String({ minLength: 16 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  COMMAND_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100, maximum: 120_000 }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 262_144, minimum: 1024 }),
  REPLICA_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' })),
  /** The gateway's public address ({base_url}), for `references`. */
  PUBLIC_BASE_URL: Type.String({ default: 'http://127.0.0.1:3005', pattern: '^https?://' }),
  /** The default short domain the redirector answers for (host, with a port when not 80/443). */
  LINKS_DEFAULT_DOMAIN: Type.String({ default: 'localhost:3006', minLength: 1 }),
  /** The scheme of short links (`link`); https in production, http for a local redirector. */
  /** Calls an organization may make each hour to one endpoint with one method (a tenth of it a minute). */
  LINKS_HOURLY_LIMIT: Type.Integer({ default: 10_000, minimum: 1 }),
  /** Own hourly limits per endpoint and method, as JSON: {"/shorten": {"POST": 1000}}. */
  LINKS_PLATFORM_LIMITS: Type.String({ default: '{}' }),
  /** How long the metrics operations reuse closed buckets (0: read every time); a late click shows that much later. */
  LINKS_METRICS_CLOSED_TTL_MS: Type.Integer({ default: 5_000, minimum: 0, maximum: 300_000 }),
  LINKS_SHORT_URL_SCHEME: Type.Union([Type.Literal('http'), Type.Literal('https')], { default: 'https' }),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  env: env.NODE_ENV,
  http: {
    port: env.PORT,
    host: env.HOST,
    bodyLimit: env.BODY_LIMIT_BYTES,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
  },
  apiKeyPepper: env.API_KEY_PEPPER,
  sealingKey: env.SECRETS_SEALING_KEY,
  commandTimeoutMs: env.COMMAND_TIMEOUT_MS,
  replicaId: env.REPLICA_ID ?? `links-gateway-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
  publicBaseUrl: env.PUBLIC_BASE_URL.replace(/\/+$/, ''),
  defaultDomain: env.LINKS_DEFAULT_DOMAIN.toLowerCase(),
  scheme: env.LINKS_SHORT_URL_SCHEME,
  platformLimits: { defaultHourly: env.LINKS_HOURLY_LIMIT, overrides: parsePlatformLimits(env.LINKS_PLATFORM_LIMITS) },
  metricsClosedTtlMs: env.LINKS_METRICS_CLOSED_TTL_MS,
}));

function parsePlatformLimits(raw: string): Record<string, Record<string, number>> {
  const parsed: unknown = JSON.parse(raw);
  const isLimits = (v: unknown): v is Record<string, Record<string, number>> =>
    typeof v === 'object' &&
    v !== null &&
    Object.values(v).every(
      (m) =>
        typeof m === 'object' && m !== null && Object.values(m).every((n) => Number.isInteger(n) && (n as number) > 0),
    );
  if (!isLimits(parsed)) throw new Error('LINKS_PLATFORM_LIMITS must be JSON such as {"/shorten": {"POST": 1000}}');
  return parsed;
}

export type GatewayConfig = ReturnType<typeof config.get>;
