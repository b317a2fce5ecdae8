import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { compressImage } from '@platform/images';
import { Pool } from 'undici';
import { pipeThrough, timed } from './child-process.js';
import { ensureCorpus } from './image-corpus.js';
import { withImagesPlatform } from './images-platform.js';
import { quantile } from './stats.js';

/**
 * PNG through `POST /shrink` next to pngquant --quality=65-80 on the same images in the same run: what a client
 * waits for, from the start of its upload to the last byte of the downloaded output (images-gateway -> Kafka ->
 * image-worker -> Redis reply, real processes, one image at a time), against pngquant on the same bytes (a child
 * process, stdin to stdout). The same encode called in this process is timed beside them, so the platform's share
 * shows. Each image is run BENCH_PNG_TIMING_RUNS times in turns, and each way keeps its median: one run of each on
 * a shared machine can be off by a fifth. Every run of an image is sent by another account, so that none is
 * answered from an earlier identical upload.
 */

const root = path.resolve(import.meta.dirname, '../..');
const limits = { maxPixels: 100_000_000 };
const RUNS = Number(process.env['BENCH_PNG_TIMING_RUNS'] ?? 3);
const LARGE_BYTES = 100_000;
const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
const median = (values: number[]) => quantile(values, 0.5);

interface ImageTiming {
  id: string;
  kind: string;
  input_bytes: number;
  output_bytes: { shrink: number; pngquant_65_80: number };
  /** Medians of the runs, wall time in ms. */
  shrink_ms: number;
  in_process_ms: number;
  pngquant_65_80_ms: number;
  ratio_to_pngquant: number;
  runs: { shrink_ms: number[]; in_process_ms: number[]; pngquant_65_80_ms: number[] };
}

function bySize(images: ImageTiming[], large: boolean) {
  const of = images.filter((i) => i.input_bytes >= LARGE_BYTES === large);
  const med = (f: (i: ImageTiming) => number) => round(median(of.map(f)));
  const stats = {
    images: of.length,
    median_ms: {
      shrink: med((i) => i.shrink_ms),
      in_process: med((i) => i.in_process_ms),
      pngquant_65_80: med((i) => i.pngquant_65_80_ms),
    },
    medians_ratio: round(median(of.map((i) => i.shrink_ms)) / median(of.map((i) => i.pngquant_65_80_ms)), 2),
    median_of_ratios: round(median(of.map((i) => i.ratio_to_pngquant)), 2),
    median_ms_over_pngquant: med((i) => i.shrink_ms - i.pngquant_65_80_ms),
    median_platform_ms: med((i) => i.shrink_ms - i.in_process_ms),
  };
  return large
    ? {
        ...stats,
        target: 'median time through /shrink at most 2 x pngquant --quality=65-80 (medians of the class)',
        target_met: stats.median_ms.shrink <= 2 * stats.median_ms.pngquant_65_80,
      }
    : {
        ...stats,
        target: 'median time through /shrink at most pngquant --quality=65-80 + 300 ms',
        target_met: stats.median_ms.shrink <= stats.median_ms.pngquant_65_80 + 300,
      };
}

async function main() {
  const { dir, manifest } = await ensureCorpus();
  const only = process.env['BENCH_IMAGE_IDS']?.split(',');
  const entries = manifest.entries.filter((e) => e.file.endsWith('.png') && (!only || only.includes(e.id)));
  const images: ImageTiming[] = await withImagesPlatform(1, async ({ baseUrl, newAccount }) => {
    const accounts = await Promise.all(Array.from({ length: RUNS }, () => newAccount()));
    const pool = new Pool(baseUrl, { connections: 1 });
    const shrink = async (input: Buffer, authorization: string) => {
      const response = await pool.request({
        method: 'POST',
        path: '/shrink',
        headers: { authorization, 'content-type': 'image/png' },
        body: input,
        headersTimeout: 120_000,
        bodyTimeout: 120_000,
      });
      const answer = (await response.body.json()) as { output?: { url: string } };
      if (response.statusCode !== 201 || !answer.output) throw new Error(`/shrink answered ${response.statusCode}`);
      const download = await pool.request({
        method: 'GET',
        path: new URL(answer.output.url).pathname,
        headers: { authorization },
      });
      const output = Buffer.from(await download.body.arrayBuffer());
      if (download.statusCode !== 200) throw new Error(`GET output answered ${download.statusCode}`);
      return output;
    };
    const results: ImageTiming[] = [];
    for (const entry of entries) {
      const input = readFileSync(path.join(dir, entry.file));
      const runs = { shrink_ms: [] as number[], in_process_ms: [] as number[], pngquant_65_80_ms: [] as number[] };
      let outputs = { shrink: 0, pngquant_65_80: 0 };
      for (let r = 0; r < RUNS; r++) {
        const ours = await timed(() => shrink(input, accounts[r]!));
        const inProcess = await timed(() => compressImage(input, limits));
        const pngquant = await timed(() => pipeThrough('pngquant', ['--quality=65-80', '--strip', '-'], input));
        runs.shrink_ms.push(round(ours.ms));
        runs.in_process_ms.push(round(inProcess.ms));
        runs.pngquant_65_80_ms.push(round(pngquant.ms));
        outputs = { shrink: ours.value.length, pngquant_65_80: pngquant.value.length };
      }
      const timing: ImageTiming = {
        id: entry.id,
        kind: entry.kind,
        input_bytes: input.length,
        output_bytes: outputs,
        shrink_ms: round(median(runs.shrink_ms)),
        in_process_ms: round(median(runs.in_process_ms)),
        pngquant_65_80_ms: round(median(runs.pngquant_65_80_ms)),
        ratio_to_pngquant: round(median(runs.shrink_ms) / Math.max(median(runs.pngquant_65_80_ms), 1), 2),
        runs,
      };
      console.error(
        `${entry.id.padEnd(28)} ${String(input.length).padStart(8)} B  /shrink ${timing.shrink_ms} ms  in process ${timing.in_process_ms} ms  pngquant ${timing.pngquant_65_80_ms} ms  ${timing.ratio_to_pngquant}x`,
      );
      results.push(timing);
    }
    await pool.close();
    return results;
  });
  const result = {
    benchmark: 'png-shrink',
    description:
      'Each PNG of the image corpus through POST /shrink (upload to downloaded output; images-gateway -> Kafka -> one image-worker -> Redis reply, real processes, one image at a time) next to pngquant --quality=65-80 --strip on the same bytes (child process) and the same encode in this process, in turns, same run; medians of the runs.',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
    settings: { runs_per_image: RUNS, large_from_bytes: LARGE_BYTES },
    summary: { over_100kb: bySize(images, true), under_100kb: bySize(images, false) },
    images,
  };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/png-shrink.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result.summary, null, 2));
}

await main();
