import type { Redis } from '@platform/redis';

/**
 * Which events were already counted, to drop a producer's repeat of an event (the same id at a later offset:
 * the redirector re-publishes a batch whose acknowledgement it lost). Ids are marked only once their fold is
 * in the buckets, and checked when a fold is about to be written (after the partition's earlier folds have
 * been written and marked):
 * - a repeat of an event counted in an earlier fold finds its mark and is taken out of the plan;
 * - a batch applied but not marked (a crash in between) is replayed from its uncommitted offsets, so the
 *   first occurrence of an id comes again before its repeat and the buckets' watermarks drop it; the repeat
 *   in the same batch is dropped by the batch's own first-occurrence rule;
 * - a batch marked but not committed is replayed and every event of it is dropped: it is in the buckets.
 *
 * Click ids are `<replica>:<boot>:<sequence>`, dense per producer, so their marks are bits in 128 KiB chunks of
 * 2^20 sequence numbers, one key per producer and chunk that expires `windowMs` after its last write: a click
 * costs one bit, not a key. A fold's clicks of one producer are close together, so a fold reads each chunk
 * once (the byte range its ids fall in) and marks it once (a script ORs the fold's bits in): a few commands
 * per fold, not two per event. Other ids (outbox events) are keys of their own.
 */
export interface Sightings {
  /** Those of the ids already counted. */
  seen(ids: EventIdSet): Promise<EventIdSet>;
  /** Marks ids as counted (after their fold is in the buckets). */
  mark(ids: EventIdSet): Promise<void>;
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

/**
 * An event id read for the sightings: a click id is a bit of its producer's chunk (`chunk` names both, and is
 * the same string for the ids of one producer and chunk that a reader meets, so that it is hashed once); any
 * other id stands for itself (`chunk` null).
 */
export interface EventId {
  id: string;
  chunk: string | null;
  bit: number;
}

/** The producers a reader met last: a partition's clicks come from a few redirector replicas, interleaved. */
const RECENT_PRODUCERS = 8;

/** Reads ids into `EventId`s, reusing the chunk names of the producers it met last. */
export function createEventIdReader(): (id: string) => EventId {
  const recent: Array<{ producer: string; chunk: number; name: string }> = [];
  return (id) => {
    const colon = id.lastIndexOf(':');
    const seq = colon < 1 ? null : sequenceAt(id, colon + 1);
    if (seq === null) return { id, chunk: null, bit: 0 };
    const chunk = Math.floor(seq / 2 ** CHUNK_BITS);
    const bit = seq % 2 ** CHUNK_BITS;
    for (const r of recent)
      if (r.chunk === chunk && r.producer.length === colon && id.startsWith(r.producer))
        return { id, chunk: r.name, bit };
    const producer = id.slice(0, colon);
    const entry = { producer, chunk, name: `${producer}:${chunk}` };
    if (recent.unshift(entry) > RECENT_PRODUCERS) recent.pop();
    return { id, chunk: entry.name, bit };
  };
}

/** The bits of one producer chunk: bytes `from` on; every bit set lies in bytes `low` to `high`. */
interface Bits {
  from: number;
  bytes: Uint8Array;
  low: number;
  high: number;
}

const INITIAL_BYTES = 64;
const CHUNK_BYTES = 2 ** CHUNK_BITS / 8;

/**
 * A set of event ids that keeps a producer's sequence numbers as bits (a fold's 100 000 clicks are ~12 KB and no
 * object per id, where a set of strings makes the collector copy and mark each of them), others as strings.
 */
export class EventIdSet {
  readonly #chunks = new Map<string, Bits>();
  readonly #others = new Set<string>();
  #size = 0;
  /** The chunk met last, looked up by the identity of its name. */
  #lastName: string | null = null;
  #last: Bits | undefined;

  get size(): number {
    return this.#size;
  }

  has(id: EventId): boolean {
    return id.chunk === null ? this.#others.has(id.id) : this.hasBit(id.chunk, id.bit);
  }

  /** Whether bit `bit` of producer chunk `chunk` is in the set. */
  hasBit(chunk: string, bit: number): boolean {
    const bits = this.#bitsOf(chunk);
    if (!bits) return false;
    const i = (bit >> 3) - bits.from;
    return i >= 0 && i < bits.bytes.length && (bits.bytes[i]! & (0x80 >> (bit & 7))) !== 0;
  }

