import { parentPort } from 'node:worker_threads';
import { ssim } from 'ssim.js';

export interface SsimJob {
  id: number;
  a: { data: Uint8ClampedArray; width: number; height: number };
  b: { data: Uint8ClampedArray; width: number; height: number };
}

// ssim.js's "fast" algorithm: the reference (Wang et al.) Gaussian-window SSIM, same values, faster.
parentPort?.on('message', (job: SsimJob) => {
  const { mssim } = ssim(job.a, job.b, { downsample: false, ssim: 'fast' });
  parentPort?.postMessage({ id: job.id, mssim });
});
