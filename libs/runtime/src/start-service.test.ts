import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { createHttpApp } from '@platform/http';
import { createLogger } from '@platform/telemetry';
import type { RuntimeSettings } from './service.js';
import { startService } from './start-service.js';

const settings: RuntimeSettings = {
  logLevel: 'silent',
  kafka: { brokers: ['127.0.0.1:1'], topicPrefix: '' },
  mongo: { url: 'mongodb://127.0.0.1:1', db: 'unused' },
  redisUrl: 'redis://127.0.0.1:1',
  shutdownTimeoutMs: 5000,
};
const logger = createLogger({ name: 'runtime-test', level: 'silent' });

// No connection is made: a service that asks for none gets none (they are created on first use).
describe('startService', () => {
  it('starts the service before it listens, and on stop drains a request in flight before stopping the service', async () => {
    const order: string[] = [];
    let releaseSlowRequest: () => void = () => undefined;
    const running = await startService(
      'runtime-test',
      async () => {
        const app = await createHttpApp({ name: 'test', logger, renderError: () => ({ statusCode: 500, body: {} }) });
        app.get('/slow', async () => {
          order.push('request started');
          await new Promise<void>((resolve) => (releaseSlowRequest = resolve));
          order.push('request finished');
          return { ok: true };
        });
        return {
          http: { app, port: 0, host: '127.0.0.1' },
          async start() {
            order.push(`start (listening: ${app.server.listening})`);
          },
          async closeStreams() {
            order.push('close streams');
          },
          async stop() {
            order.push('stop');
          },
        };
      },
      { settings, logger },
    );
    running.context.onClose('pool', () => void order.push('close pool'));
    expect(running.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);

    const inFlight = fetch(`${running.url}/slow`).then((r) => r.json());
    while (!order.includes('request started')) await sleep(5);
    const stopped = running.stop();
    releaseSlowRequest();
    expect(await inFlight).toEqual({ ok: true });
    await stopped;
    expect(order).toEqual([
      'start (listening: false)',
      'request started',
      'close streams',
      'request finished',
      'stop',
      'close pool',
    ]);
    await running.stop(); // idempotent
  });

  it('answers a request that reaches it after stop began (its bytes were on their way), closing its connection', async () => {
    const running = await startService(
      'runtime-test',
      async () => {
        const app = await createHttpApp({ name: 'test', logger, renderError: () => ({ statusCode: 500, body: {} }) });
        app.get('/hello', async () => ({ hello: 'world' }));
        return { http: { app, port: 0, host: '127.0.0.1' } };
      },
      { settings, logger },
    );
    const port = Number(new URL(running.url!).port);
    let accepted: net.Socket | undefined;
    running.service.http.app.server.once('connection', (s: net.Socket) => (accepted = s));
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    const ended = new Promise((resolve) => socket.once('end', resolve));
    // Half a request: the connection is busy, so stopping neither drops it nor can it be answered yet.
    socket.write('GET /hello HTTP/1.1\r\nhost: 127.0.0.1\r\n');
    while (!accepted?.bytesRead) await sleep(1);
    const stopped = running.stop();
    const refused = async () =>
      new Promise<boolean>((resolve) => {
        const probe = net.connect(port, '127.0.0.1');
        probe.once('connect', () => (probe.destroy(), resolve(false)));
        probe.once('error', () => resolve(true));
      });
    while (!(await refused())) await sleep(5);
    socket.write('\r\n');
    await ended;
    await stopped;
    expect(received).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(received.toLowerCase()).toContain('\r\nconnection: close\r\n');
    expect(received).toMatch(/\r\n\r\n\{"hello":"world"\}$/);
  });

  it('stops what it started when building or starting fails, and reports the failure', async () => {
    const order: string[] = [];
    await expect(
      startService(
        'runtime-test',
        async (ctx) => {
          ctx.onClose('pool', () => void order.push('close pool'));
          return {
            async start() {
              throw new Error('broker unreachable');
            },
            async stop() {
              order.push('stop');
            },
          };
        },
        { settings, logger },
      ),
    ).rejects.toThrow('broker unreachable');
    expect(order).toEqual(['stop', 'close pool']);
  });
});
