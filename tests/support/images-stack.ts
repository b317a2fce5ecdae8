import { createAccounts, type Accounts } from '@platform/accounts';
import type { HttpApp } from '@platform/http';
import { createCompressionCounts, type CompressionCounts } from '@platform/images';
import type { MongoConnection } from '@platform/mongo';
import { startService } from '@platform/runtime/start';
import { testLogger } from './test-logger.js';
import { freePort, isolatedAppEnv, resolveInfra, uniqueName } from '@platform/testing';
// The apps are composed in-process from the same builders their main.ts runs (service.ts), with their own
// configuration read from an isolated environment.
import { config as gatewayConfig } from '../../apps/images-gateway/src/config.js';
import { build as buildGateway } from '../../apps/images-gateway/src/service.js';
import { config as workerConfig } from '../../apps/image-worker/src/config.js';
import { build as buildWorker } from '../../apps/image-worker/src/service.js';
import { TEST_SECRETS } from './secrets.js';
import { startTlsTerminator } from './tls-terminator.js';

export interface ImagesStack {
  app: HttpApp;
  /** The gateway's own listener (plain HTTP), for clients outside the process. */
  url: string;
  /** The HTTPS address clients use ({base_url}); `Location` headers point here. */
  baseUrl: string;
  /** The certificate of baseUrl, for clients to trust. */
  certificate: string;
  accounts: Accounts;
  counts: CompressionCounts;
  mongo: MongoConnection;
  newKey(): Promise<{ key: string; accountId: string }>;
  close(): Promise<void>;
}

export interface ImagesStackOptions {
  workers?: number;
  monthlyQuota?: number;
  uploadLimitBytes?: number;
  maxPixels?: number;
  /** CIDRs source URLs and store endpoints may reach although private (the local S3/GCS servers). */
  egressAllow?: string[];
  sourceMaxBytes?: number;
  workBudgetSeconds?: number;
  avifBudgetMs?: number;
}

/**
 * The image gateway (behind a TLS terminator) and image workers in one process, each started by the runtime
 * from its own service builder, on real Kafka, FerretDB and Redis, isolated by a unique database and topic
 * prefix (Redis keys hold random output ids, so suites never collide).
 */
export async function startImagesStack(options: ImagesStackOptions = {}): Promise<ImagesStack> {
  const infra = resolveInfra();
  const name = uniqueName('img');
  const port = await freePort();
  const tlsTerminator = await startTlsTerminator(() => port);
  const baseUrl = `https://127.0.0.1:${tlsTerminator.port}`;
  const env = isolatedAppEnv(name, {
    ...TEST_SECRETS,
    PORT: String(port),
    PUBLIC_BASE_URL: baseUrl,
    COMMAND_TIMEOUT_MS: '60000',
    UPLOAD_LIMIT_BYTES: String(options.uploadLimitBytes ?? 8 * 1024 * 1024),
    IMAGE_RETENTION_SECONDS: '600',
    IMAGE_MONTHLY_QUOTA: String(options.monthlyQuota ?? 0),
    IMAGE_MAX_PIXELS: String(options.maxPixels ?? 50_000_000),
    IMAGE_WORK_BUDGET_SECONDS: String(options.workBudgetSeconds ?? 60),
    IMAGE_AVIF_BUDGET_MS: String(options.avifBudgetMs ?? 15_000),
    SOURCE_URL_MAX_BYTES: String(options.sourceMaxBytes ?? 5 * 1024 * 1024),
    SOURCE_URL_TIMEOUT_MS: '5000',
    EGRESS_ALLOW: (options.egressAllow ?? []).join(','),
    STORE_S3_ENDPOINT: infra.s3.url,
    STORE_GCS_ENDPOINT: infra.gcsUrl,
    STORE_TIMEOUT_MS: '10000',
    OUTBOX_INTERVAL_MS: '200',
    KAFKA_SESSION_TIMEOUT_MS: '6000',
  });
  const logger = testLogger(name);
  const workers = await Promise.all(
    Array.from({ length: options.workers ?? 1 }, () =>
      startService('image-worker', buildWorker, { settings: workerConfig.read(env), logger }),
    ),
  );
  const gateway = await startService('images-gateway', buildGateway, { settings: gatewayConfig.read(env), logger });
  // The runtime starts consumers without waiting for their group; a test's first command should not.
  await Promise.all(workers.map((w) => w.service.ready?.()));
  const mongo = await gateway.context.mongo();
  const accounts = createAccounts({
    connection: mongo,
    redis: gateway.context.redis(),
    pepper: TEST_SECRETS.API_KEY_PEPPER,
  });
  await accounts.ensureIndexes();

  return {
    app: gateway.service.http.app,
    url: gateway.url!,
    baseUrl,
    certificate: tlsTerminator.certificate,
    accounts,
    counts: createCompressionCounts(mongo),
    mongo,
    async newKey() {
      const environment = await accounts.createEnvironment('images', 'test');
      const { key } = await accounts.createKey(environment._id);
      return { key, accountId: environment._id };
    },
    async close() {
      await tlsTerminator.close();
      for (const worker of workers) await worker.stop().catch(() => undefined);
      await mongo.dropDatabase().catch(() => undefined);
      await gateway.stop();
    },
  };
}
