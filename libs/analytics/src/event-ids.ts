/**
 * The digits from `from` to the end of `id` as a number, or null: 1 to 15 of them (exact in a double), without
 * leading zeros (so that the number names one id: `p:7`, never also `p:007`).
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
 * A set of event ids that keeps a click id (`<producer>:<sequence>`, dense per producer) as its sequence number
 * under its producer, and any other id as itself.
 *
 * The aggregator holds every id of a fold until the fold is in the buckets, up to a hundred thousand per
 * partition: as strings they outlive the young generation and every collection copies and then marks them
 * (a quarter of the aggregator's CPU went to the collector). Small numbers in a `Set` are no objects at all.
 */
export class EventIds {
  readonly #dense = new Map<string, Set<number>>();
  readonly #others = new Set<string>();
  #size = 0;
  /** The producer of the id looked at last, and its sequences: a batch's ids come from a few producers, in runs. */
  #producer = '';
  #sequences: Set<number> | undefined;

  get size(): number {
    return this.#size;
  }

  /** Adds `id`; false if it was in the set already. */
  add(id: string): boolean {
    const colon = id.lastIndexOf(':');
    const seq = colon < 1 ? null : sequenceAt(id, colon + 1);
    if (seq === null) {
      if (this.#others.has(id)) return false;
      this.#others.add(id);
    } else {
      let sequences = this.#sequencesOf(id, colon);
      if (!sequences) {
        sequences = new Set();
        this.#dense.set(this.#producer, sequences);
        this.#sequences = sequences;
      }
      if (sequences.has(seq)) return false;
      sequences.add(seq);
    }
    this.#size++;
    return true;
  }

  has(id: string): boolean {
    const colon = id.lastIndexOf(':');
    const seq = colon < 1 ? null : sequenceAt(id, colon + 1);
    if (seq === null) return this.#others.has(id);
    return this.#sequencesOf(id, colon)?.has(seq) ?? false;
  }

  /** The dense ids: each producer (the id up to its last colon) with its sequence numbers. */
  producers(): ReadonlyMap<string, ReadonlySet<number>> {
    return this.#dense;
  }

  /** The ids that are not `<producer>:<sequence>`. */
  others(): ReadonlySet<string> {
    return this.#others;
  }

  /** Every id, as a string (for tests and logs; the sets themselves are what callers should walk). */
  *[Symbol.iterator](): IterableIterator<string> {
    for (const [producer, sequences] of this.#dense) for (const seq of sequences) yield `${producer}:${seq}`;
    yield* this.#others;
  }

  #sequencesOf(id: string, colon: number): Set<number> | undefined {
    if (colon !== this.#producer.length || !id.startsWith(this.#producer)) {
      this.#producer = id.slice(0, colon);
      this.#sequences = this.#dense.get(this.#producer);
    }
    return this.#sequences;
  }
}
