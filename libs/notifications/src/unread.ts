import { randomBytes } from 'node:crypto';
import type { Model } from '@platform/mongo';

/**
 * A user's unread count, kept beside the inbox (`_id`: the user's lane, `<deployment>:<user>`), so that the
 * dispatch of every notification and every inbox read find it in one `_id` read: FerretDB counts the inbox by
 * decoding each of the user's unread notifications (10 ms at 70, 26 ms at 200; the slowest step of a
 * notification's way to the watch streams).
 *
 * There are no transactions, so a change of the inbox and of the count cannot be one write. Each change that may
 * move the count is announced first: `begin` adds a token to `pending`, the inbox is changed, and `end` removes
 * the token and adds the change's delta in one write (matched on the token, so a retried `end` adds nothing).
 * While any token is pending the stored count is not trusted and the inbox is counted instead, so a reader never
 * sees a wrong number: a change under way, a change whose outcome is unknown (its write failed: `end` with
 * `null` forgets the count) and a change cut off by a crash (its token stays) all fall back to counting. A token
 * older than `UNREAD_STALE_MS` is taken for a crashed change, and the next `end` that finds only such tokens
 * (or no count) counts the inbox and stores the result, if nothing changed the document meanwhile (`v`).
 */
export interface UnreadDoc {
  _id: string;
  /** Absent until first counted, and after a change whose outcome is unknown. */
  unread?: number;
  /** Tokens of the changes under way (or cut off). */
  pending: string[];
  /** Bumped by every write: what a repair compares and sets on. */
  v: number;
}

/** A change of a user's inbox under way: its token, and the count before it when the stored one was good. */
export interface UnreadChange {
  token: string;
  before: number | null;
}

/** Past this, a pending token is taken for a change cut off by a crash (a change takes a few store writes). */
export const UNREAD_STALE_MS = 5 * 60_000;

const tokenOf = (now: number) => `${now.toString(36)}.${randomBytes(6).toString('hex')}`;
const tokenTime = (token: string) => parseInt(token.slice(0, token.indexOf('.')), 36);

/** The count a document states, or null when it cannot tell: never counted, or a change is under way. */
export function statedUnread(doc: Pick<UnreadDoc, 'unread' | 'pending'> | null | undefined): number | null {
  return doc && typeof doc.unread === 'number' && doc.pending.length === 0 ? doc.unread : null;
}

/** The count, read in one `_id` read when the stored one is good, else by counting the inbox. */
export async function readUnread(
  model: Model<UnreadDoc>,
  lane: string,
  countInbox: () => Promise<number>,
): Promise<number> {
  const doc = await model.findById(lane).lean<UnreadDoc>();
  return statedUnread(doc) ?? countInbox();
}

/** The writes of the count, for the process that changes the inbox. */
export function createUnreadCounter(
  model: Model<UnreadDoc>,
  countInbox: (lane: string) => Promise<number>,
  now: () => number = Date.now,
) {
  /** Counts the inbox and stores it, unless a live change is under way or the document changed meanwhile. */
  async function repair(doc: UnreadDoc): Promise<void> {
    if (doc.pending.some((token) => now() - tokenTime(token) < UNREAD_STALE_MS)) return;
    const unread = await countInbox(doc._id);
    await model.updateOne({ _id: doc._id, v: doc.v }, { $set: { unread, pending: [] }, $inc: { v: 1 } });
  }

  const counter = {
    /** Announces a change of the inbox of `lane`: the count stops being trusted until `end`. */
    async begin(lane: string): Promise<UnreadChange> {
      const token = tokenOf(now());
      const before = await model
        .findOneAndUpdate(
          { _id: lane },
          { $push: { pending: token }, $inc: { v: 1 } },
          { upsert: true, returnDocument: 'before' },
        )
        .lean<UnreadDoc>();
      return { token, before: statedUnread(before) };
    },
    /**
     * Ends a change: adds `delta` to the count (0 when the change turned out to change nothing), or, with null
     * (its outcome is unknown), forgets the count so that it is counted again. Safe to repeat.
     */
    async end(lane: string, token: string, delta: number | null): Promise<void> {
      let after =
        delta === null
          ? null
          : await model
              .findOneAndUpdate(
                { _id: lane, pending: token, unread: { $exists: true } },
                { $pull: { pending: token }, $inc: { unread: delta, v: 1 } },
                { returnDocument: 'after' },
              )
              .lean<UnreadDoc>();
      after ??= await model
        .findOneAndUpdate(
          { _id: lane, pending: token },
          { $pull: { pending: token }, $inc: { v: 1 }, ...(delta === null ? { $unset: { unread: 1 } } : {}) },
          { returnDocument: 'after' },
        )
        .lean<UnreadDoc>();
      if (after && statedUnread(after) === null) await repair(after);
    },
  };

  return {
    ...counter,
    /**
     * Runs `work` (a change of the inbox of `lane`) inside a change of the count: begun here unless `begun` is
     * one already, ended with the delta `work` answers, or with null when `work` failed (its write may or may
     * not have landed). `work` is given the count before it (counted from the inbox when the stored one is
     * not good).
     */
    async counted<T>(
      lane: string,
      work: (before: () => Promise<number>) => Promise<{ result: T; delta: number }>,
      begun?: UnreadChange,
    ): Promise<T> {
      const change = begun ?? (await counter.begin(lane));
      let outcome: { result: T; delta: number };
      try {
        outcome = await work(async () => change.before ?? (await countInbox(lane)));
      } catch (error) {
        await counter.end(lane, change.token, null).catch(() => undefined);
        throw error;
      }
      await counter.end(lane, change.token, outcome.delta);
      return outcome.result;
    },
  };
}

export type UnreadCounter = ReturnType<typeof createUnreadCounter>;
