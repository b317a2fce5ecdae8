import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { createRecordDecoder, useFastRecordDecoder } from './record-decoder.js';

const require = createRequire(import.meta.url);
interface KafkaDecoder {
  buffer: Buffer;
  offset: number;
  readInt8(): number;
  readVarInt(): number;
  readVarLong(): unknown;
  readVarIntBytes(): Buffer | null;
}
type Decode = (decoder: KafkaDecoder, context?: object) => Record<string, unknown>;
const Decoder = require('kafkajs/src/protocol/decoder.js') as new (buffer: Buffer) => KafkaDecoder;
const Long = require('kafkajs/src/utils/long.js') as Parameters<typeof createRecordDecoder>[0];
const { RecordBatch } = require('kafkajs/src/protocol/recordBatch/v0/index.js') as {
  RecordBatch(options: object): Promise<{ buffer: Buffer }>;
};
const Record = require('kafkajs/src/protocol/recordBatch/record/v0/index.js') as (record: object) => { buffer: Buffer };

// kafkajs's own record reader, taken before the fast one replaces it (nothing in this file has fetched).
const recordPath = require.resolve('kafkajs/src/protocol/recordBatch/record/v0/decoder.js');
const stock = require(recordPath) as Decode;
delete require.cache[recordPath];

type RecordSpec = {
  offsetDelta: number;
  timestampDelta: number;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Record<string, Buffer | null | Array<Buffer | null>>;
};
const body = (record: RecordSpec) => new Decoder(Record(record).buffer).readVarIntBytes()!;
const context = (overrides: object = {}) => ({
  firstOffset: '1234',
  firstTimestamp: '1795750000000',
  magicByte: 2,
  isControlBatch: false,
  timestampType: 0,
  maxTimestamp: '1795750009999',
  ...overrides,
});

const records: RecordSpec[] = [
  {
    offsetDelta: 0,
    timestampDelta: 0,
    key: Buffer.from('k'),
    value: Buffer.from('v'),
    headers: { ce_id: Buffer.from('a:1'), ce_type: Buffer.from('ShortlinkClicked') },
  },
  // The same keys in another order, and keys of the same length that differ: the remembered keys must not answer.
  {
    offsetDelta: 1,
    timestampDelta: 5,
    key: null,
    value: Buffer.alloc(0),
    headers: { ce_type: Buffer.from('x'), ce_id: Buffer.from('a:2'), ce_ix: Buffer.from('y') },
  },
  {
    offsetDelta: 2,
    timestampDelta: -7,
    key: Buffer.from('k'),
    value: null,
    headers: { dup: [Buffer.from('1'), Buffer.from('2'), Buffer.from('3')], ключ: Buffer.from('ü') },
  },
  { offsetDelta: 3, timestampDelta: 2 ** 40, key: null, value: Buffer.from('big delta'), headers: {} },
  { offsetDelta: 4, timestampDelta: 2 ** 60, key: null, value: Buffer.from('delta past 2^53: read as a Long') },
  { offsetDelta: 2 ** 30, timestampDelta: -(2 ** 50), key: null, value: Buffer.from('negative, past 7 bytes') },
];

describe('the fast kafkajs record reader', () => {
  const fast = createRecordDecoder(Long, 1) as unknown as Decode;

  it.each([
    ['small offsets', context()],
    [
      'offsets and timestamps past 2^53',
      context({ firstOffset: '1152921504606846976', firstTimestamp: '9007199254740993' }),
    ],
    ['negative timestamps', context({ firstTimestamp: '-1' })],
    ['log-append time', context({ timestampType: 1 })],
    ['a control batch', context({ isControlBatch: true })],
  ])('reads every record as kafkajs does: %s', (_, batchContext) => {
    for (const record of records) {
      const expected = stock(new Decoder(body(record)), batchContext);
      const actual = fast(new Decoder(body(record)), batchContext);
      expect(actual).toEqual(expected);
      expect(Object.keys(actual['headers'] as object)).toEqual(Object.keys(expected['headers'] as object));
    }
  });

  it('keeps a header named __proto__ as an own header, as kafkajs does, without touching the prototype', () => {
    // JSON.parse makes "__proto__" an own member, as a producer's header would be.
    const record = {
      offsetDelta: 0,
      timestampDelta: 0,
      key: null,
      value: null,
      headers: JSON.parse('{"__proto__": "p", "ok": "1"}') as RecordSpec['headers'],
    };
    const actual = fast(new Decoder(body(record)), context())['headers'] as Record<string, Buffer>;
    expect(Object.getPrototypeOf(actual)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(actual, '__proto__')?.value).toEqual(Buffer.from('p'));
    expect(actual['ok']).toEqual(Buffer.from('1'));
  });

  it('reads a header named like a member of Object.prototype as that header (kafkajs made it an array with the member)', () => {
    const record = {
      offsetDelta: 0,
      timestampDelta: 0,
      key: null,
      value: null,
      headers: { toString: Buffer.from('t') },
    };
    expect((fast(new Decoder(body(record)), context())['headers'] as Record<string, unknown>)['toString']).toEqual(
      Buffer.from('t'),
    );
    expect((stock(new Decoder(body(record)), context())['headers'] as Record<string, unknown>)['toString']).toEqual([
      Object.prototype.toString,
      Buffer.from('t'),
    ]);
  });

  it('takes the place of kafkajs’s reader for the record batches read after it, once', async () => {
    expect(useFastRecordDecoder()).toBe(true);
    expect(useFastRecordDecoder()).toBe(true);
    const decodeBatch = require('kafkajs/src/protocol/recordBatch/v0/decoder.js') as (
      decoder: KafkaDecoder,
    ) => Promise<{ records: Array<Record<string, unknown>> }>;
    const encoded = await RecordBatch({
      firstOffset: Long.fromValue(41),
      firstTimestamp: 1795750000000,
      lastOffsetDelta: records.length - 1,
      records: records.map(Record),
    });
    const { records: read } = await decodeBatch(new Decoder(encoded.buffer));
    expect(read.map((r) => r['offset'])).toEqual(records.map((r) => String(41 + r.offsetDelta)));
    const batchContext = read[0]!['batchContext'] as object;
    expect(read).toEqual(records.map((r) => stock(new Decoder(body(r)), batchContext)));
    expect(require(recordPath)).not.toBe(stock);
  });
});
