import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames, type ShortlinkClicked } from '@platform/contracts';
import { createKafka, runConsumer, type ConsumerHandle } from '@platform/kafka';
import { createLogger } from '@platform/telemetry';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { startKafkaProxy, type KafkaProxy } from '../support/kafka-proxy.js';
import { TEST_SECRETS } from '../support/secrets.js';

const run = promisify(execFile);
const name = uniqueName('e2eout');
const DOMAIN = 'sho.rt';
const env = isolatedAppEnv(name, {
  ...TEST_SECRETS,
  LINKS_DEFAULT_DOMAIN: DOMAIN,
  OUTBOX_INTERVAL_MS: '200',
  KAFKA_SESSION_TIMEOUT_MS: '6000',
});

const processes: ManagedProcess[] = [];
let proxy: KafkaProxy;
let redirector: Pool;
let metricsUrl: string;
let hashes: string[];

/** A counter or gauge of the redirector's /metrics (0 before it is first recorded). */
async function metric(metricName: string): Promise<number> {
  const text = await (await fetch(metricsUrl)).text();
  return Number(new RegExp(`^${metricName}(?:\\{[^}]*\\})? (\\d+(?:\\.\\d+)?)`, 'm').exec(text)?.[1] ?? 0);
}

beforeAll(async () => {
  const [gatewayPort, redirectorPort] = [await freePort(), await freePort()];
  proxy = await startKafkaProxy();
  processes.push(startProcess('links-worker', 'apps/links-worker/dist/main.js', env));
  processes.push(
    startProcess('links-gateway', 'apps/links-gateway/dist/main.js', { ...env, PORT: String(gatewayPort) }),
  );
  // Only the redirector reaches Kafka through the proxy. A small memory buffer: an outage of seconds spills.
  processes.push(
    startProcess('redirector', 'apps/redirector/dist/main.js', {
      ...env,
      KAFKA_BROKERS: proxy.brokers,
      PORT: String(redirectorPort),
      REPLICA_ID: `${name}-r`,
      CLICK_BUFFER_MAX: '200',
      CLICK_SPOOL_DIR: mkdtempSync(path.join(tmpdir(), `${name}-spool-`)),
    }),
  );
  const failFast = () =>
    processes
      .find((p) => p.exited())
      ?.output()
      .slice(-3000);
  for (const port of [gatewayPort, redirectorPort]) {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok === true, {
      what: `ready on ${port}`,
      timeoutMs: 90_000,
      failFast,
    });
  }
  metricsUrl = `http://127.0.0.1:${redirectorPort}/metrics`;
  redirector = new Pool(`http://127.0.0.1:${redirectorPort}`, { connections: 8 });
  const token = (
    await run(process.execPath, ['apps/cli/dist/main.js', 'keys', 'create', 'links'], {
      env: { ...process.env, ...env },
    })
  ).stdout.trim();
  hashes = [];
  for (let i = 0; i < 10; i++) {
    const response = await fetch(`http://127.0.0.1:${gatewayPort}/v4/shorten`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ long_url: `https://example.com/outage/${i}` }),
    });
    expect(response.status).toBe(201);
    hashes.push(((await response.json()) as { id: string }).id.split('/')[1]!);
  }
}, 180_000);

afterAll(async () => {
  await redirector?.close();
  await Promise.all(processes.map((p) => p.kill('SIGTERM')));
  await proxy?.close();
});

/** Redirects at a steady pace until stopped; every request carries its own user agent, the marker of its click. */
function redirectLoad(workers: number, pauseMs: number) {
  const answered: string[] = [];
  const failures: string[] = [];
  let sent = 0;
  let stopping = false;
  const loops = Array.from({ length: workers }, async (_, worker) => {
    while (!stopping) {
      const marker = `outage-test/${name}/${worker}/${sent++}`;
      try {
        const response = await redirector.request({
          method: 'GET',
          path: `/${hashes[sent % hashes.length]}`,
          headers: { host: DOMAIN, 'user-agent': marker },
        });
        await response.body.dump();
        if (response.statusCode === 301) answered.push(marker);
        else failures.push(`${marker}: ${response.statusCode}`);
      } catch (error) {
        failures.push(`${marker}: ${(error as Error).message}`);
      }
      await sleep(pauseMs);
    }
  });
  return {
    answered,
    failures,
    async stop() {
      stopping = true;
      await Promise.all(loops);
    },
  };
}

