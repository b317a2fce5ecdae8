import { metrics } from '@opentelemetry/api';
import { MessageTypeNames } from '@platform/contracts';
import { createBulkPublisher, ensureTopics, runConsumer, type ConsumerHandle } from '@platform/kafka';
import { LINKS_TOPICS, createLinksStore } from '@platform/links';
import type { ServiceContext } from '@platform/runtime';
import { buildRedirector } from './app.js';
import { createClickBuffer } from './click-buffer.js';
import { createClickProducer } from './click-producer.js';
import { createLatencyHistogram } from './latency.js';
import { publisherThreadAvailable, startPublisherThread } from './click-publisher.js';
import type { RedirectorConfig } from './config.js';
import { createResolver } from './resolver.js';
import { createRedirectTracing } from './tracing.js';

const meter = metrics.getMeter('@platform/redirector');

export async function build(ctx: ServiceContext<RedirectorConfig>) {
  const { settings } = ctx;
  const mongo = await ctx.mongo();
  await ensureTopics(ctx.kafka(), [LINKS_TOPICS.events, LINKS_TOPICS.clicks]);
  const resolver = createResolver(createLinksStore(mongo), settings.cache);
  let buffered = 0;
  meter
    .createObservableGauge('platform.links.clicks.buffered', { description: 'Clicks waiting in memory for the broker' })
    .addCallback((r) => r.observe(buffered));
  const spilled = meter.createCounter('platform.links.clicks.spilled', {
    description: 'Clicks written to the spool file while the broker was unavailable',
  });
  const dropped = meter.createCounter('platform.links.clicks.dropped', {
    description: 'Clicks lost: memory and spool were full',
  });
  const published = meter.createCounter('platform.links.clicks.published', {
    description: 'Clicks published on links.clicks',
  });
  // Counted in plain numbers on the request path and read at scrape time: no label lookup per redirect.
  const answers = { 301: 0, 302: 0, 404: 0 };
  meter
    .createObservableCounter('platform.links.store_reads', {
      description: 'Links read from the store: misses of the in-memory cache, and refreshes',
    })
    .addCallback((r) => r.observe(resolver.reads));
  meter
    .createObservableCounter('platform.links.store_refreshes', {
      description: 'Of the store reads, those made in the background for a link in use near the end of its cache life',
    })
    .addCallback((r) => r.observe(resolver.refreshes));
  meter
    .createObservableCounter('platform.links.redirects', { description: 'Answers of the redirect route, by status' })
    .addCallback((r) => {
      for (const [status, count] of Object.entries(answers))
        r.observe(count, { 'http.response.status_code': Number(status) });
    });
  // OpenTelemetry has no observable histogram: the buckets are a cumulative counter by `le`, which PromQL's
  // histogram_quantile reads as it reads a histogram's _bucket series (the +Inf bucket counts every answer).
  const latency = createLatencyHistogram();
  meter
    .createObservableCounter('platform.links.redirects.within', {
      description: 'Redirect answers sent within `le` seconds of routing (cumulative buckets)',
    })
    .addCallback((r) => {
      for (const { le, count } of latency.read().buckets) r.observe(count, { le });
    });
  meter
    .createObservableCounter('platform.links.redirects.seconds', {
      description: 'Seconds spent answering redirects, summed',
    })
    .addCallback((r) => r.observe(latency.read().sum));
  // Encoding and producing cost more CPU than answering the redirect: they run in a thread of their own.
  const thread =
    settings.publisherThread && publisherThreadAvailable()
      ? startPublisherThread(
          {
            name: ctx.name,
            logLevel: settings.logLevel,
            brokers: settings.kafka.brokers,
            topicPrefix: settings.kafka.topicPrefix,
            schemaRegistry: settings.kafka.schemaRegistry,
            topic: LINKS_TOPICS.clicks,
          },
          ctx.logger,
        )
      : undefined;
  // Without the thread (from sources, or turned off), the same producer publishes in the thread that answers redirects.
  const sink =
    thread ?? createClickProducer(createBulkPublisher(ctx.kafka(), { source: `/${ctx.name}` }), LINKS_TOPICS.clicks);
  const clicks = createClickBuffer({
    sink,
    logger: ctx.logger,
    ...settings.clicks,
    metrics: {
      buffered: (n) => void (buffered = n),
      spilled: (n) => spilled.add(n),
      dropped: (n) => dropped.add(n),
      published: (n) => published.add(n),
    },
  });
  const app = await buildRedirector({
    logger: ctx.logger,
    readiness: ctx.readiness,
    resolver,
    clicks,
    defaultDomain: settings.defaultDomain,
    replicaId: settings.replicaId,
    cacheControl: settings.cacheControl,
    trustProxy: settings.http.trustProxy,
    tracing: createRedirectTracing({ ratio: settings.traceRatio }),
    onAnswer: (status, seconds) => {
      answers[status]++;
      latency.record(seconds);
    },
    ...(ctx.metrics ? { metrics: ctx.metrics } : {}),
  });
  let consumer: ConsumerHandle | undefined;
  return {
    http: { app, port: settings.http.port, host: settings.http.host },
    async start() {
      clicks.start();
      // Every replica sees every change (a group of its own) and forgets the link, so the next redirect reads it.
      consumer = await runConsumer<typeof MessageTypeNames.ShortlinkCreated | typeof MessageTypeNames.ShortlinkChanged>(
        {
          client: ctx.kafka(),
          component: 'redirector',
          groupId: `redirector.${settings.replicaId}`,
          topics: [LINKS_TOPICS.events],
          fromBeginning: false,
          handlers: {
            [MessageTypeNames.ShortlinkCreated]: async (message) => resolver.evict(message.value.id),
            [MessageTypeNames.ShortlinkChanged]: async (message) => resolver.evict(message.value.id),
          },
        },
      );
    },
    ready: () => consumer?.ready ?? Promise.resolve(),
    async stop() {
      await consumer?.stop();
      await clicks.stop();
      await sink.close();
    },
  };
}
