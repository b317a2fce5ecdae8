import { createLeaseQueue, type Redis } from '@platform/redis';

/**
 * Which notifier process works a user's lane, and when a lane falls due again (a retry's time, a holder that
 * died), on the platform's lease queue in Redis: the webhook dispatcher's core, with each lane a group of its own
 * (one holder at a time). The store keeps the notifications; a queue that Redis lost is rebuilt from it.
 */
export interface LaneLeases {
  /** Takes the lane for `ms`, or renews this process's lease; false while another process holds it. */
  hold(lane: string, ms: number): Promise<boolean>;
  /** Lets go of the lane; it falls due again at `dueAt` if given (or at once, if work arrived for it meanwhile). */
  release(lane: string, dueAt?: number): Promise<void>;
  /** Lanes due now, held by this process on return (to be worked, then released). */
  due(most: number, ms: number): Promise<string[]>;
  /** Lanes with work due that the queue may have lost, due at once (those queued or held are left alone). */
  schedule(lanes: string[]): Promise<void>;
}

export function createLaneLeases(redis: Redis, options: { name: string; holder: string }): LaneLeases {
  const queue = createLeaseQueue(redis, { name: options.name, perGroupLimit: 1 });
  return {
    hold: (lane, ms) => queue.hold(lane, lane, options.holder, ms),
    async release(lane, dueAt) {
      await queue.release(lane, lane, options.holder, dueAt);
    },
    async due(most, ms) {
      return (await queue.claim(most, ms, Date.now(), options.holder)).map((claim) => claim.id);
    },
    async schedule(lanes) {
      const now = Date.now();
      await queue.schedule(lanes.map((lane) => ({ id: lane, group: lane, dueAt: now })));
    },
  };
}
