import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { fixRequestQueueIdleTimer } from './request-queue-fix.js';

interface Queue {
  pending: unknown[];
  throttledUntil: number;
  throttleCheckTimeoutId: unknown;
  checkPendingRequests(): void;
  destroy(): void;
}
const RequestQueue = createRequire(import.meta.url)('kafkajs/src/network/requestQueue/index.js') as new (
  options: object,
) => Queue;
const silent = { debug() {}, info() {}, warn() {}, error() {} };
const queues: Queue[] = [];
function queue(): Queue {
  const q = new RequestQueue({
    maxInFlightRequests: 1,
    requestTimeout: 30_000,
    enforceRequestTimeout: false,
    clientId: 't',
    broker: 'b:9092',
    logger: silent,
  });
  queues.push(q);
  return q;
}

afterEach(() => {
  for (const q of queues.splice(0)) q.destroy();
});

describe('the kafkajs request queue idle timer fix', () => {
  it('arms no timer when nothing waits and nothing is throttled (kafkajs 2.2.4 re-armed one every millisecond)', () => {
    expect(fixRequestQueueIdleTimer()).toBe(true);
    const q = queue();
    // What every answer from the broker runs (fulfillRequest).
    q.checkPendingRequests();
    expect(q.throttleCheckTimeoutId).toBeNull();
  });

  it('still checks again later for requests waiting, and for the end of a throttle', () => {
    fixRequestQueueIdleTimer();
    const waiting = queue();
    waiting.pending.push({});
    waiting.throttledUntil = Date.now() + 60_000; // nothing can be sent now
    waiting.checkPendingRequests();
    expect(waiting.throttleCheckTimeoutId).not.toBeNull();

    const throttled = queue();
    throttled.throttledUntil = Date.now() + 60_000;
    throttled.checkPendingRequests();
    expect(throttled.throttleCheckTimeoutId).not.toBeNull();
  });
});
