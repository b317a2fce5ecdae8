import { createRequire } from 'node:module';

/** The fields of kafkajs's per-connection request queue that its pending-request check reads. */
interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  scheduleCheckPendingRequests(): void;
}

const FIXED = Symbol.for('platform.kafkajs.idle-timer-fix');

/**
 * kafkajs 2.2.4 re-arms a timer of its connection's request queue after every check, even when nothing waits
 * and nothing is throttled, with a negative delay: each connection then wakes the process every millisecond
 * for as long as it lives (tulios/kafkajs#1556, fixed upstream in an unreleased pull request, #1667). On these
 * machines that was 30-100 ms of CPU a second per idle service, and a share of every busy one.
 *
 * The check only needs a timer for requests waiting (an in-flight limit: checked every 10 ms, as before) or for
 * a broker's throttle to end; a new request or an answer runs the check itself. Applied once per process, to the
 * kafkajs module every client of this library loads; idempotent.
 */
export function fixRequestQueueIdleTimer(): boolean {
  const require = createRequire(import.meta.url);
  const RequestQueue = require('kafkajs/src/network/requestQueue/index.js') as {
    prototype: RequestQueueInternals & { [FIXED]?: true };
  };
  const proto = RequestQueue.prototype;
  if (proto[FIXED]) return true;
  const schedule = proto.scheduleCheckPendingRequests;
  if (typeof schedule !== 'function') return false; // another kafkajs: left as it is
  proto.scheduleCheckPendingRequests = function (this: RequestQueueInternals) {
    if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
    schedule.call(this);
  };
  proto[FIXED] = true;
  return true;
}
