import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { compressImage } from '@platform/images';
import { Pool } from 'undici';
import { ensureCorpus } from './image-corpus.js';
import { withImagesPlatform } from './images-platform.js';
import { summarise, type LatencyStats } from './stats.js';

/**
 * Image throughput and latency: POST /shrink through images-gateway -> Kafka -> image-worker(s) -> Redis
 * reply, all real processes, next to calling the same pipeline (compressImage) in this process; same images,
 * same concurrency, same run. 1 and 2 workers.
 */

const root = path.resolve(import.meta.dirname, '../..');
const total = Number(process.env['BENCH_IMAGES'] ?? 40);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 4);
const warmup = 4;
const limits = { maxPixels: 100_000_000 };
const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits;
/** A mix of what users send: photos, screenshots, logos, AVIF. */
const KINDS = new Set(['photo', 'screenshot', 'logo', 'avif']);

/**
 * `concurrency` loops each handle one image at a time until `total` are done; latency per image. `sequence` counts
 * every request, warm-up included: the images repeat every `images.length` of them.
 */
async function closedLoop(
  images: Buffer[],
  one: (image: Buffer, sequence: number) => Promise<boolean>,
): Promise<LatencyStats> {
  for (let i = 0; i < warmup; i++) await one(images[i % images.length]!, i);
  let next = 0;
  let errors = 0;
  const latencies: number[] = [];
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const sequence = warmup + next++;
        const image = images[sequence % images.length]!;
        const started = performance.now();
        const ok = await one(image, sequence).catch(() => false);
        if (ok) latencies.push(performance.now() - started);
        else errors++;
      }
    }),
  );
  return summarise(latencies, errors, (performance.now() - began) / 1000);
}

async function platform(workers: number, images: Buffer[]) {
  return withImagesPlatform(workers, async ({ baseUrl, newAccount }) => {
    // An account sends each image once: a repeat would be answered from its earlier output, not compressed.
    const rounds = Math.ceil((warmup + total) / images.length);
    const accounts = await Promise.all(Array.from({ length: rounds }, () => newAccount()));
    const pool = new Pool(baseUrl, { connections: concurrency });
    let larger = 0;
    const shrink = async (image: Buffer, sequence: number) => {
      const authorization = accounts[Math.floor(sequence / images.length)]!;
      const response = await pool.request({
        method: 'POST',
        path: '/shrink',
        headers: { authorization, 'content-type': 'application/octet-stream' },
        body: image,
        headersTimeout: 120_000,
        bodyTimeout: 120_000,
      });
      const body = (await response.body.json()) as { output?: { size: number } };
      if ((body.output?.size ?? 0) > image.length) larger++;
      return response.statusCode === 201;
    };
    const stats = await closedLoop(images, shrink);
    await pool.close();
    return { ...stats, outputs_larger_than_input: larger };
  });
}

async function main() {
  const { dir, manifest } = await ensureCorpus();
  const entries = manifest.entries.filter((e) => KINDS.has(e.kind));
  const images = entries.map((e) => readFileSync(path.join(dir, e.file)));
  const megapixels: number[] = [];
  for (const image of images) {
    const { input } = await compressImage(image, limits);
    megapixels.push((input.width * input.height) / 1e6);
  }

  const inProcess = await closedLoop(
    images,
    async (image) => (await compressImage(image, limits)).output.data.length <= image.length,
  );
  const runs: Record<string, Awaited<ReturnType<typeof platform>>> = {};
  for (const workers of [1, 2]) runs[`workers_${workers}`] = await platform(workers, images);

  const ratio = (p: LatencyStats) => ({
    p50: round(p.p50_ms / inProcess.p50_ms),
    p99: round(p.p99_ms / inProcess.p99_ms),
    throughput: round(inProcess.requests_per_second / p.requests_per_second),
    overhead_ms_per_image_p50: round(p.p50_ms - inProcess.p50_ms, 1),
  });
  const result = {
    benchmark: 'image-throughput',
    description:
      'POST /shrink (raw body) through images-gateway -> Kafka -> image-worker -> Redis reply, real processes, next to compressImage called in the bench process on the same images with the same concurrency, same run.',
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
    load: {
      images_per_run: total,
      concurrency,
      warmup,
      corpus_images: entries.map((e, i) => ({
        id: e.id,
        kind: e.kind,
        bytes: images[i]!.length,
        megapixels: round(megapixels[i]!),
      })),
      worker_partitions_concurrency: 2,
    },
    in_process: inProcess,
    platform: runs,
    ratio: Object.fromEntries(Object.entries(runs).map(([k, v]) => [k, ratio(v)])),
    scaling_2_over_1_workers: round(runs['workers_2']!.requests_per_second / runs['workers_1']!.requests_per_second),
  };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/image-throughput.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await main();
