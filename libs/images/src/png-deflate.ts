import { createRequire } from 'node:module';
import { crc32, inflateSync } from 'node:zlib';
import { HelperThread } from './helper-thread.js';

/**
 * Recompresses a PNG's image data with Zopfli (the same deflate stream format, 5–15 % smaller than zlib's level 9
 * on palette images), keeping every other chunk as it is. Zopfli is slow, so it runs in a worker thread, off the
 * event loop, and only on images whose scanlines fit `maxRawBytes`: the icons, logos and clip art where a few
 * hundred bytes are a large share, and where its time (about 1 µs per byte of scanlines without block splitting)
 * stays within a few hundred milliseconds (0.13 MP at most).
 */
export const PNG_ZOPFLI = {
  maxRawBytes: 128 * 1024,
  /**
   * Only image data that zlib already shrinks to this share of its size: flat images, where Zopfli is fast and
   * gains most. On noise-like data (a dithered photo) it gains little and runs 20 times slower per byte.
   */
  maxDeflateRatio: 0.3,
  iterations: 1,
  /**
   * Block splitting gave a further 1–4 % on clip art at 3–10 times the time (0.3–2.4 s for 0.1–0.26 MP): one
   * deflate block, one iteration keep most of Zopfli's gain at a tenth of a second per 100 KB of scanlines.
   */
  blockSplitting: false,
  /** A recompression that takes longer is abandoned and the PNG kept as it was. */
  timeoutMs: 5_000,
} as const;

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { zlibAsync } = require(workerData.zopfli);
parentPort.on('message', ({ id, raw, iterations, blockSplitting }) => {
  zlibAsync(raw, { numiterations: iterations, blocksplitting: blockSplitting, blocksplittingmax: 15 }).then(
    (out) => parentPort.postMessage({ id, out }),
    (error) => parentPort.postMessage({ id, error: String(error) }),
  );
});`;

/** One Zopfli thread per process, started on first use. */
const zopfli = new HelperThread(WORKER_SOURCE, { zopfli: createRequire(import.meta.url).resolve('@gfx/zopfli') });

/** The zlib stream of `raw`, or undefined when the thread fails or takes longer than the timeout. */
function zopfliDeflate(raw: Buffer, timeoutMs: number): Promise<Uint8Array | undefined> {
  return zopfli
    .call<Uint8Array>({ raw, iterations: PNG_ZOPFLI.iterations, blockSplitting: PNG_ZOPFLI.blockSplitting }, timeoutMs)
    .catch(() => undefined);
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface Chunk {
  type: string;
  data: Buffer;
}

function chunksOf(png: Buffer): Chunk[] | undefined {
  if (png.length < SIGNATURE.length || !png.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return undefined;
  const chunks: Chunk[] = [];
  for (let at = SIGNATURE.length; at + 12 <= png.length;) {
    const length = png.readUInt32BE(at);
    if (at + 12 + length > png.length) return undefined;
    chunks.push({ type: png.toString('latin1', at + 4, at + 8), data: png.subarray(at + 8, at + 8 + length) });
    at += 12 + length;
  }
  return chunks;
}

function chunk(type: string, data: Uint8Array): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const tail = Buffer.alloc(4);
  tail.writeUInt32BE(crc32(data, crc32(head.subarray(4))) >>> 0, 0);
  return Buffer.concat([head, data, tail]);
}

/** The PNG with its IDAT data deflated by Zopfli, or the input when that is not smaller (or too large, or too slow). */
export async function recompressPng(png: Buffer, timeoutMs: number = PNG_ZOPFLI.timeoutMs): Promise<Buffer> {
  const chunks = chunksOf(png);
  if (!chunks) return png;
  const idat = chunks.filter((c) => c.type === 'IDAT');
  if (idat.length === 0) return png;
  const compressed = Buffer.concat(idat.map((c) => c.data));
  const raw = inflateSync(compressed);
  if (raw.length > PNG_ZOPFLI.maxRawBytes || compressed.length > raw.length * PNG_ZOPFLI.maxDeflateRatio) return png;
  const deflated = await zopfliDeflate(raw, timeoutMs);
  if (!deflated || deflated.length >= compressed.length) return png;
  const parts: Buffer[] = [SIGNATURE];
  let written = false;
  for (const c of chunks) {
    if (c.type !== 'IDAT') parts.push(chunk(c.type, c.data));
    else if (!written) {
      parts.push(chunk('IDAT', deflated));
      written = true;
    }
  }
  return Buffer.concat(parts);
}
