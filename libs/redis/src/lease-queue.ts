import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Durable work scheduled and claimed in Redis: items (ids) due at a time, in groups (a webhook target, a
 * notification channel) of which at most `perGroupLimit` are claimed at once, so one slow group never holds
 * the others back. The document store keeps each item's record; this queue only says what is due and who
 * holds it, and is rebuilt from the store (`schedule`, which never moves an item that is queued or held) when
 * Redis loses it.
 *
 * A claim is a lease: it names its expiry, which is also its token. An item whose lease lapses is due again
 * at once for any claimer; `finish`, `retry` and `release` act only while the caller's lease is the current
 * one, so a late holder never undoes a newer claim.
 *
 * Keys, all under one hash tag so that a Redis Cluster keeps them in one slot (the scripts name group keys
 * that they derive):
 * - `ready`: groups with a due item and room under the limit, scored by their earliest item's due time;
 * - `q:<group>`: the group's queued items, scored by due time;
 * - `leases`: claimed items, scored by lease expiry; `lease-group`: the group of each;
 * - `inflight`: claimed items per group; `queued`: the number of queued items (a metric);
 * - `rates`: a group's claims per second at most, `pace`: its GCRA theoretical arrival time;
 * - for items with an ordering key: `k:<group>:<key>`, the key's items in the order they were scheduled, of
 *   which only the first is in `q:<group>` (the rest wait, their due times in `waiting`); `item-key`: the key
 *   of each; `keys:<group>`: the group's keys with items;
 * - `holders`: who holds a named claim (`hold`, or `claim` with a holder); `again`: items another holder asked
 *   for while they were held (queued again at their release);
 * - `b:<id>`: the body an item was first scheduled with (see `QueuedItem.body`), until its first claim takes it
 *   or it expires.
 */
export interface LeaseQueueOptions {
  /** Key prefix; braces are added (`{webhooks}`) so that every key shares one cluster slot. */
  name: string;
  /** Claimed items per group at most (a webhook target's concurrency). */
  perGroupLimit: number;
  /** Claims per second per group at most, unless its items say otherwise (`rate`; default 0: no limit). */
  perGroupRate?: number;
  /**
   * Bodies are kept only while fewer items than this are queued (default 10 000), for at most `bodyTtlMs`
   * (default 2 min): what a backlog costs Redis stays bounded, and the items past it are read from the store.
   */
  maxQueuedBodies?: number;
  bodyTtlMs?: number;
}

export interface QueuedItem {
  id: string;
  group: string;
  dueAt: number;
  /**
   * Items of a group sharing a key are claimed one at a time, in the order they were first scheduled: a later
   * one waits until the earlier one is finished (delivered, given up), whatever their due times and retries.
   */
  key?: string | null;
  /**
   * The group's claims per second at most, as of this item (the one of highest sequence wins); null: the
   * default; undefined: the item says nothing of it (a redelivery, whose record may be older than the limit).
   */
  rate?: number | null;
  /**
   * Where the item stands among its key's and its group's (the order in which it was requested): lines are kept
   * in this order, and a group's rate is the one its latest item carried. Default: `nextSequence()`.
   */
  sequence?: number;
  /**
   * The item's record as its scheduler just wrote it (a new delivery), handed to its first claim so that the
   * claimer need not read it back from the store: the claim that takes it is the only one that sees it. A later
   * claim (a lapsed lease, a retry, a queue rebuilt from the store) has none and reads the store, which alone
   * knows whether the item was finished meanwhile.
   */
  body?: string;
}

let lastSequence = 0;

/** Increasing within a process, and across processes with the clock: ms since the epoch × 1000, then a counter. */
export function nextSequence(): number {
  lastSequence = Math.max(Date.now() * 1000, lastSequence + 1);
  return lastSequence;
}

export interface Claim {
  id: string;
  group: string;
  /** The lease's expiry (ms since the epoch), and the token of this claim. */
  lease: number;
  /** The body the item was scheduled with, on its first claim only (see `QueuedItem.body`). */
  body?: string;
}

