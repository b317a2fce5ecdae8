import { createRequire, Module } from 'node:module';

/** The parts of kafkajs's protocol decoder a record is read with. */
interface Decoder {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readVarInt(): number;
  readVarLong(): LongValue;
  readVarIntBytes(): Buffer | null;
}
interface LongValue {
  add(other: LongValue | number): LongValue;
  toString(): string;
}
interface LongStatic {
  fromValue(value: string | number | LongValue): LongValue;
}
interface BatchContext {
  firstOffset?: string;
  firstTimestamp?: string;
  magicByte?: number;
  isControlBatch?: boolean;
  timestampType?: number;
  maxTimestamp?: string;
}
type Headers = Record<string, Buffer | null | Array<Buffer | null>>;

const RECORD_DECODER = 'kafkajs/src/protocol/recordBatch/record/v0/decoder.js';
const BATCH_DECODER = 'kafkajs/src/protocol/recordBatch/v0/decoder.js';
const LONG = 'kafkajs/src/utils/long.js';
const TIMESTAMP_TYPES = 'kafkajs/src/protocol/timestampTypes.js';
const FAST = Symbol.for('platform.kafkajs.record-decoder');

/** A decimal string of at most 15 digits is exact as a double, and so is its sum with a 32-bit delta. */
const EXACT_DIGITS = 15;
/** A zig-zag varint of at most 7 bytes holds 49 bits: exact as a double. */
const EXACT_VARINT_BYTES = 7;
/** Header keys remembered by their position in a record: producers send the same keys in the same order. */
const KNOWN_KEYS = 32;
const KNOWN_KEY_BYTES = 64;

/**
 * Reads one record of a record batch exactly as kafkajs 2.2.4 does (the same object, the same strings and
 * buffers), without what makes its reader cost ~8 µs a record with a handful of headers:
 * - the headers are folded into an object by spreading it once per header (quadratic, and each step a new
 *   dictionary object for the collector);
 * - every header key is a new buffer and a new string, though producers send the same few keys every time;
 * - offset and timestamp are parsed from their decimal strings into 64-bit `Long`s, summed and printed again,
 *   and the timestamp delta is read a byte at a time into `Long`s.
 * Offsets and timestamps that fit a double exactly (every one short of 10^15) are summed as numbers; larger
 * ones take kafkajs's own `Long` path, so the answer is the same string either way.
 */
export function createRecordDecoder(Long: LongStatic, logAppendTime: number) {
  const known: Array<{ bytes: Buffer; text: string } | undefined> = [];

  const plus = (base: string, delta: number) =>
    base.length <= EXACT_DIGITS ? String(Number(base) + delta) : Long.fromValue(base).add(delta).toString();

  /** The zig-zag varlong as a number when it is short enough to be exact; null leaves the decoder where it was. */
  function varLongNumber(decoder: Decoder): number | null {
    const { buffer } = decoder;
    let at = decoder.offset;
    let unsigned = 0;
    let scale = 1;
    for (let i = 0; i < EXACT_VARINT_BYTES && at < buffer.length; i++) {
      const byte = buffer[at++]!;
      unsigned += (byte & 0x7f) * scale;
      if (byte < 0x80) {
        decoder.offset = at;
        return unsigned % 2 === 0 ? unsigned / 2 : -(unsigned + 1) / 2;
      }
      scale *= 128;
    }
    return null;
  }

  function headerKey(decoder: Decoder, position: number): string {
    const length = decoder.readVarInt();
    // kafkajs reads a null key (-1) as null, which becomes the property "null".
    if (length < 0) return 'null';
    const { buffer } = decoder;
    const start = decoder.offset;
    decoder.offset += length;
    const seen = known[position];
    if (seen !== undefined && seen.bytes.length === length) {
      let i = 0;
      while (i < length && seen.bytes[i] === buffer[start + i]) i++;
      if (i === length) return seen.text;
    }
    const text = buffer.toString('utf8', start, start + length);
    if (position < KNOWN_KEYS && length <= KNOWN_KEY_BYTES)
      known[position] = { bytes: Buffer.from(buffer.subarray(start, start + length)), text };
    return text;
  }

  return function decodeRecord(decoder: Decoder, batchContext: BatchContext = {}) {
    const {
      firstOffset = '0',
      firstTimestamp = '0',
      magicByte,
      isControlBatch = false,
      timestampType,
      maxTimestamp,
    } = batchContext;
    const attributes = decoder.readInt8();
    const delta = varLongNumber(decoder) ?? decoder.readVarLong();
    const timestamp =
      timestampType === logAppendTime && maxTimestamp
        ? maxTimestamp
        : typeof delta === 'number'
          ? plus(firstTimestamp, delta)
          : Long.fromValue(firstTimestamp).add(delta).toString();
    const offset = plus(firstOffset, decoder.readVarInt());
    const key = decoder.readVarIntBytes();
    const value = decoder.readVarIntBytes();
    const count = decoder.readVarInt();
    const headers: Headers = {};
    for (let i = 0; i < count; i++) {
      const name = headerKey(decoder, i);
      const next = decoder.readVarIntBytes();
      const prior = Object.hasOwn(headers, name) ? headers[name] : undefined;
      const merged = prior === undefined ? next : Array.isArray(prior) ? [...prior, next] : [prior, next];
      // Defined, not assigned: a header named "__proto__" is an own property, as in kafkajs's object literal.
      if (name === '__proto__')
        Object.defineProperty(headers, name, { value: merged, enumerable: true, writable: true, configurable: true });
      else headers[name] = merged;
    }
    return {
      magicByte,
      attributes,
      timestamp,
      offset,
      key,
      value,
      headers,
      isControlRecord: isControlBatch,
      batchContext,
    };
  };
}

/**
 * Puts {@link createRecordDecoder} in the place of kafkajs's record reader, for every consumer of this process
 * (ADR 0028). kafkajs loads its record batch reader, the one module that requires the record reader, on the
 * first fetch: this must run before any consumer has fetched (client creation does it). Idempotent; false when
 * it cannot be applied (another kafkajs, or a batch already read with kafkajs's own reader).
 */
export function useFastRecordDecoder(): boolean {
  const require = createRequire(import.meta.url);
  const recordPath = require.resolve(RECORD_DECODER);
  const cached = require.cache[recordPath];
  if ((cached?.exports as { [FAST]?: true } | undefined)?.[FAST]) return true;
  if (cached !== undefined || require.cache[require.resolve(BATCH_DECODER)] !== undefined) return false;
  const Long = require(LONG) as LongStatic;
  const { LOG_APPEND_TIME } = require(TIMESTAMP_TYPES) as { LOG_APPEND_TIME?: number };
  if (typeof Long.fromValue !== 'function' || typeof LOG_APPEND_TIME !== 'number') return false;
  const replacement = new Module(recordPath);
  replacement.filename = recordPath;
  replacement.loaded = true;
  replacement.exports = Object.assign(createRecordDecoder(Long, LOG_APPEND_TIME), { [FAST]: true as const });
  require.cache[recordPath] = replacement;
  return true;
}
