import { describe, expect, it } from 'vitest';
import { parseOutputOptions } from './options.js';
import { outputOptionsOf, renderOptionsRecord } from './render-options.js';

describe('render options record', () => {
  it('carries validated options through the command record unchanged', () => {
    for (const body of [
      { resize: { method: 'scale', width: 120 } },
      { resize: { method: 'cover', width: 10, height: 20 }, convert: { type: ['image/webp', 'image/png'] } },
      { transform: { background: '#ff8000' }, preserve: ['copyright', 'creation'] },
    ]) {
      const options = parseOutputOptions(body);
      expect(outputOptionsOf(renderOptionsRecord(options), null)).toEqual(options);
    }
  });

  it('refuses a record whose resize dimensions do not fit its method', () => {
    const record = {
      resize: { method: 'fit' as const, width: 10, height: null },
      convert: null,
      background: null,
      preserve: null,
    };
    expect(() => outputOptionsOf(record, null)).toThrow('Resize method fit has the wrong dimensions.');
  });
});