const COMMON = `
local P = ARGV[1]
local limit = tonumber(ARGV[2])
local R, L, LG, IF, C = P .. 'ready', P .. 'leases', P .. 'lease-group', P .. 'inflight', P .. 'queued'
local function q(g) return P .. 'q:' .. g end
local function refresh(g)
  local n = tonumber(redis.call('HGET', IF, g) or '0')
  if n >= limit then redis.call('ZREM', R, g) return end
  local head = redis.call('ZRANGE', q(g), 0, 0, 'WITHSCORES')
  if #head == 0 then redis.call('ZREM', R, g) else redis.call('ZADD', R, head[2], g) end
end
local function dequeue(g, id)
  if redis.call('ZREM', q(g), id) == 1 then redis.call('DECR', C) end
end
local IK, KD, AL = P .. 'item-key', P .. 'waiting', P .. 'line-active'
-- Group and key length-prefixed: no two (group, key) pairs share a line.
local function klist(g, k) return P .. 'k:' .. #g .. ':' .. g .. ':' .. k end
-- The line's item being worked (queued or claimed) makes way: the earliest waiting one is queued in its place.
local function leaveLine(g, id)
  local k = redis.call('HGET', IK, id)
  if not k then return end
  redis.call('HDEL', IK, id)
  local line = klist(g, k)
  redis.call('ZREM', line, id)
  if redis.call('HGET', AL, line) ~= id then return end
  redis.call('HDEL', AL, line)
  for _, nxt in ipairs(redis.call('ZRANGE', line, 0, -1)) do
    local due = redis.call('HGET', KD, nxt)
    if due then
      redis.call('HDEL', KD, nxt)
      redis.call('ZADD', q(g), due, nxt)
      redis.call('HSET', AL, line, nxt)
      return
    end
    -- Not waiting (cannot happen): out of the line rather than holding it for ever.
    redis.call('ZREM', line, nxt)
  end
  redis.call('SREM', P .. 'keys:' .. g, k)
end
local function vacate(g)
  if redis.call('HINCRBY', IF, g, -1) <= 0 then redis.call('HDEL', IF, g) end
end
-- A claim counts against its group until it is vacated (its request answered) or it ends, whichever is first.
local function unlease(id, g)
  redis.call('ZREM', L, id)
  if redis.call('HGET', LG, id) == g then vacate(g) end
  redis.call('HDEL', LG, id)
  redis.call('HDEL', P .. 'holders', id)
end
local function holds(id, token)
  local score = redis.call('ZSCORE', L, id)
  return score and tonumber(score) == tonumber(token)
end
`;

/**
 * ARGV: prefix, limit, body ttl (ms), most queued items with bodies, then id, group, due, key ('' for none), rate
 * ('' for the default, '-' to leave it), sequence, body ('' for none) for each item. Returns how many were queued. An item with a key takes its place in its key's line by sequence: it is
 * queued if it comes first and the item being worked is not claimed (that one waits again), and waits
 * otherwise. A group's rate is the one its item of the highest sequence carried.
 */
const SCHEDULE = `${COMMON}
local added = 0
local bodyTtl, maxBodies = ARGV[3], tonumber(ARGV[4])
for i = 5, #ARGV, 7 do
  local id, g, due, k, rate, seq = ARGV[i], ARGV[i + 1], ARGV[i + 2], ARGV[i + 3], ARGV[i + 4], tonumber(ARGV[i + 5])
  if not redis.call('ZSCORE', L, id) and not redis.call('ZSCORE', q(g), id) and redis.call('HEXISTS', IK, id) == 0 then
    redis.call('INCR', C)
    local first = true
    if k ~= '' then
      local line = klist(g, k)
      redis.call('HSET', IK, id, k)
      redis.call('SADD', P .. 'keys:' .. g, k)
      redis.call('ZADD', line, seq, id)
      local active = redis.call('HGET', AL, line)
      if active then
        local queuedAt = redis.call('ZSCORE', q(g), active)
        first = queuedAt and seq < tonumber(redis.call('ZSCORE', line, active))
        if first then
          redis.call('ZREM', q(g), active)
          redis.call('HSET', KD, active, queuedAt)
        end
      end
      if first then redis.call('HSET', AL, line, id) end
    end
    if first then redis.call('ZADD', q(g), due, id) else redis.call('HSET', KD, id, due) end
    local RS = P .. 'rate-seq'
    if rate ~= '-' and seq >= tonumber(redis.call('HGET', RS, g) or '0') then
      redis.call('HSET', RS, g, ARGV[i + 5])
      if rate == '' then redis.call('HDEL', P .. 'rates', g) else redis.call('HSET', P .. 'rates', g, rate) end
    end
    if ARGV[i + 6] ~= '' and tonumber(redis.call('GET', C) or '0') <= maxBodies then
      redis.call('SET', P .. 'b:' .. id, ARGV[i + 6], 'PX', bodyTtl)
    end
    refresh(g)
    added = added + 1
  end
end
return added
`;