describe('the redirector while the broker is away', () => {
  it('answers every redirect, and every answered redirect becomes exactly one ShortlinkClicked once the broker is back', async () => {
    // Warm: every link read once from the store (the store is not what this test takes away).
    for (const hash of hashes)
      expect(
        (
          await redirector.request({
            method: 'GET',
            path: `/${hash}`,
            headers: { host: DOMAIN, 'user-agent': 'warm-up' },
          })
        ).statusCode,
      ).toBe(301);
    await waitFor(async () => (await metric('platform_links_clicks_published_total')) >= hashes.length, {
      what: 'the warm-up clicks published',
      timeoutMs: 30_000,
    });
    const acceptedBefore = proxy.accepted;
    expect(acceptedBefore).toBeGreaterThan(0);

    const load = redirectLoad(4, 5);
    await sleep(2_000);
    await proxy.cut();
    const cutAt = load.answered.length;
    // Whatever was in flight at the cut settles within a second; from then on nothing can be published.
    await sleep(1_000);
    const publishedInOutage = await metric('platform_links_clicks_published_total');
    await sleep(5_000);
    const answeredInOutage = load.answered.length - cutAt;
    const spilled = await metric('platform_links_clicks_spilled_total');
    const buffered = await metric('platform_links_clicks_buffered');
    expect(await metric('platform_links_clicks_published_total')).toBe(publishedInOutage);
    await proxy.restore();
    await sleep(2_000);
    await load.stop();

    // Not vacuous: the redirector kept answering while its clicks could not leave, and they waited in memory
    // and in the spool file (the memory buffer holds 200).
    expect(load.failures).toEqual([]);
    expect(answeredInOutage).toBeGreaterThan(300);
    expect(spilled).toBeGreaterThan(0);
    expect(buffered + spilled).toBeGreaterThan(0);
    expect(proxy.accepted).toBeGreaterThan(acceptedBefore);

    const markers = new Set(load.answered);
    expect(markers.size).toBe(load.answered.length);
    const seen = new Map<string, number>();
    const kafka = createKafka({
      brokers: env['KAFKA_BROKERS']!.split(','),
      clientId: `${name}-reader`,
      topicPrefix: env['KAFKA_TOPIC_PREFIX']!,
      logger: createLogger({ name, level: 'warn' }),
    });
    let consumer: ConsumerHandle | undefined;
    try {
      consumer = await runConsumer({
        client: kafka,
        groupId: `${name}-reader`,
        topics: ['links.clicks'],
        fromBeginning: true,
        handlers: {
          [MessageTypeNames.ShortlinkClicked]: async ({ value }: { value: ShortlinkClicked }) => {
            if (value.user_agent?.startsWith('outage-test/'))
              seen.set(value.user_agent, (seen.get(value.user_agent) ?? 0) + 1);
          },
        },
      });
      await waitFor(() => [...markers].every((m) => seen.has(m)), {
        what: `all ${markers.size} clicks on links.clicks`,
        timeoutMs: 120_000,
        intervalMs: 250,
      });
      // Everything the redirector holds has been published; a copy could only arrive with it.
      await waitFor(
        async () => (await metric('platform_links_clicks_published_total')) >= markers.size + hashes.length,
        { what: 'the redirector drained', timeoutMs: 30_000 },
      );
      await sleep(2_000);
    } finally {
      await consumer?.stop();
    }
    const repeated = [...seen].filter(([, count]) => count > 1);
    const unknown = [...seen.keys()].filter((m) => !markers.has(m));
    expect({ clicks: seen.size, repeated: repeated.slice(0, 5), unknown: unknown.slice(0, 5) }).toEqual({
      clicks: markers.size,
      repeated: [],
      unknown: [],
    });
    expect(await metric('platform_links_clicks_dropped_total')).toBe(0);
  }, 240_000);
});
