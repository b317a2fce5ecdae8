import { describe, expect, it } from 'vitest';
import { axisLabel, escapeHtml, niceCeiling, renderChart, renderPage } from './render.js';

describe('the analytics chart', () => {
  it('rounds the y axis so that its four ticks are round numbers', () => {
    expect([0, 1, 3, 4, 5, 39, 41, 585, 9999].map(niceCeiling)).toEqual([4, 4, 4, 4, 8, 40, 80, 800, 20000]);
  });

  it('labels the axis by unit, in UTC', () => {
    const at = Date.parse('2024-02-29T13:45:00Z');
    expect([
      axisLabel('minute', at),
      axisLabel('hour', at),
      axisLabel('day', at),
      axisLabel('week', at),
      axisLabel('month', at),
    ]).toEqual(['13:45', 'Feb 29 13h', 'Feb 29', 'Feb 29', 'Feb 2024']);
  });

  it('stacks scans on clicks, oldest on the left, with a tooltip per bar', () => {
    const svg = renderChart(
      [
        { at: Date.parse('2024-03-01T00:00:00Z'), clicks: 3, scans: 1 },
        { at: Date.parse('2024-02-29T00:00:00Z'), clicks: 0, scans: 0 },
        { at: Date.parse('2024-02-28T00:00:00Z'), clicks: 2, scans: 0 },
      ],
      'day',
    );
    expect(svg.match(/class="clicks"/g)).toHaveLength(2);
    expect(svg.match(/class="scans"/g)).toHaveLength(1);
    expect(svg.indexOf('Feb 28: 2 clicks')).toBeLessThan(svg.indexOf('Mar 1: 3 clicks, 1 scans'));
    expect(svg).toContain('aria-label="6 engagements over 3 days"');
  });

  it('escapes what it shows', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const html = renderPage({
      title: '<script>',
      subtitle: 'x',
      unit: 'day',
      units: 1,
      points: [],
      totals: { clicks: 0, scans: 0 },
      lists: [{ title: 'Top referrers', rows: [{ label: '"><img>', count: 1 }] }],
      ranges: [],
    });
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('"><img>');
  });
});