/**
 * ARGV: prefix, limit, now, lease expiry, most items, default rate (per second, 0: none), holder ('' for none).
 * Returns id, group, body ('' for none) triples. A group with a rate is paced by GCRA: at most `rate` claims in any first second, then one every
 * 1/rate s; a group over its rate waits in `ready` until its next claim is allowed.
 */
const CLAIM_DUE = `
local function claimDue(now, lease, most, defaultRate, holder)
  local RT, TT = P .. 'rates', P .. 'pace'
  local lapsed = redis.call('ZRANGEBYSCORE', L, '-inf', now, 'LIMIT', 0, 100)
  for _, id in ipairs(lapsed) do
    local g = redis.call('HGET', LG, id)
    if g then
      if string.sub(g, 1, 1) == '~' then g = string.sub(g, 2) end
      unlease(id, g)
      if redis.call('ZADD', q(g), 'NX', now, id) == 1 then redis.call('INCR', C) end
      refresh(g)
    else
      redis.call('ZREM', L, id)
    end
  end
  local claimed, n = {}, 0
  -- Round robin: one item per ready group per round, so a group with a deep backlog takes no more than its share.
  for round = 1, most do
    local left = most - n
    if left <= 0 then break end
    local groups = redis.call('ZRANGEBYSCORE', R, '-inf', now, 'LIMIT', 0, left)
    if #groups == 0 then break end
    for _, g in ipairs(groups) do
      local rate = tonumber(redis.call('HGET', RT, g) or defaultRate)
      local tat, tolerance, interval = now, 0, 0
      if rate > 0 then
        interval = 1000 / rate
        tolerance = math.max(0, 1000 - interval)
        tat = math.max(tonumber(redis.call('HGET', TT, g) or '0'), now)
      end
      if rate > 0 and tat - now > tolerance then
        -- Over its rate: ready again when its next claim is allowed.
        redis.call('ZADD', R, tat - tolerance, g)
      else
        local head = redis.call('ZRANGEBYSCORE', q(g), '-inf', now, 'LIMIT', 0, 1)
        if #head == 1 then
          local id = head[1]
          dequeue(g, id)
          redis.call('ZADD', L, lease, id)
          redis.call('HSET', LG, id, g)
          if holder ~= '' then redis.call('HSET', P .. 'holders', id, holder) end
          redis.call('HINCRBY', IF, g, 1)
          if rate > 0 then redis.call('HSET', TT, g, tostring(tat + interval)) end
          local B = P .. 'b:' .. id
          local body = redis.call('GET', B)
          if body then redis.call('DEL', B) end
          claimed[#claimed + 1] = id
          claimed[#claimed + 1] = g
          claimed[#claimed + 1] = body or ''
          n = n + 1
        end
        refresh(g)
      end
    end
  end
  return claimed
end
`;

const CLAIM = `${COMMON}${CLAIM_DUE}
return claimDue(tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5]), ARGV[6], ARGV[7])
`;

/** ARGV: prefix, limit, id, group, token, then the due time to queue it again at. */
const RETRY = `${COMMON}
local id, g, token, due = ARGV[3], ARGV[4], ARGV[5], ARGV[6]
if not holds(id, token) then return 0 end
unlease(id, g)
if redis.call('ZADD', q(g), due, id) == 1 then redis.call('INCR', C) end
refresh(g)
return 1
`;

