import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import type { WebSocket } from 'ws';
import { createWatchHub, type WatchEvent } from './watch-hub.js';
import { SLOW_READER_CODE, webSocketSubscriber } from './watch-streams.js';

/** A socket that records what the gateway does to it; pongs are answered only when the test says so. */
class FakeSocket extends EventEmitter {
  sent: string[] = [];
  pings: string[] = [];
  closedWith: { code: number; reason: string } | null = null;
  send(data: string) {
    this.sent.push(data);
  }
  ping(data: string) {
    this.pings.push(data);
  }
  close(code: number, reason: string) {
    this.closedWith = { code, reason };
  }
  /** The client read everything up to its last ping. */
  pong() {
    this.emit('pong', Buffer.from(this.pings.at(-1) ?? '0'));
  }
}

const base = { deploymentId: 'd', userId: 'u', filter: { targets: [], templates: [], readStatus: 'all' as const } };
const event = (i: number, userId = 'u'): WatchEvent => ({
  deploymentId: 'd',
  userId,
  unreadCount: i,
  notification: {
    id: `0190c5a8-0000-7000-8000-${String(i).padStart(12, '0')}`,
    user_id: userId,
    template_id: 't',
    targets: [],
    title: `# N${i}`,
    content: 'the __body__',
    icon: 'DEFAULT_ICON_OTHER',
    actions: [],
    read_at: null,
    created_at: new Date(0).toISOString(),
  },
});

let clock = 0;
function subscriber(socket: FakeSocket, maxFramesBehind: number, onSlow = () => undefined, phase = 0) {
  return webSocketSubscriber(
    socket as unknown as WebSocket,
    base,
    'markdown',
    { maxFramesBehind, pingMs: 60_000, slowGraceMs: 1000 },
    onSlow,
    () => clock,
    () => phase,
  );
}
/** The turn of the event loop after a notification's fan-out, where its frame pings go out. */
const afterFanOut = () => new Promise((resolve) => setImmediate(resolve));
/** Hands `count` notifications to a stream, one event-loop turn each, as the hub does. */
async function deliverEach(
  sub: { deliver(event: WatchEvent): void },
  from: number,
  count: number,
  each?: (i: number) => void,
) {
  for (let i = from; i < from + count; i++) {
    sub.deliver(event(i));
    await afterFanOut();
    each?.(i);
  }
}

describe('watch streams', () => {
  it('keeps sending to a reader whose pongs show it keeps up', async () => {
    const socket = new FakeSocket();
    const sub = subscriber(socket, 10);
    await deliverEach(sub, 0, 100, (i) => {
      if (i % 8 === 7) socket.pong();
    });
    expect(socket.sent).toHaveLength(100);
    expect(socket.closedWith).toBeNull();
  });

  it("lets a burst run past the limit while the reader's ping is young", async () => {
    const socket = new FakeSocket();
    const sub = subscriber(socket, 10);
    await deliverEach(sub, 0, 40);
    expect(socket.sent).toHaveLength(40);
    expect(socket.closedWith).toBeNull();
    socket.pong();
    clock += 5000;
    sub.deliver(event(40));
    expect(socket.closedWith).toBeNull();
  });

  it('closes a reader with 1013 and a reason once it is past the limit and has left a ping unanswered too long', async () => {
    const socket = new FakeSocket();
    let slow = 0;
    const sub = subscriber(socket, 10, () => void slow++);
    await deliverEach(sub, 0, 12);
    clock += 1000;
    sub.deliver(event(12));
    sub.deliver(event(13));
    expect(socket.sent).toHaveLength(12);
    expect(socket.closedWith).toEqual({
      code: SLOW_READER_CODE,
      reason: 'too far behind: 13 notifications unsent; reconnect',
    });
    expect(slow).toBe(1);
  });

  it("closes a reader eight times past the limit whatever the time, bounding a stream's memory", async () => {
    const socket = new FakeSocket();
    const sub = subscriber(socket, 10);
    await deliverEach(sub, 0, 100);
    expect(socket.sent).toHaveLength(80);
    expect(socket.closedWith?.code).toBe(SLOW_READER_CODE);
  });

  it('pings after the notification has gone out, each stream on frames of its own', async () => {
    // 16 frames allowed behind: a ping every 4 frames, the second stream's 2 frames later than the first's.
    const [first, second] = [new FakeSocket(), new FakeSocket()];
    const streams = [subscriber(first, 16, undefined, 0), subscriber(second, 16, undefined, 0.5)];
    for (let i = 1; i <= 8; i++) {
      for (const stream of streams) stream.deliver(event(i));
      // The fan-out writes frames only; a stream due for a ping gets it in the next turn.
      const pings = [first.pings.length, second.pings.length];
      await afterFanOut();
      if (i === 4)
        expect([pings, [first.pings.length, second.pings.length]]).toEqual([
          [0, 1],
          [1, 1],
        ]);
    }
    expect(first.pings).toEqual(['4', '8']);
    expect(second.pings).toEqual(['2', '6']);
  });

  it("pings on the timer from a point of the period of the stream's own, so streams opened together do not ping together", () => {
    vi.useFakeTimers();
    try {
      const [first, second] = [new FakeSocket(), new FakeSocket()];
      // First ticks at 250 and 750 ms: a quarter and three quarters of the period.
      for (const [socket, phase] of [
        [first, 0.75],
        [second, 0.25],
      ] as const) {
        webSocketSubscriber(
          socket as unknown as WebSocket,
          base,
          'markdown',
          { maxFramesBehind: 10, pingMs: 1000, slowGraceMs: 1000 },
          () => undefined,
          Date.now,
          () => phase,
        );
      }
      vi.advanceTimersByTime(500);
      expect([first.pings.length, second.pings.length]).toEqual([1, 0]);
      vi.advanceTimersByTime(1000);
      expect([first.pings.length, second.pings.length]).toEqual([2, 1]);
      first.emit('close');
      vi.advanceTimersByTime(3000);
      expect([first.pings.length, second.pings.length]).toEqual([2, 4]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ignores a pong claiming more than was sent', async () => {
    const socket = new FakeSocket();
    const sub = subscriber(socket, 3);
    socket.emit('pong', Buffer.from('1000'));
    await deliverEach(sub, 0, 8);
    clock += 1000;
    sub.deliver(event(8));
    expect(socket.sent).toHaveLength(8);
    expect(socket.closedWith?.code).toBe(SLOW_READER_CODE);
  });

  it('sends the watch response, in plain text when asked', () => {
    const socket = new FakeSocket();
    webSocketSubscriber(
      socket as unknown as WebSocket,
      base,
      'plaintext',
      { maxFramesBehind: 5, pingMs: 60_000, slowGraceMs: 1000 },
      () => undefined,
    ).deliver(event(1));
    expect(JSON.parse(socket.sent[0]!)).toMatchObject({
      notification: { title: 'N1', content: 'the body' },
      unread_count: 1,
    });
  });

  it('hands an event only to the streams of its user whose filters match', () => {
    const hub = createWatchHub();
    const seen: string[] = [];
    const remove = hub.add({ ...base, deliver: (e) => void seen.push(`all:${e.userId}`), terminate: () => undefined });
    hub.add({
      ...base,
      filter: { ...base.filter, templates: ['other'] },
      deliver: () => void seen.push('filtered'),
      terminate: () => undefined,
    });
    hub.publish(event(1));
    hub.publish(event(1)); // redelivered
    hub.publish(event(2, 'someone-else'));
    remove();
    hub.publish(event(3));
    expect(seen).toEqual(['all:u']);
    expect(hub.size).toBe(1);
  });
});
