import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
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
function subscriber(socket: FakeSocket, maxFramesBehind: number, onSlow = () => undefined) {
  return webSocketSubscriber(socket as unknown as WebSocket, base, 'markdown', { maxFramesBehind, pingMs: 60_000, slowGraceMs: 1000 }, onSlow, () => clock);
}

describe('watch streams', () => {
  it('keeps sending to a reader whose pongs show it keeps up', () => {
    const socket = new FakeSocket();
    const sub = subscriber(socket, 10);
    for (let i = 0; i < 100; i++) {
      sub.deliver(event(i));
      if (i % 8 === 7) socket.pong();
    }
    expect(socket.sent).toHaveLength(100);
    expect(socket.closedWith).toBeNull();
  });

  it('lets a burst run past the limit while the reader\'s ping is young', () => {
    const socket = new FakeSocket();
    const sub = subscriber(socket, 10);
    for (let i = 0; i < 40; i++) sub.deliver(event(i));
    expect(socket.sent).toHaveLength(40);
    expect(socket.closedWith).toBeNull();
    socket.pong();
    clock += 5000;
    sub.deliver(event(40));
    expect(socket.closedWith).toBeNull();
  });

  it('closes a reader with 1013 and a reason once it is past the limit and has left a ping unanswered too long', () => {
    const socket = new FakeSocket();
    let slow = 0;
    const sub = subscriber(socket, 10, () => void slow++);
    for (let i = 0; i < 12; i++) sub.deliver(event(i));
    clock += 1000;
    sub.deliver(event(12));
    sub.deliver(event(13));
    expect(socket.sent).toHaveLength(12);
    expect(socket.closedWith).toEqual({ code: SLOW_READER_CODE, reason: 'too far behind: 13 notifications unsent; reconnect' });
    expect(slow).toBe(1);
  });

  it('closes a reader eight times past the limit whatever the time, bounding a stream\'s memory', () => {
    const socket = new FakeSocket();
    const sub = subscriber(socket, 10);
    for (let i = 0; i < 100; i++) sub.deliver(event(i));
    expect(socket.sent).toHaveLength(80);
    expect(socket.closedWith?.code).toBe(SLOW_READER_CODE);
  });

  it('ignores a pong claiming more than was sent', () => {
    const socket = new FakeSocket();
    const sub = subscriber(socket, 3);
    socket.emit('pong', Buffer.from('1000'));
    for (let i = 0; i < 8; i++) sub.deliver(event(i));
    clock += 1000;
    sub.deliver(event(8));
    expect(socket.sent).toHaveLength(8);
    expect(socket.closedWith?.code).toBe(SLOW_READER_CODE);
  });

  it('sends the watch response, in plain text when asked', () => {
    const socket = new FakeSocket();
    webSocketSubscriber(socket as unknown as WebSocket, base, 'plaintext', { maxFramesBehind: 5, pingMs: 60_000, slowGraceMs: 1000 }, () => undefined).deliver(event(1));
    expect(JSON.parse(socket.sent[0]!)).toMatchObject({ notification: { title: 'N1', content: 'the body' }, unread_count: 1 });
  });

  it('hands an event only to the streams of its user whose filters match', () => {
    const hub = createWatchHub();
    const seen: string[] = [];
    const remove = hub.add({ ...base, deliver: (e) => void seen.push(`all:${e.userId}`), terminate: () => undefined });
    hub.add({ ...base, filter: { ...base.filter, templates: ['other'] }, deliver: () => void seen.push('filtered'), terminate: () => undefined });
    hub.publish(event(1));
    hub.publish(event(1)); // redelivered
    hub.publish(event(2, 'someone-else'));
    remove();
    hub.publish(event(3));
    expect(seen).toEqual(['all:u']);
    expect(hub.size).toBe(1);
  });
});