/** ARGV: prefix, limit, then id, group, token for each claim: each still held leaves the queue. Returns how many. */
const FINISH = `${COMMON}
local done = 0
for i = 3, #ARGV, 3 do
  local id, g, token = ARGV[i], ARGV[i + 1], ARGV[i + 2]
  if holds(id, token) then
    unlease(id, g)
    dequeue(g, id)
    leaveLine(g, id)
    refresh(g)
    done = done + 1
  end
end
return done
`;

/** ARGV: prefix, limit, id, group, token. The claim no longer counts against its group; its lease holds. */
const VACATE = `${COMMON}
local id, g, token = ARGV[3], ARGV[4], ARGV[5]
if not holds(id, token) or redis.call('HGET', LG, id) ~= g then return 0 end
redis.call('HSET', LG, id, '~' .. g)
vacate(g)
refresh(g)
return 1
`;

/**
 * ARGV: prefix, limit, id, group, token, then CLAIM's now, lease expiry, most items and default rate. VACATE, then
 * CLAIM (without a holder) in the same call: the place the vacated claim held may go to its group's next item.
 */
const VACATE_AND_CLAIM = `${COMMON}${CLAIM_DUE}
local id, g, token = ARGV[3], ARGV[4], ARGV[5]
if holds(id, token) and redis.call('HGET', LG, id) == g then
  redis.call('HSET', LG, id, '~' .. g)
  vacate(g)
  refresh(g)
end
return claimDue(tonumber(ARGV[6]), ARGV[7], tonumber(ARGV[8]), ARGV[9], '')
`;

/**
 * ARGV: prefix, limit, id, group, holder, now, lease expiry. Takes the item for `holder` whether it is due, queued
 * or unknown (a named claim: work that has just arrived), renews the holder's own lease, or takes over a lapsed
 * one; returns 0 when another holder's lease holds, and marks the item so that its release queues it again.
 */
const HOLD = `${COMMON}
local id, g, holder, now, lease = ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
local H, AG = P .. 'holders', P .. 'again'
local current = redis.call('ZSCORE', L, id)
if current then
  if redis.call('HGET', H, id) == holder then
    redis.call('ZADD', L, lease, id)
    return 1
  end
  if tonumber(current) > now then
    redis.call('HSET', AG, id, '1')
    return 0
  end
  local held = redis.call('HGET', LG, id)
  if held and string.sub(held, 1, 1) == '~' then held = string.sub(held, 2) end
  unlease(id, held or g)
end
dequeue(g, id)
redis.call('ZADD', L, lease, id)
redis.call('HSET', LG, id, g)
redis.call('HSET', H, id, holder)
redis.call('HINCRBY', IF, g, 1)
refresh(g)
return 1
`;

/**
 * ARGV: prefix, limit, id, group, holder, now, then the due time to queue it again at, or '' for none. Ends the
 * holder's lease; the item is queued again at its due time, or at once if another holder asked for it meanwhile.
 */
const RELEASE = `${COMMON}
local id, g, holder, now, due = ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6]), ARGV[7]
if redis.call('HGET', P .. 'holders', id) ~= holder then return 0 end
unlease(id, g)
if redis.call('HDEL', P .. 'again', id) == 1 and (due == '' or tonumber(due) > now) then due = now end
if due ~= '' and redis.call('ZADD', q(g), due, id) == 1 then redis.call('INCR', C) end
refresh(g)
return 1
`;

/**
 * ARGV: prefix, limit, group. Drops every queued item of the group, waiting ones too (claimed ones finish on
 * their own).
 */
