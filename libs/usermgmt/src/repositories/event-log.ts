import { InputError } from '@platform/errors';
import { roundTripBatcher } from '@platform/batching';
import { insertNew } from '@platform/mongo';
import type { mongo } from 'mongoose';
import type { EventLogDoc, UsermgmtModels } from '../models.js';

/** How long the Events API serves an event (WorkOS: "up to 30 days old"). */
export const EVENT_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * Events younger than this are not served yet: events are recorded a little after they happen, several
 * partitions' at once, and a reader that paged past a position must never find an event appear behind it.
 */
export const EVENT_SETTLE_MS = 1_000;

/**
 * Where events recorded now take their place in the log (`logged_at`): when each happened, so that the log
 * follows the order of the changes, whichever partitions and batches carried them to the fan-out; but never
 * earlier than half the settle time before now, so that an event recorded late (the fan-out behind, or
 * restarted) still lands where no reader has been yet. Within a batch (one aggregate's events in their order)
 * each takes a later millisecond than the one before it.
 */
export function logPositions(inputs: ReadonlyArray<{ createdAt: Date }>, now: number): Date[] {
  const floor = now - EVENT_SETTLE_MS / 2;
  let previous = -Infinity;
  return inputs.map((input) => {
    previous = Math.max(input.createdAt.getTime(), floor, previous + 1);
    return new Date(previous);
  });
}

export interface LoggedEvent {
  object: 'event';
  id: string;
  event: string;
  data: Record<string, unknown>;
  created_at: string;
}

/** An event as the fan-out records it in the log the Events API serves. */
export interface EventToRecord {
  id: string;
  environmentId: string;
  event: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

export interface EventQuery {
  events?: string[] | undefined;
  after?: string | undefined;
  before?: string | undefined;
  rangeStart?: Date | undefined;
  rangeEnd?: Date | undefined;
  limit?: number | undefined;
  order?: 'asc' | 'desc' | undefined;
}

function unknownCursor(field: 'after' | 'before', id: string): never {
  const message = `No event ${id} in the last 30 days`;
  throw new InputError('invalid_request_parameters', message, {
    issues: [{ field, code: 'invalid_cursor', message }],
  });
}

const present = (doc: EventLogDoc): LoggedEvent => ({
  object: 'event',
  id: doc._id,
  event: doc.event,
  data: doc.data,
  created_at: doc.created_at.toISOString(),
});

export function eventLogRepository(models: UsermgmtModels) {
  const { EventLog } = models;
  // The fan-out handles batches of several partitions at once: those that arrive while one is being written
  // are recorded together in the next insert. An id already taken is a redelivered event.
  const insert = roundTripBatcher(async (docs: EventLogDoc[]) => {
    await insertNew(EventLog.collection as unknown as mongo.Collection<EventLogDoc>, docs);
    return docs.map(() => undefined);
  });
  const stored = (input: EventToRecord, loggedAt: Date): EventLogDoc => ({
    _id: input.id,
    environment_id: input.environmentId,
    event: input.event,
    data: input.data,
    created_at: input.createdAt,
    logged_at: loggedAt,
    expires_at: new Date(input.createdAt.getTime() + EVENT_RETENTION_MS),
  });
  return {
    /**
     * Records events, in their order, in one insert (a batch of the fan-out), each once: a redelivered event
     * keeps its first position.
     */
    async recordMany(inputs: readonly EventToRecord[]): Promise<void> {
      if (inputs.length === 0) return;
      const positions = logPositions(inputs, Date.now());
      await insert.all(inputs.map((input, i) => stored(input, positions[i]!)));
    },

    /**
     * A page in log order (oldest first unless `order` is desc). `after`/`before` are event ids; a reader that
     * keeps the last id it processed and asks for what follows it sees every event once.
     */
    async list(environmentId: string, query: EventQuery, now = new Date()) {
      const limit = query.limit ?? 10;
      const descending = query.order === 'desc';
      const cursorId = query.after ?? query.before;
      const backwards = query.before !== undefined;
      const ascending = descending === backwards;
      const filter: Record<string, unknown> = {
        environment_id: environmentId,
        logged_at: { $lte: new Date(now.getTime() - EVENT_SETTLE_MS) },
      };
      const and: Record<string, unknown>[] = [];
      if (query.events && query.events.length > 0) filter['event'] = { $in: query.events };
      const since = Math.max(now.getTime() - EVENT_RETENTION_MS, query.rangeStart?.getTime() ?? 0);
      filter['created_at'] = {
        $gte: new Date(since),
        ...(query.rangeEnd ? { $lte: query.rangeEnd } : {}),
      };
      if (cursorId !== undefined) {
        const cursor = await EventLog.findOne({ _id: cursorId, environment_id: environmentId })
          .select({ logged_at: 1 })
          .lean<Pick<EventLogDoc, '_id' | 'logged_at'>>();
        if (!cursor) unknownCursor(backwards ? 'before' : 'after', cursorId);
        const op = ascending ? '$gt' : '$lt';
        and.push({
          $or: [{ logged_at: { [op]: cursor.logged_at } }, { logged_at: cursor.logged_at, _id: { [op]: cursor._id } }],
        });
      }
      const direction = ascending ? 1 : -1;
      const docs = await EventLog.find(and.length > 0 ? { ...filter, $and: and } : filter)
        .sort({ logged_at: direction, _id: direction })
        .limit(limit + 1)
        .lean<EventLogDoc[]>()
        .exec();
      const hasMore = docs.length > limit;
      const page = docs.slice(0, limit);
      if (backwards) page.reverse();
      return {
        object: 'list' as const,
        data: page.map(present),
        // `after` is the last event returned even at the end: the cursor a catching-up reader stores.
        list_metadata: {
          before: backwards && hasMore ? (page[0]?._id ?? null) : null,
          after: page.at(-1)?._id ?? (backwards ? null : (query.after ?? null)),
        },
      };
    },
  };
}
