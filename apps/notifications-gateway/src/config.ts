import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import { Type, commonEnv, commonSettings, createConfigLoader, csv } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  PORT: Type.Integer({ default: 3004, minimum: 1, maximum: 65535 }),
  HOST: Type.String({ default: '127.0.0.1' }),
  API_KEY_PEPPER: Type.String({ minLength: 16 }),
  COMMAND_TIMEOUT_MS: Type.Integer({ default: 10_000, minimum: 100, maximum: 120_000 }),
  BODY_LIMIT_BYTES: Type.Integer({ default: 65_536, minimum: 1024 }),
  /** Names this replica's command replies and its watch-stream consumer group (one group per replica). */
  REPLICA_ID: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9._-]{1,100}$' })),
  /** As the notifier has them: the methods besides the inbox, the first the default. */
  NOTIFIER_METHODS: Type.String({ default: 'smtp', pattern: '^\\s*(smtp|webhook)\\s*(,\\s*(smtp|webhook)\\s*)*$' }),
  /** Frames a watch stream may have unsent before the reader is closed as too slow. */
  WATCH_MAX_FRAMES_BEHIND: Type.Integer({ default: 256, minimum: 1, maximum: 100_000 }),
  WATCH_PING_MS: Type.Integer({ default: 15_000, minimum: 100 }),
  /** How long a reader past WATCH_MAX_FRAMES_BEHIND may leave a ping unanswered before it is closed. */
  WATCH_SLOW_GRACE_MS: Type.Integer({ default: 5_000, minimum: 10 }),
  /** Notifications an SSE reconnect replays at most (older gaps: list the inbox). */
  WATCH_RESUME_LIMIT: Type.Integer({ default: 1_000, minimum: 1, maximum: 100_000 }),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  env: env.NODE_ENV,
  http: { port: env.PORT, host: env.HOST, bodyLimit: env.BODY_LIMIT_BYTES },
  apiKeyPepper: env.API_KEY_PEPPER,
  commandTimeoutMs: env.COMMAND_TIMEOUT_MS,
  replicaId: env.REPLICA_ID ?? `notifications-gateway-${hostname()}-${process.pid}-${randomBytes(3).toString('hex')}`,
  methods: [...new Set(csv(env.NOTIFIER_METHODS))] as Array<'smtp' | 'webhook'>,
  watch: {
    maxFramesBehind: env.WATCH_MAX_FRAMES_BEHIND,
    pingMs: env.WATCH_PING_MS,
    slowGraceMs: env.WATCH_SLOW_GRACE_MS,
    resumeLimit: env.WATCH_RESUME_LIMIT,
  },
}));

export type GatewayConfig = ReturnType<typeof config.get>;