const DROP_GROUP = `${COMMON}
local g = ARGV[3]
local n = redis.call('ZCARD', q(g))
local queued = redis.call('ZRANGE', q(g), 0, -1)
for _, id in ipairs(queued) do
  redis.call('HDEL', IK, id)
  redis.call('DEL', P .. 'b:' .. id)
end
redis.call('DEL', q(g))
local KG = P .. 'keys:' .. g
for _, k in ipairs(redis.call('SMEMBERS', KG)) do
  local line = klist(g, k)
  local active = redis.call('HGET', AL, line)
  local score = active and redis.call('ZSCORE', line, active)
  for _, id in ipairs(redis.call('ZRANGE', line, 0, -1)) do
    if redis.call('HDEL', KD, id) == 1 then
      n = n + 1
      redis.call('HDEL', IK, id)
      redis.call('DEL', P .. 'b:' .. id)
    end
  end
  redis.call('DEL', line)
  if active and redis.call('ZSCORE', L, active) then
    -- A claimed item keeps its line: what arrives for the key meanwhile waits until it is done.
    redis.call('ZADD', line, score, active)
  else
    redis.call('HDEL', AL, line)
    redis.call('SREM', KG, k)
  end
end
if n > 0 then redis.call('DECRBY', C, n) end
redis.call('ZREM', R, g)
return n
`;

const digests = new Map<string, string>();

