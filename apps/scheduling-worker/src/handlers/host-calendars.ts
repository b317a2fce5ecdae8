import { findConflict, type Interval, type SchedulingStore } from '@platform/scheduling';
import { isDuplicateKeyError } from '@platform/mongo';

const MAX_ATTEMPTS = 8;
/** Entries that ended this long ago cannot conflict any more and are dropped on the next write. */
const KEEP_PAST_MS = 24 * 3600 * 1000;

/**
 * Takes `interval` in a host's calendar for booking `uid`, unless another booking of the host overlaps it.
 * A compare-and-set on the calendar's version: of two concurrent bookings of one host, one wins and the
 * other sees the conflict. Taking the same uid again (a redone command) is a no-op that succeeds.
 */
export async function reserve(store: SchedulingStore, hostId: string, uid: string, interval: Interval, ignoreUid?: string): Promise<boolean> {
  const Calendar = store.models.HostCalendar;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    let calendar = await store.hostCalendar(hostId);
    if (!calendar) {
      try {
        await Calendar.create({ _id: hostId, version: 0, busy: [] });
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
      }
      calendar = await store.hostCalendar(hostId);
      if (!calendar) continue;
    }
    if (calendar.busy.some((b) => b.uid === uid)) return true;
    const others = calendar.busy.filter((b) => b.uid !== ignoreUid);
    if (findConflict(interval, others)) return false;
    const keepFrom = Date.now() - KEEP_PAST_MS;
    const busy = [...calendar.busy.filter((b) => b.end.getTime() > keepFrom), { uid, start: interval.start, end: interval.end }];
    const result = await Calendar.updateOne({ _id: hostId, version: calendar.version }, { $set: { version: calendar.version + 1, busy } });
    if (result.modifiedCount === 1) return true;
  }
  throw new Error(`host calendar ${hostId}: too many concurrent changes`);
}

/** Frees a booking's time in a host's calendar (cancel, reschedule, or a collective booking that failed). */
export async function release(store: SchedulingStore, hostId: string, uid: string): Promise<void> {
  const Calendar = store.models.HostCalendar;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const calendar = await store.hostCalendar(hostId);
    if (!calendar || !calendar.busy.some((b) => b.uid === uid)) return;
    const busy = calendar.busy.filter((b) => b.uid !== uid);
    const result = await Calendar.updateOne({ _id: hostId, version: calendar.version }, { $set: { version: calendar.version + 1, busy } });
    if (result.modifiedCount === 1) return;
  }
  throw new Error(`host calendar ${hostId}: too many concurrent changes`);
}
