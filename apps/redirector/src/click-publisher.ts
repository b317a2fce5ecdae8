import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '@platform/telemetry';
import { packClicks, transferables, type PackedClicks } from './click-batch.js';
import type { ClickSink } from './click-buffer.js';

export interface PublisherThreadData {
  name: string;
  logLevel: string;
  brokers: string[];
  topicPrefix: string;
  schemaRegistry?: { url: string; timeoutMs: number } | undefined;
  /** The clicks topic (its logical name: the client adds the prefix). */
  topic: string;
}

export type ToPublisher = { kind: 'publish'; seq: number; clicks: PackedClicks } | { kind: 'close' };
export type FromPublisher =
  { kind: 'published'; seq: number } | { kind: 'failed'; seq: number; error: string } | { kind: 'closed' };

export interface ThreadedClickSink extends ClickSink {
  /** Disconnects the thread's producer and ends the thread (after the click buffer has stopped). */
  close(): Promise<void>;
}

const WORKER = new URL('./click-publisher.worker.js', import.meta.url);

/** The built thread's script exists (it does not when the service runs from its TypeScript sources in tests). */
export const publisherThreadAvailable = () => existsSync(fileURLToPath(WORKER));

/**
 * A click sink whose Avro encoding and Kafka producer run in a worker thread: the thread that answers
 * redirects only hands each batch over (packed: its strings once, its rows transferred). A batch is answered once the broker has taken it;
 * a thread that dies fails what it was publishing (the click buffer keeps and retries it) and is started again.
 */
export function startPublisherThread(data: PublisherThreadData, logger: Logger): ThreadedClickSink {
  const pending = new Map<number, { resolve(): void; reject(error: Error): void }>();
  let seq = 0;
  let worker: Worker | undefined;
  let closing: Promise<void> | undefined;

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(WORKER, { workerData: data, name: 'click-publisher' });
    started.on('message', (reply: FromPublisher) => {
      if (reply.kind === 'closed') return;
      const waiting = pending.get(reply.seq);
      pending.delete(reply.seq);
      if (reply.kind === 'published') waiting?.resolve();
      else waiting?.reject(new Error(reply.error));
    });
    started.on('error', (error) => logger.error({ err: error }, 'the click publisher thread failed'));
    started.on('exit', (code) => {
      if (worker === started) worker = undefined;
      for (const [key, waiting] of pending) {
        pending.delete(key);
        waiting.reject(new Error(`the click publisher thread exited (code ${code})`));
      }
    });
    worker = started;
    return started;
  }

  return {
    publish(clicks) {
      if (closing) return Promise.reject(new Error('the click publisher is closing'));
      const key = ++seq;
      return new Promise<void>((resolve, reject) => {
        pending.set(key, { resolve, reject });
        const packed = packClicks(clicks);
        thread().postMessage(
          { kind: 'publish', seq: key, clicks: packed } satisfies ToPublisher,
          transferables(packed),
        );
      });
    },
    close() {
      closing ??= (async () => {
        const running = worker;
        if (!running) return;
        const closed = new Promise<void>((resolve) =>
          running.on('message', (reply: FromPublisher) => reply.kind === 'closed' && resolve()),
        );
        running.postMessage({ kind: 'close' } satisfies ToPublisher);
        await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 10_000).unref())]);
        await running.terminate();
      })();
      return closing;
    },
  };
}
