import { commonEnv, commonSettings, createConfigLoader, csv, Type, workerEnv, workerSettings } from '@platform/config';

const schema = Type.Object({
  ...commonEnv,
  ...workerEnv({ partitionsConcurrency: 2, outboxIntervalMs: 5_000 }),
  SECRETS_SEALING_KEY: Type.String({ minLength: 16 }),
  /** How long outputs (and the uploads they come from) stay downloadable. */
  IMAGE_RETENTION_SECONDS: Type.Integer({ default: 86_400, minimum: 60 }),
  /** Decoded width × height above which an input is refused (decompression bombs). */
  IMAGE_MAX_PIXELS: Type.Integer({ default: 100_000_000, minimum: 1 }),
  /**
   * Estimated seconds of work one request may make (pixels × types × detail, libs/images work-budget.ts); more is
   * 413 before decoding, so that no request holds a worker near the gateway's 90 s deadline. 0: no bound.
   */
  IMAGE_WORK_BUDGET_SECONDS: Type.Number({ default: 60, minimum: 0 }),
  /** An AVIF encode still running after this is given up for WebP. 0: no bound. */
  IMAGE_AVIF_BUDGET_MS: Type.Integer({ default: 15_000, minimum: 0 }),
  /** Compressions per account and calendar month (UTC); 0 means no quota. */
  IMAGE_MONTHLY_QUOTA: Type.Integer({ default: 0, minimum: 0 }),
  SOURCE_URL_MAX_BYTES: Type.Integer({ default: 32 * 1024 * 1024, minimum: 1024 }),
  SOURCE_URL_TIMEOUT_MS: Type.Integer({ default: 15_000, minimum: 100, maximum: 120_000 }),
  /** CIDRs a source URL may reach although private (tests, an internal image host). */
  EGRESS_ALLOW: Type.String({ default: '' }),
  /** S3-compatible endpoint for the store option (path-style); `{region}` is replaced. Default: AWS. */
  STORE_S3_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^/]+/?$' })),
  /** GCS-compatible endpoint for the store option. Default: https://storage.googleapis.com. */
  STORE_GCS_ENDPOINT: Type.Optional(Type.String({ pattern: '^https?://[^/]+/?$' })),
  STORE_TIMEOUT_MS: Type.Integer({ default: 30_000, minimum: 100, maximum: 120_000 }),
});

export const config = createConfigLoader(schema, (env) => ({
  ...commonSettings(env),
  sealingKey: env.SECRETS_SEALING_KEY,
  retentionSeconds: env.IMAGE_RETENTION_SECONDS,
  limits: {
    maxPixels: env.IMAGE_MAX_PIXELS,
    workBudgetSeconds: env.IMAGE_WORK_BUDGET_SECONDS,
    avifBudgetMs: env.IMAGE_AVIF_BUDGET_MS,
  },
  monthlyQuota: env.IMAGE_MONTHLY_QUOTA,
  source: { maxBytes: env.SOURCE_URL_MAX_BYTES, timeoutMs: env.SOURCE_URL_TIMEOUT_MS },
  egressAllow: csv(env.EGRESS_ALLOW),
  storeEndpoints: {
    ...(env.STORE_S3_ENDPOINT ? { s3: env.STORE_S3_ENDPOINT } : {}),
    ...(env.STORE_GCS_ENDPOINT ? { gcs: env.STORE_GCS_ENDPOINT } : {}),
    timeoutMs: env.STORE_TIMEOUT_MS,
  },
  ...workerSettings(env),
}));
