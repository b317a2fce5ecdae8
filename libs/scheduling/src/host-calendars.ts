import { findConflict } from './availability/index.js';
import type { Interval } from './availability/index.js';
import type { SchedulingStore, SchedulingWriter } from './store.js';

export type HostCalendars = {
  store: Pick<SchedulingStore, 'hostCalendar'>;
  writer: Pick<SchedulingWriter, 'hostCalendars'>;
};

const MAX_ATTEMPTS = 8;
/** Entries that ended this long ago cannot conflict any more and are dropped on the next write. */
const KEEP_PAST_MS = 24 * 3600 * 1000;

/**
 * Takes `interval` in a host's calendar for booking `uid`, unless another booking of the host overlaps it.
 * A compare-and-set on the calendar's version: of two concurrent bookings of one host, one wins and the
 * other sees the conflict. Taking the same uid again (a redone command) is a no-op that succeeds.
 */
export async function reserveHostTime(
  { store, writer }: HostCalendars,
  hostId: string,
  uid: string,
  interval: Interval,
  ignoreUid?: string,
): Promise<boolean> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let calendar = await store.hostCalendar(hostId);
    if (!calendar) {
      await writer.hostCalendars.create(hostId);
      calendar = await store.hostCalendar(hostId);
      if (!calendar) continue;
    }
    if (calendar.busy.some((b) => b.uid === uid)) return true;
    const others = calendar.busy.filter((b) => b.uid !== ignoreUid);
    if (findConflict(interval, others)) return false;
    const keepFrom = Date.now() - KEEP_PAST_MS;
    const busy = [
      ...calendar.busy.filter((b) => b.end.getTime() > keepFrom),
      { uid, start: interval.start, end: interval.end },
    ];
    if (await writer.hostCalendars.replaceBusy(hostId, calendar.version, busy)) return true;
  }
  throw new Error(`host calendar ${hostId}: too many concurrent changes`);
}

/** Frees a booking's time in a host's calendar (cancel, reschedule, or a collective booking that failed). */
export async function releaseHostTime({ store, writer }: HostCalendars, hostId: string, uid: string): Promise<void> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const calendar = await store.hostCalendar(hostId);
    if (!calendar || !calendar.busy.some((b) => b.uid === uid)) return;
    const busy = calendar.busy.filter((b) => b.uid !== uid);
    if (await writer.hostCalendars.replaceBusy(hostId, calendar.version, busy)) return;
  }
  throw new Error(`host calendar ${hostId}: too many concurrent changes`);
}
