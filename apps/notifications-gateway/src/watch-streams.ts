import type { ServerResponse } from 'node:http';
import { markdownToPlaintext, type Format, type InboxNotificationJson } from '@platform/notifications';
import type { WebSocket } from 'ws';
import type { Subscriber, WatchEvent } from './watch-hub.js';

export interface StreamLimits {
  maxFramesBehind: number;
  pingMs: number;
  /**
   * How long a ping may go unanswered before a reader past `maxFramesBehind` counts as stopped. A burst can
   * hand a fast reader many frames before its pong can come back; a stopped reader never answers.
   */
  slowGraceMs: number;
}

/** Past this many unread frames a reader is closed whatever its pongs: the bound on a stream's memory. */
const HARD_LIMIT_FACTOR = 8;

/** The watch response: the notification (title and content as plain text when asked) and the unread count. */
export function watchFrame(notification: InboxNotificationJson, unreadCount: number, format: Format): string {
  const shown =
    format === 'plaintext'
      ? {
          ...notification,
          title: markdownToPlaintext(notification.title),
          content: markdownToPlaintext(notification.content),
        }
      : notification;
  return JSON.stringify({ notification: shown, unread_count: unreadCount });
}

/**
 * An event's frame, made once per format and shared by every stream it goes to (a user with a thousand open
 * streams costs one JSON encoding and one UTF-8 buffer per notification, not a thousand).
 */
const frames = new WeakMap<WatchEvent, Partial<Record<Format, { text: string; bytes?: Buffer }>>>();
function made(event: WatchEvent, format: Format): { text: string; bytes?: Buffer } {
  let byFormat = frames.get(event);
  if (!byFormat) frames.set(event, (byFormat = {}));
  return (byFormat[format] ??= { text: watchFrame(event.notification, event.unreadCount, format) });
}
export const frameText = (event: WatchEvent, format: Format): string => made(event, format).text;
export function frameBytes(event: WatchEvent, format: Format): Buffer {
  const frame = made(event, format);
  return (frame.bytes ??= Buffer.from(frame.text));
}

/** The close reason a reader that fell behind gets (a WebSocket reason is at most 123 bytes). */
export const behindReason = (frames: number) => `too far behind: ${frames} notifications unsent; reconnect`;
/** 1013 Try Again Later: the server is fine, this reader should come back. */
export const SLOW_READER_CODE = 1013;

/**
 * How many frames apart a stream's frame pings are, so that a reader's progress is known between the timed
 * pings: a quarter of the frames it may fall behind (a stopped reader has a ping unanswered well before it is
 * past the limit), at most 64.
 */
export const pingEveryFrames = (maxFramesBehind: number) => Math.max(1, Math.min(64, Math.floor(maxFramesBehind / 4)));

/**
 * A watch stream over a WebSocket: one text frame per notification, pings on a timer and every few frames. A
 * reader's progress is what its pongs prove it has read (a pong comes back only after the frames before its
 * ping), so frames sitting in kernel buffers count as behind too. A reader more than `maxFramesBehind` frames
 * behind whose oldest ping has gone unanswered for `slowGraceMs` (or eight times that many behind, whatever
 * its pongs) is closed with 1013 and a reason, so it never misses a notification without knowing.
 */
