import { createEgressClient, createEgressGuard } from '@platform/egress';
import type { ServiceContext } from '@platform/runtime';
import { createSealer } from '@platform/secrets';
import { createDeliveryStore } from '@platform/webhooks';
import type { config } from './config.js';
import { createDispatcher } from './dispatcher.js';

export async function build(ctx: ServiceContext<ReturnType<typeof config.get>>) {
  const { settings } = ctx;
  const store = createDeliveryStore(await ctx.mongo());
  await store.ensureIndexes();
  ctx.sweep(store.expiringCollections(), { intervalMs: 3600_000 });
  const egress = createEgressClient(createEgressGuard({ allow: settings.egressAllow }), {
    connections: settings.delivery.concurrency,
  });
  ctx.onClose('egress', () => egress.close());
  const dispatcher = createDispatcher({
    kafka: ctx.kafka(),
    store,
    redis: ctx.redis(),
    egress,
    sealer: createSealer(settings.sealingKey),
    logger: ctx.logger,
    ...settings.delivery,
  });
  return { start: () => dispatcher.start(), ready: () => dispatcher.ready(), stop: () => dispatcher.stop() };
}