/** EVALSHA, falling back to EVAL once when Redis does not hold the script yet (or lost it in a restart). */
async function runScript(redis: Redis, script: string, args: Array<string | number>): Promise<unknown> {
  let sha = digests.get(script);
  if (!sha) {
    sha = createHash('sha1').update(script).digest('hex');
    digests.set(script, sha);
  }
  try {
    return await redis.evalsha(sha, 0, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return redis.eval(script, 0, ...args);
  }
}

/** The claims a CLAIM script returned, as id, group, body ('' for none) triples. */
function claimsOf(reply: unknown, lease: number): Claim[] {
  const flat = reply as string[];
  const claims: Claim[] = [];
  for (let i = 0; i < flat.length; i += 3) {
    const body = flat[i + 2]!;
    claims.push({ id: flat[i]!, group: flat[i + 1]!, lease, ...(body === '' ? {} : { body }) });
  }
  return claims;
}

export function createLeaseQueue(redis: Redis, options: LeaseQueueOptions) {
  const prefix = `{${options.name}}:`;
  const limit = String(options.perGroupLimit);
  const run = (script: string, args: Array<string | number>) => runScript(redis, script, [prefix, limit, ...args]);
  const bodyTtlMs = options.bodyTtlMs ?? 120_000;
  const maxQueuedBodies = options.maxQueuedBodies ?? 10_000;

  /** FINISH of the claims, 200 per call; how many were still ours. */
  async function finishMany(claims: Claim[]): Promise<number> {
    let done = 0;
    for (let i = 0; i < claims.length; i += 200) {
      const args = claims.slice(i, i + 200).flatMap((c) => [c.id, c.group, c.lease]);
      done += Number(await run(FINISH, args));
    }
    return done;
  }

  return {
    /**
     * Queues items that are neither queued nor held (a queued item keeps its due time): the first scheduling
     * of new work, and the rebuild of a queue that Redis lost, in one call. Returns how many were queued.
     */
    async schedule(items: QueuedItem[]): Promise<number> {
      let added = 0;
      for (let i = 0; i < items.length; i += 200) {
        const args = items
          .slice(i, i + 200)
          .flatMap((item) => [
            item.id,
            item.group,
            Math.round(item.dueAt),
            item.key ?? '',
            item.rate === undefined ? '-' : (item.rate ?? ''),
            item.sequence ?? nextSequence(),
            item.body ?? '',
          ]);
        added += Number(await run(SCHEDULE, [bodyTtlMs, maxQueuedBodies, ...args]));
      }
      return added;
    },

    /**
     * Leases up to `most` due items, one per group per round, for `leaseMs`; lapsed leases are due again first.
     * With `holder`, the claims are that holder's, to renew and release by name (`hold`, `release`).
     */
    async claim(most: number, leaseMs: number, now = Date.now(), holder = ''): Promise<Claim[]> {
      if (most <= 0) return [];
      const lease = now + leaseMs;
      return claimsOf(await run(CLAIM, [now, lease, most, options.perGroupRate ?? 0, holder]), lease);
    },

    /**
     * `vacate`, then `claim` (up to `most`, which may be 0), in one round trip: the place a claim held when its
     * work was over goes to the next due item at once, without waiting for another call.
     */
    async vacateAndClaim(claim: Claim, most: number, leaseMs: number, now = Date.now()): Promise<Claim[]> {
      const lease = now + leaseMs;
      const args = [claim.id, claim.group, claim.lease, now, lease, Math.max(0, most), options.perGroupRate ?? 0];
      return claimsOf(await run(VACATE_AND_CLAIM, args), lease);
    },

    /**
     * The claim stops counting against its group's limit, and keeps its lease: the work that needed the group
     * (a request to the target) is over, and what is left (recording it) must not hold the group's next item
     * back. The lease still ends with `finish` or `retry`, or lapses.
     */
    async vacate(claim: Claim): Promise<boolean> {
      return (await run(VACATE, [claim.id, claim.group, claim.lease])) === 1;
    },

    /** The item is done (delivered, given up): it leaves the queue. False when the lease was no longer ours. */
    finish: async (claim: Claim) => (await finishMany([claim])) === 1,
    /** `finish` of several claims in one call (200 at a time); returns how many were still ours. */
    finishMany,
    /** The item is due again at `dueAt` (a retry, or a claim handed back unattempted). */
    retry: async (claim: Claim, dueAt: number) =>
      Number(await run(RETRY, [claim.id, claim.group, claim.lease, Math.round(dueAt)])) === 1,

    /**
     * A named claim: `holder` takes the item (due or not, queued or not) for `leaseMs`, or renews its own lease;
     * false while another holder's lease holds, and then the item is queued again at once when that one releases
     * it, so that what was asked for meanwhile is not left waiting.
     */
    async hold(id: string, group: string, holder: string, leaseMs: number, now = Date.now()): Promise<boolean> {
      return (await run(HOLD, [id, group, holder, now, now + leaseMs])) === 1;
    },

    /** Ends `holder`'s lease on the item, queuing it again at `dueAt` if given (or at once, if asked for meanwhile). */
    async release(id: string, group: string, holder: string, dueAt?: number, now = Date.now()): Promise<boolean> {
      return (await run(RELEASE, [id, group, holder, now, dueAt === undefined ? '' : Math.round(dueAt)])) === 1;
    },

    /** Drops the queued items of a group (a disabled target); claimed ones finish on their own. */
    async dropGroup(group: string): Promise<number> {
      return Number(await run(DROP_GROUP, [group]));
    },

    /** When the next item falls due or lease lapses (ms), or null when nothing is queued or held. */
    async nextDueAt(): Promise<number | null> {
      const [ready, lease] = (await redis
        .multi()
        .zrange(`${prefix}ready`, 0, 0, 'WITHSCORES')
        .zrange(`${prefix}leases`, 0, 0, 'WITHSCORES')
        .exec()) as Array<[Error | null, string[]]>;
      const times = [ready?.[1]?.[1], lease?.[1]?.[1]].filter((t): t is string => t !== undefined).map(Number);
      return times.length === 0 ? null : Math.min(...times);
    },

    /**
     * Queued and claimed items, and when the oldest item that could be claimed now fell due (its group has room),
     * or null: how far claims lag behind, for the metrics. Items waiting for a retry or for a busy group are not lag.
     */
    async depth(): Promise<{ queued: number; claimed: number; oldestReadyAt: number | null }> {
      const [[, queued], [, claimed], [, ready]] = (await redis
        .multi()
        .get(`${prefix}queued`)
        .zcard(`${prefix}leases`)
        .zrange(`${prefix}ready`, 0, 0, 'WITHSCORES')
        .exec()) as [[null, string | null], [null, number], [null, string[]]];
      return {
        queued: Math.max(0, Number(queued ?? 0)),
        claimed,
        oldestReadyAt: ready[1] === undefined ? null : Number(ready[1]),
      };
    },
  };
}

export type LeaseQueue = ReturnType<typeof createLeaseQueue>;
