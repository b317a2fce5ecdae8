import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import type { SsimJob } from './ssim-worker.js';

const run = promisify(execFile);

type Pixels = SsimJob['a'];

/** SSIM in worker threads, one per core: ssim.js is synchronous and takes seconds on a 4 MP pair. */
export function createSsimPool(size: number) {
  const workers = Array.from({ length: size }, () => new Worker(new URL('./ssim-worker.js', import.meta.url)));
  const idle = [...workers];
  const waiting: Array<() => void> = [];
  let nextId = 0;
  const acquire = async (): Promise<Worker> => {
    while (idle.length === 0) await new Promise<void>((resolve) => waiting.push(resolve));
    return idle.pop()!;
  };
  return {
    async ssim(a: Pixels, b: Pixels): Promise<number> {
      const worker = await acquire();
      try {
        const id = nextId++;
        return await new Promise<number>((resolve, reject) => {
          const onMessage = (message: { id: number; mssim: number }) => {
            if (message.id !== id) return;
            worker.off('message', onMessage);
            worker.off('error', reject);
            resolve(message.mssim);
          };
          worker.on('message', onMessage);
          worker.once('error', reject);
          worker.postMessage({ id, a, b } satisfies SsimJob);
        });
      } finally {
        idle.push(worker);
        waiting.shift()?.();
      }
    },
    async close() {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

export type SsimPool = ReturnType<typeof createSsimPool>;

export interface PerceptualScore {
  /** Mean SSIM of the luma at full resolution (ssim.js Gaussian window, no automatic downsampling); 1 is identical. */
  ssim: number;
  /** dssim's multi-scale structural dissimilarity in L*a*b* with alpha (1/SSIM − 1); 0 is identical. */
  dssim: number;
}

async function pixels(image: Buffer, background: string | undefined): Promise<Pixels> {
  const pipeline = background ? sharp(image).flatten({ background }) : sharp(image);
  const { data, info } = await pipeline.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/**
 * Scores each candidate against the reference. With transparency, SSIM is taken over white and over black
 * (the lower counts), so a change hidden by one background shows on the other; dssim blends alpha itself.
 */
export async function perceptualScores(
  pool: SsimPool,
  dssimBin: string,
  reference: Buffer,
  candidates: Buffer[],
  hasAlpha: boolean,
): Promise<PerceptualScore[]> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-dssim-'));
  try {
    const files: string[] = [];
    const write = async (name: string, image: Buffer) => {
      const file = path.join(dir, name);
      writeFileSync(file, await sharp(image).png({ compressionLevel: 1 }).toBuffer());
      return file;
    };
    const referenceFile = await write('reference.png', reference);
    for (const [i, candidate] of candidates.entries()) files.push(await write(`candidate-${i}.png`, candidate));
    const dssim = run(dssimBin, [referenceFile, ...files], { maxBuffer: 1024 * 1024 });
    dssim.catch(() => undefined); // awaited below; this only keeps an early failure from counting as unhandled
    const backgrounds = hasAlpha ? ['#ffffff', '#000000'] : [undefined];
    const references = await Promise.all(backgrounds.map((bg) => pixels(reference, bg)));
    const ssims = await Promise.all(
      candidates.map(async (candidate) => {
        const perBackground = await Promise.all(
          backgrounds.map(async (bg, b) => pool.ssim(references[b]!, await pixels(candidate, bg))),
        );
        return Math.min(...perBackground);
      }),
    );
    const dssims = (await dssim).stdout
      .trim()
      .split('\n')
      .map((line) => Number(line.split('\t')[0]));
    const scores = ssims.map((ssim, i) => ({ ssim, dssim: dssims[i] ?? NaN }));
    return scores;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