export function webSocketSubscriber(
  socket: WebSocket,
  base: Omit<Subscriber, 'deliver' | 'terminate'>,
  format: Format,
  limits: StreamLimits,
  onSlow: () => void,
  now: () => number = Date.now,
  phase: () => number = Math.random,
): Subscriber & { close(code: number, reason: string): void } {
  let sent = 0;
  let read = 0;
  const pingEvery = pingEveryFrames(limits.maxFramesBehind);
  // Streams opened together ping on different frames: a user's thousand streams add a few pings to every
  // notification rather than a thousand pings (and pongs) to every few.
  let pinged = -Math.floor(phase() * pingEvery);
  let pingSoon = false;
  let closed = false;
  /** Pings not yet answered: the frame count each was sent at, and when. */
  const outstanding: Array<{ upTo: number; at: number }> = [];
  const ping = () => {
    if (closed) return;
    pinged = sent;
    outstanding.push({ upTo: sent, at: now() });
    if (outstanding.length > 64) outstanding.shift();
    socket.ping(String(sent));
  };
  // The timer also catches a stopped reader that no new frame would reveal. Its first tick comes at a random
  // point of the first period (never at once): streams opened together (a gateway's clients reconnecting
  // after a restart) would otherwise ping together, every period, for as long as they stay.
  const tick = () => (stopped() ? closeSlow() : ping());
  let timer: NodeJS.Timeout = setTimeout(
    () => {
      timer = setInterval(tick, limits.pingMs);
      timer.unref();
      tick();
    },
    Math.ceil((1 - phase()) * limits.pingMs),
  );
  timer.unref();
  socket.on('pong', (data) => {
    const upTo = Number(data.toString());
    if (!Number.isInteger(upTo) || upTo <= read || upTo > sent) return;
    read = upTo;
    while (outstanding.length > 0 && outstanding[0]!.upTo <= upTo) outstanding.shift();
  });
  const stopped = () => {
    const behind = sent - read;
    if (behind >= limits.maxFramesBehind * HARD_LIMIT_FACTOR) return true;
    return (
      behind >= limits.maxFramesBehind && outstanding.length > 0 && now() - outstanding[0]!.at >= limits.slowGraceMs
    );
  };
  socket.on('close', () => {
    closed = true;
    clearTimeout(timer);
  });
  const close = (code: number, reason: string) => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    socket.close(code, reason);
  };
  function closeSlow(pending = 0) {
    onSlow();
    close(SLOW_READER_CODE, behindReason(sent - read + pending));
  }
  return {
    ...base,
    close,
    terminate: (reason: string) => close(1001, reason),
    deliver(event: WatchEvent) {
      if (closed) return;
      if (stopped()) {
        closeSlow(1);
        return;
      }
      sent++;
      socket.send(frameBytes(event, format), { binary: false });
      // After the frame has gone to every stream of the notification: the ping is not on its way.
      if (sent - pinged >= pingEvery && !pingSoon) {
        pingSoon = true;
        setImmediate(() => {
          pingSoon = false;
          ping();
        });
      }
    },
  };
}

/**
 * The same stream as Server-Sent Events: `id` the notification id (for `Last-Event-ID`), `event: notification`,
 * comments as pings. A reader past `maxFramesBehind` gets an `event: error` and the end of the stream.
 */
export function sseSubscriber(
  response: ServerResponse,
  base: Omit<Subscriber, 'deliver' | 'terminate'>,
  format: Format,
  limits: StreamLimits,
  onSlow: () => void,
): Subscriber & { write(event: WatchEvent): void; end(reason: string): void; lastId: string | null } {
  let unsent = 0;
  let ended = false;
  const ping = setInterval(() => response.write(': ping\n\n'), limits.pingMs);
  ping.unref();
  response.on('close', () => {
    ended = true;
    clearInterval(ping);
  });
  const end = (reason: string) => {
    if (ended) return;
    ended = true;
    clearInterval(ping);
    response.end(`event: error\ndata: ${JSON.stringify({ message: reason })}\n\n`);
  };
  const self = {
    ...base,
    lastId: null as string | null,
    end,
    terminate: end,
    write(event: WatchEvent) {
      if (ended) return;
      // Events arrive in order per user, replayed ones first: anything not newer was sent already.
      if (self.lastId !== null && event.notification.id <= self.lastId) return;
      if (unsent >= limits.maxFramesBehind) {
        onSlow();
        end(behindReason(unsent + 1));
        return;
      }
      self.lastId = event.notification.id;
      unsent++;
      response.write(
        `id: ${event.notification.id}\nevent: notification\ndata: ${frameText(event, format)}\n\n`,
        () => unsent--,
      );
    },
    deliver(event: WatchEvent) {
      self.write(event);
    },
  };
  return self;
}
