import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { testRunConfig } from './config.js';

/**
 * Unique topic prefixes, group ids and database names per test, so suites never see each other's data. Inside a
 * test run (`PLATFORM_TEST_RUN`, set by the runner's global setup) a name ends with the run's tag, so that the
 * run removes what it made when it ends, and nothing of a run going on beside it.
 */
export function uniqueName(prefix: string): string {
  const { run } = testRunConfig.get();
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}${run === undefined ? '' : `_${run}`}`;
}

/** A new test run's tag for `PLATFORM_TEST_RUN`. */
export function newTestRunTag(): string {
  return randomBytes(3).toString('hex');
}

/** When `uniqueName` made `name` (epoch milliseconds) and in which test run, or undefined for a name it did not make. */
export function parseUniqueName(name: string): { time: number; run: string | undefined } | undefined {
  const match = /^[a-z0-9]+_([0-9a-z]{6,10})_[0-9a-f]{6}(?:_([0-9a-f]{6}))?$/.exec(name);
  return match ? { time: parseInt(match[1]!, 36), run: match[2] } : undefined;
}

/**
 * Polls until `check` returns a value (not undefined/false) or throws on timeout with the last error.
 * `failFast` is polled too: a crashed consumer or process ends the wait at once instead of at the timeout.
 */
export async function waitFor<T>(
  check: () => Promise<T | undefined | false> | T | undefined | false,
  options: { timeoutMs?: number; intervalMs?: number; what?: string; failFast?: () => string | undefined } = {},
): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? 20_000);
  let lastError: unknown;
  for (;;) {
    const fatal = options.failFast?.();
    if (fatal) throw new Error(`${options.what ?? 'condition'}: ${fatal}`);
    try {
      const value = await check();
      if (value !== undefined && value !== false) return value;
    } catch (error) {
      lastError = error;
    }
    if (Date.now() > deadline) {
      throw new Error(
        `timed out waiting for ${options.what ?? 'condition'}${lastError ? `: ${String(lastError)}` : ''}`,
      );
    }
    await sleep(options.intervalMs ?? 50);
  }
}
