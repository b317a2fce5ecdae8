import { HelperThread } from './helper-thread.js';
import { SSIM_KERNEL_SOURCE, meanSsimAgainst, type LumaPlane, type SsimReference } from './ssim.js';

const SOURCE = `
const { parentPort } = require('node:worker_threads');
${SSIM_KERNEL_SOURCE}
const references = new Map();
parentPort.on('message', (message) => {
  if (message.op === 'adopt') return void references.set(message.key, message.reference);
  if (message.op === 'release') return void references.delete(message.key);
  const reference = references.get(message.key);
  try {
    if (!reference) throw new Error('unknown reference');
    parentPort.postMessage({ id: message.id, out: meanSsimAgainst(reference, message.plane) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: String(error) });
  }
});`;

/** One SSIM thread per process, started on first use. */
const thread = new HelperThread(SOURCE);

/** A reference kept on the SSIM thread, against which candidates are measured there. */
export interface SsimOnThread {
  /** Mean SSIM of `plane` against the reference (meanSsimAgainst), on the thread; here when the thread fails. */
  measure(plane: LumaPlane): Promise<number>;
  /** Frees the thread's copy. */
  release(): void;
}

let nextKey = 1;
let fallbacks = 0;

/** How many measurements were made here because the thread failed or no longer held the reference. */
export const measuredHere = () => fallbacks;

/**
 * Copies `reference` to the SSIM thread. The values measured there are those measured here, bit for bit: the same
 * code (SSIM_KERNEL_SOURCE) on the same Float32 planes.
 */
export function adoptOnThread(reference: SsimReference): SsimOnThread {
  const key = nextKey++;
  const here = (plane: LumaPlane) => {
    fallbacks++;
    return meanSsimAgainst(reference, plane);
  };
  let generation: number;
  try {
    generation = thread.post({ op: 'adopt', key, reference });
  } catch {
    // No thread could be started (a resource limit): everything is measured here.
    return { measure: async (plane) => here(plane), release: () => undefined };
  }
  return {
    // Copied, not transferred: the plane stays here for the fallback.
    measure: (plane) => thread.call<number>({ op: 'measure', key, plane }).catch(() => here(plane)),
    release: () => thread.postTo(generation, { op: 'release', key }),
  };
}
