import type { Redis } from '@platform/redis';

/**
 * Which events were already counted, to drop a producer's repeat of an event (the same id at a later offset:
 * the redirector re-publishes a batch whose acknowledgement it lost). Ids are marked only once their batch is
 * in the buckets, and checked before a batch is planned:
 * - a repeat of an event counted in an earlier batch finds its mark and is dropped;
 * - a batch applied but not marked (a crash in between) is replayed from its uncommitted offsets, so the
 *   first occurrence of an id comes again before its repeat and the buckets' watermarks drop it; the repeat
 *   in the same batch is dropped by the batch's own first-occurrence rule;
 * - a batch marked but not committed is replayed and every event of it is dropped: it is in the buckets.
 *
 * Click ids are `<replica>:<boot>:<sequence>`, dense per producer, so their marks are bits in 128 KiB chunks of
 * 2^20 sequence numbers, one key per producer and chunk that expires `windowMs` after its last write: a click
 * costs one bit, not a key. A batch's clicks of one producer are close together, so a batch reads each chunk
 * once (the byte range its ids fall in) and marks it once (a script ORs the batch's bits in): a few commands
 * per batch, not two per event. Other ids (outbox events) are keys of their own.
 */
export interface Sightings {
  /** For each id, whether it was already counted. */
  seen(ids: readonly string[]): Promise<boolean[]>;
  /** Marks ids as counted (after their batch is in the buckets). */
  mark(ids: readonly string[]): Promise<void>;
}

const CHUNK_BITS = 20;

/**
 * The digits from `from` to the end of `id` as a number, or null: 1 to 15 of them (exact in a double), without
 * leading zeros (so that a bit names one id: `p:7`, never also `p:007`).
 */
export function sequenceAt(id: string, from: number): number | null {
  const length = id.length - from;
  if (length < 1 || length > 15 || (length > 1 && id.charCodeAt(from) === 48)) return null;
  let seq = 0;
  for (let i = from; i < id.length; i++) {
    const digit = id.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return null;
    seq = seq * 10 + digit;
  }
  return seq;
}

/**
 * ORs a bit mask into a bitmap from byte `ARGV[1]` on and renews its expiry, atomically: partitions marking the
 * same producer's chunk at once never lose each other's bits.
 */
const OR_RANGE = `
local from = tonumber(ARGV[1])
local mask = ARGV[2]
local current = redis.call('GETRANGE', KEYS[1], from, from + #mask - 1)
local out = {}
for i = 1, #mask do
  out[i] = string.char(bit.bor(string.byte(mask, i), string.byte(current, i) or 0))
end
redis.call('SETRANGE', KEYS[1], from, table.concat(out))
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1`;

/** A producer chunk's bits named by a batch: Redis bit `n` is bit `7 - n % 8` of byte `n / 8`. */
interface Span {
  key: string;
  bits: number[];
  /** The positions in the caller's list, in the order of `bits`. */
  at: number[];
  from: number;
  to: number;
}

export function createRedisSightings(redis: Redis, options: { namespace?: string; windowMs: number }): Sightings {
  const prefix = `${options.namespace ?? ''}analytics:seen:`;
  const ttlSeconds = Math.max(1, Math.ceil(options.windowMs / 1000));
  /** Dense ids grouped by chunk key (a batch names a few), other ids as keys of their own. */
  const locate = (ids: readonly string[]) => {
    const spans = new Map<string, Span>();
    const others: Array<{ key: string; at: number }> = [];
    // A batch's ids come mostly from a few producers: the previous id's producer and chunk are tried first.
    let producer = '';
    let chunk = -1;
    let span: Span | undefined;
    ids.forEach((id, at) => {
      const colon = id.lastIndexOf(':');
      const seq = colon < 1 ? null : sequenceAt(id, colon + 1);
      if (seq === null) {
        others.push({ key: `${prefix}id:${id}`, at });
        return;
      }
      const bit = seq % 2 ** CHUNK_BITS;
      const idChunk = Math.floor(seq / 2 ** CHUNK_BITS);
      if (!span || idChunk !== chunk || colon !== producer.length || !id.startsWith(producer)) {
        producer = id.slice(0, colon);
        chunk = idChunk;
        const key = `${prefix}seq:${producer}:${chunk}`;
        span = spans.get(key);
        if (!span) {
          span = { key, bits: [], at: [], from: bit >> 3, to: bit >> 3 };
          spans.set(key, span);
        }
      }
      span.bits.push(bit);
      span.at.push(at);
      if (bit >> 3 < span.from) span.from = bit >> 3;
      if (bit >> 3 > span.to) span.to = bit >> 3;
    });
    return { spans: [...spans.values()], others };
  };

  return {
    async seen(ids) {
      if (ids.length === 0) return [];
      const { spans, others } = locate(ids);
      // One range read per chunk: a batch's ids of one producer are close together.
      const pipeline = redis.pipeline();
      for (const span of spans) pipeline.getrangeBuffer(span.key, span.from, span.to);
      for (const other of others) pipeline.exists(other.key);
      const results = (await pipeline.exec()) ?? [];
      const seen = new Array<boolean>(ids.length).fill(false);
      spans.forEach((span, i) => {
        const [error, value] = results[i]!;
        if (error) throw error;
        const bytes = value as Buffer;
        span.bits.forEach((bit, k) => {
          const byte = bytes[(bit >> 3) - span.from] ?? 0;
          seen[span.at[k]!] = (byte & (0x80 >> (bit & 7))) !== 0;
        });
      });
      others.forEach((other, i) => {
        const [error, value] = results[spans.length + i]!;
        if (error) throw error;
        seen[other.at] = Number(value) === 1;
      });
      return seen;
    },

    async mark(ids) {
      if (ids.length === 0) return;
      const { spans, others } = locate(ids);
      const pipeline = redis.pipeline();
      for (const span of spans) {
        const mask = Buffer.alloc(span.to - span.from + 1);
        for (const bit of span.bits) {
          const i = (bit >> 3) - span.from;
          mask[i] = mask[i]! | (0x80 >> (bit & 7));
        }
        pipeline.eval(OR_RANGE, 1, span.key, span.from, mask, ttlSeconds);
      }
      for (const other of others) pipeline.set(other.key, '1', 'EX', ttlSeconds);
      for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
    },
  };
}
