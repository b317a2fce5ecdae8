import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from './lazy-logger.js';

describe('lazyChildLogger', () => {
  it('makes the child only when something logs, with the request bindings, once', () => {
    const made: Array<{ bindings: object; lines: unknown[][] }> = [];
    const parent = {
      level: 'info',
      child(bindings: object) {
        const child = { bindings, lines: [] as unknown[][] };
        made.push(child);
        return {
          level: 'info',
          error: (...args: unknown[]) => child.lines.push(args),
          warn: (...args: unknown[]) => child.lines.push(args),
        };
      },
    } as unknown as FastifyBaseLogger;
    const log = lazyChildLogger(parent, { reqId: 'r-1' }, {});
    expect(log.level).toBe('info');
    expect(made).toHaveLength(0);
    log.error({ err: new Error('x') }, 'request failed');
    log.warn('again');
    expect(made).toEqual([
      { bindings: { reqId: 'r-1' }, lines: [[{ err: new Error('x') }, 'request failed'], ['again']] },
    ]);
  });
});
