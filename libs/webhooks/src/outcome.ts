import { parseRetryAfter } from './retry-schedule.js';

export type AttemptResult =
  | { kind: 'response'; status: number; retryAfter?: string | undefined }
  | { kind: 'error'; error: string; blocked?: boolean };

export type Decision =
  | { action: 'delivered' }
  | { action: 'retry'; notBeforeMs?: number }
  /** The target said it is gone (410): stop sending to it. */
  | { action: 'disable_target' }
  /** Retrying cannot help (the target resolves to a forbidden address). */
  | { action: 'give_up' };

/** 2xx succeeds; redirects are failures (never followed); 429/503 honour Retry-After; the rest retries. */
export function decide(result: AttemptResult, now = Date.now()): Decision {
  if (result.kind === 'error') return result.blocked ? { action: 'give_up' } : { action: 'retry' };
  const { status } = result;
  if (status >= 200 && status < 300) return { action: 'delivered' };
  if (status === 410) return { action: 'disable_target' };
  if (status === 429 || status === 503) {
    const wait = parseRetryAfter(result.retryAfter, now);
    return wait === undefined ? { action: 'retry' } : { action: 'retry', notBeforeMs: wait };
  }
  return { action: 'retry' };
}
