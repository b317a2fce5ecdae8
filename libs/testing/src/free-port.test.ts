import { describe, expect, it } from 'vitest';
import { freePort } from './free-port.js';

describe('freePort', () => {
  it('never hands out a port twice, though nothing has bound the earlier ones yet', async () => {
    const ports: number[] = [];
    for (let i = 0; i < 300; i++) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
  });
});
