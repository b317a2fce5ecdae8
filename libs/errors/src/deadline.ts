import { DeadlineExceededError } from './errors.js';

/**
 * Settles as `work` does, or rejects with a DeadlineExceededError after `ms`: the caller stops waiting (the
 * work itself is not cancelled, and may still land).
 */
export function withDeadline<T>(work: Promise<T>, ms: number, what = 'the operation'): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new DeadlineExceededError('deadline_exceeded', `${what} timed out after ${ms} ms`)),
        ms,
      );
    }),
  ]).finally(() => clearTimeout(timer));
}