  add(id: EventId): void {
    if (id.chunk === null) {
      if (this.#others.has(id.id)) return;
      this.#others.add(id.id);
      this.#size++;
      return;
    }
    let bits = this.#bitsOf(id.chunk);
    if (!bits) {
      bits = { from: 0, bytes: new Uint8Array(0), low: id.bit >> 3, high: id.bit >> 3 };
      this.#chunks.set(id.chunk, bits);
      this.#last = bits;
    }
    const byte = id.bit >> 3;
    if (byte < bits.from || byte >= bits.from + bits.bytes.length) grow(bits, byte);
    const mask = 0x80 >> (id.bit & 7);
    const i = byte - bits.from;
    if ((bits.bytes[i]! & mask) !== 0) return;
    bits.bytes[i] = bits.bytes[i]! | mask;
    if (byte < bits.low) bits.low = byte;
    if (byte > bits.high) bits.high = byte;
    this.#size++;
  }

  /** Each producer chunk with bits set: its name, and the bytes from `from` on that hold every one of its bits. */
  *chunks(): IterableIterator<{ chunk: string; from: number; bytes: Uint8Array }> {
    for (const [chunk, bits] of this.#chunks) {
      if (bits.bytes.length > 0)
        yield { chunk, from: bits.low, bytes: bits.bytes.subarray(bits.low - bits.from, bits.high - bits.from + 1) };
    }
  }

  others(): IterableIterator<string> {
    return this.#others.values();
  }

  #bitsOf(chunk: string): Bits | undefined {
    if (chunk === this.#lastName) return this.#last;
    const bits = this.#chunks.get(chunk);
    this.#lastName = chunk;
    this.#last = bits;
    return bits;
  }
}

/** Makes `bits` cover byte `byte`, doubling its length as often as it takes (never past the chunk). */
function grow(bits: Bits, byte: number): void {
  const empty = bits.bytes.length === 0;
  const low = empty ? byte : Math.min(bits.from, byte);
  const high = empty ? byte : Math.max(bits.from + bits.bytes.length - 1, byte);
  let length = Math.max(INITIAL_BYTES, bits.bytes.length);
  while (length < high - low + 1) length *= 2;
  length = Math.min(length, CHUNK_BYTES);
  // Room on the side it grew towards: ids of a producer mostly rise.
  const from = byte < bits.from && !empty ? Math.max(0, high + 1 - length) : Math.min(low, CHUNK_BYTES - length);
  const bytes = new Uint8Array(length);
  if (!empty) bytes.set(bits.bytes, bits.from - from);
  bits.from = from;
  bits.bytes = bytes;
}

export function createRedisSightings(redis: Redis, options: { namespace?: string; windowMs: number }): Sightings {
  const prefix = `${options.namespace ?? ''}analytics:seen:`;
  const ttlSeconds = Math.max(1, Math.ceil(options.windowMs / 1000));

  return {
    async seen(ids) {
      const found = new EventIdSet();
      if (ids.size === 0) return found;
      // One range read per chunk (a fold's ids of one producer are close together), ANDed with the fold's bits.
      const chunks = [...ids.chunks()];
      const others = [...ids.others()];
      const pipeline = redis.pipeline();
      for (const { chunk, from, bytes } of chunks)
        pipeline.getrangeBuffer(`${prefix}seq:${chunk}`, from, from + bytes.length - 1);
      for (const id of others) pipeline.exists(`${prefix}id:${id}`);
      const results = (await pipeline.exec()) ?? [];
      chunks.forEach(({ chunk, from, bytes }, i) => {
        const [error, value] = results[i]!;
        if (error) throw error;
        const marked = value as Buffer;
        for (let k = 0; k < bytes.length && k < marked.length; k++) {
          const both = bytes[k]! & marked[k]!;
          for (let b = 0; both !== 0 && b < 8; b++)
            if (both & (0x80 >> b)) found.add({ id: '', chunk, bit: (from + k) * 8 + b });
        }
      });
      others.forEach((id, i) => {
        const [error, value] = results[chunks.length + i]!;
        if (error) throw error;
        if (Number(value) === 1) found.add({ id, chunk: null, bit: 0 });
      });
      return found;
    },

    async mark(ids) {
      if (ids.size === 0) return;
      const pipeline = redis.pipeline();
      for (const { chunk, from, bytes } of ids.chunks())
        pipeline.eval(
          OR_RANGE,
          1,
          `${prefix}seq:${chunk}`,
          from,
          Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          ttlSeconds,
        );
      for (const id of ids.others()) pipeline.set(`${prefix}id:${id}`, '1', 'EX', ttlSeconds);
      for (const [error] of (await pipeline.exec()) ?? []) if (error) throw error;
    },
  };
}
