import { request as httpRequest } from 'node:http';
import { startService } from '@platform/runtime/start';
import { isolatedAppEnv } from '@platform/testing';
import { config as aggregatorConfig } from '../../apps/analytics-aggregator/src/config.js';
import { build as buildAggregator } from '../../apps/analytics-aggregator/src/service.js';
import type { LinksStack } from './links-stack.js';
import { testLogger } from './test-logger.js';

/**
 * A request for path (`/<hash>`, with its query if any) at the stack's first redirector, with host as the Host
 * header and headers besides; answers the status. The redirect itself is not followed (node:http, not fetch).
 */
export function redirect(
  stack: LinksStack,
  host: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest(new URL(path, stack.redirectors[0]), { headers: { host, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * The analytics aggregator on the stack's Kafka topics and database, with the shared test logger, ready when this
 * returns; stop it before closing the stack.
 */
export async function startAggregatorFor(stack: LinksStack): Promise<{ stop(): Promise<void> }> {
  const name = stack.mongo.name;
  const env = isolatedAppEnv(name, {
    KAFKA_TOPIC_PREFIX: stack.kafka.topicPrefix,
    MONGO_DB: name,
    KAFKA_SESSION_TIMEOUT_MS: '6000',
  });
  const started = await startService('analytics-aggregator', buildAggregator, {
    settings: aggregatorConfig.read(env),
    logger: testLogger(name),
  });
  await started.service.ready?.();
  return started;
}
