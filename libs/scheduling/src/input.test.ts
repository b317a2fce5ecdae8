import { describe, expect, it } from 'vitest';
import { slugify } from './input.js';

describe('slugify', () => {
  it('keeps ASCII letters and digits, drops accents, joins the rest with single hyphens', () => {
    expect(slugify('Sales Team')).toBe('sales-team');
    expect(slugify('  Équipe  Café — Nord! ')).toBe('equipe-cafe-nord');
    expect(slugify('x'.repeat(99) + ' y')).toBe('x'.repeat(99));
  });

  it('gives a name without ASCII letters or digits a slug of its own, never an empty one', () => {
    const [a, b] = [slugify('営業チーム'), slugify('開発チーム')];
    for (const slug of [a, b, slugify('🚀🚀'), slugify('---')]) expect(slug).toMatch(/^[a-f0-9]{12}$/);
    expect(a).not.toBe(b);
    expect(slugify('営業チーム')).toBe(a);
  });
});
