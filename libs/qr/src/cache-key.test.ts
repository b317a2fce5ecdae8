import { describe, expect, it } from 'vitest';
import { qrCacheKey } from './index.js';

describe('qrCacheKey', () => {
  const c = {
    dot_pattern_type: 'circle' as const,
    corners: { corner_1: { shape: 'rounded' as const, inner_color: '#000' } },
  };

  it('is one key for equal input, whatever the order of its members', () => {
    const reordered = {
      corners: { corner_1: { inner_color: '#000', shape: 'rounded' as const } },
      dot_pattern_type: 'circle' as const,
    };
    expect(qrCacheKey('https://sho.rt/a', c, { format: 'png' })).toBe(
      qrCacheKey('https://sho.rt/a', reordered, { format: 'png' }),
    );
    expect(qrCacheKey('https://sho.rt/a', c)).toMatch(/^[\w-]{43}$/);
  });

  it('changes with the content, the customizations, the logo bytes, the format and the size', () => {
    const base = qrCacheKey('https://sho.rt/a', c, { logo: Buffer.from('logo'), format: 'png', size: 1000 });
    expect(
      new Set([
        base,
        qrCacheKey('https://sho.rt/b', c, { logo: Buffer.from('logo'), format: 'png', size: 1000 }),
        qrCacheKey(
          'https://sho.rt/a',
          { ...c, dot_pattern_type: 'star' },
          { logo: Buffer.from('logo'), format: 'png', size: 1000 },
        ),
        qrCacheKey('https://sho.rt/a', c, { logo: Buffer.from('other'), format: 'png', size: 1000 }),
        qrCacheKey('https://sho.rt/a', c, { logo: Buffer.from('logo'), format: 'svg', size: 1000 }),
        qrCacheKey('https://sho.rt/a', c, { logo: Buffer.from('logo'), format: 'png', size: 600 }),
      ]).size,
    ).toBe(6);
  });
});
