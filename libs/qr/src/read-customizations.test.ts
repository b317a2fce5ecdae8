import { describe, expect, it } from 'vitest';
import { isCustomized, readRenderCustomizations, type RenderCustomizations } from './index.js';

const fieldsOf = (raw: unknown, allowed: 'full' | 'static' = 'full') => {
  const read = readRenderCustomizations(raw, { allowed });
  return read.ok ? [] : read.problems.map((p) => p.field);
};

const valueOf = (raw: unknown): RenderCustomizations => {
  const read = readRenderCustomizations(raw, {});
  if (!read.ok) throw new Error(JSON.stringify(read.problems));
  return read.value;
};

describe('readRenderCustomizations', () => {
  it('reads every member, fills defaults inside present objects, ignores unknown members and nulls', () => {
    expect(
      valueOf({
        background_color: '#FFF',
        dot_pattern_color: '#112233cc',
        dot_pattern_type: 'heart',
        corners: { corner_1: { shape: 'leaf', inner_color: '#000' }, corner_2: {}, corner_3: null },
        gradient: {
          style: 'linear',
          angle: 45,
          colors: [
            { color: '#000000', offset: 0 },
            { color: '#1a237e', offset: 100 },
          ],
        },
        background_gradient: {
          style: 'radial',
          colors: [
            { color: '#ffffff', offset: 0 },
            { color: '#eeeeee', offset: 100 },
          ],
          exclude_corners: null,
        },
        logo: { image_guid: 'Iabc123' },
        frame: { id: 'arrow', colors: { primary: '#000000' }, text: { primary: { content: 'Scan' } } },
        text: { top: { content: 'Hi', color: '#000' }, bottom: null },
        branding: { service_brand: true },
        spec_settings: { error_correction: 2 },
        is_customized: true,
        extra: { anything: 1 },
      }),
    ).toEqual({
      background_color: '#FFF',
      dot_pattern_color: '#112233cc',
      dot_pattern_type: 'heart',
      corners: { corner_1: { shape: 'leaf', inner_color: '#000' }, corner_2: { shape: 'standard' } },
      gradient: {
        style: 'linear',
        angle: 45,
        colors: [
          { color: '#000000', offset: 0 },
          { color: '#1a237e', offset: 100 },
        ],
        exclude_corners: false,
      },
      background_gradient: {
        style: 'radial',
        colors: [
          { color: '#ffffff', offset: 0 },
          { color: '#eeeeee', offset: 100 },
        ],
        exclude_corners: false,
      },
      logo: { image_guid: 'Iabc123' },
      frame: { id: 'arrow', colors: { primary: '#000000' }, text: { primary: { content: 'Scan', color: '#ffffff' } } },
      text: { top: { content: 'Hi', color: '#000' } },
      branding: { service_brand: true },
      spec_settings: { error_correction: 2 },
    });
  });

  it('takes an absent or null body as no customization', () => {
    expect(readRenderCustomizations(undefined, {})).toEqual({ ok: true, value: {} });
    expect(readRenderCustomizations(null, {})).toEqual({ ok: true, value: {} });
    expect(readRenderCustomizations({ background_color: null, gradient: null }, {})).toEqual({ ok: true, value: {} });
  });

  it('refuses a body that is not an object', () => {
    expect(fieldsOf([])).toEqual(['render_customizations']);
    expect(fieldsOf('red')).toEqual(['render_customizations']);
  });

  it('names every wrong member by its full path', () => {
    expect(
      fieldsOf({
        background_color: 'white',
        dot_pattern_color: '#12345',
        dot_pattern_type: 'squiggle',
        corners: {
          corner_1: { shape: 'oval' },
          corner_2: 'round',
          corner_3: { inner_color: '#1234567', outer_color: 3 },
        },
        gradient: {
          style: 'conic',
          angle: 'up',
          colors: [{ color: '#000', offset: 101 }, { offset: 5 }, 'red'],
          exclude_corners: 'no',
        },
        background_gradient: { style: 'linear', colors: [{ color: '#fff', offset: 0 }] },
        logo: { image_guid: '' },
        frame: {
          id: 'balloon',
          colors: { primary: 'navy' },
          text: { primary: { content: 7 }, secondary: { content: 'ok', color: 'pink' } },
        },
        text: { center: { content: 'x'.repeat(121) }, top: { content: 'a\u0007b' }, bottom: 'b' },
        branding: { service_brand: 'yes' },
        spec_settings: { error_correction: 4 },
      }),
    ).toEqual([
      'render_customizations.background_color',
      'render_customizations.dot_pattern_color',
      'render_customizations.dot_pattern_type',
      'render_customizations.corners.corner_1.shape',
      'render_customizations.corners.corner_2',
      'render_customizations.corners.corner_3.inner_color',
      'render_customizations.corners.corner_3.outer_color',
      'render_customizations.gradient.style',
      'render_customizations.gradient.exclude_corners',
      'render_customizations.gradient.angle',
      'render_customizations.gradient.colors.0.offset',
      'render_customizations.gradient.colors.1.color',
      'render_customizations.gradient.colors.2',
      'render_customizations.background_gradient.colors',
      'render_customizations.logo.image_guid',
      'render_customizations.frame.id',
      'render_customizations.frame.colors.primary',
      'render_customizations.frame.text.primary.content',
      'render_customizations.frame.text.secondary.color',
      'render_customizations.text.center.content',
      'render_customizations.text.top.content',
      'render_customizations.text.bottom',
      'render_customizations.branding.service_brand',
      'render_customizations.spec_settings.error_correction',
    ]);
  });

  it('says what a member must be', () => {
    const read = readRenderCustomizations({ corners: { corner_1: { shape: 'oval' } } }, {});
    expect(read).toEqual({
      ok: false,
      problems: [
        {
          field: 'render_customizations.corners.corner_1.shape',
          message:
            'render_customizations.corners.corner_1.shape must be one of standard, slightly_round, rounded, extra_round, leaf, leaf_inner, leaf_outer, target, concave',
        },
      ],
    });
  });

  it('needs two colours for a linear or radial gradient, none for no_gradient', () => {
    expect(fieldsOf({ gradient: { style: 'radial' } })).toEqual(['render_customizations.gradient.colors']);
    expect(fieldsOf({ gradient: { style: 'no_gradient' } })).toEqual([]);
  });

  it('reads error correction as 0..3 or as the recovery percentages', () => {
    const level = (error_correction: unknown) =>
      valueOf({ spec_settings: { error_correction } }).spec_settings?.error_correction;
    expect([0, 1, 2, 3, 7, 15, 25, 30].map(level)).toEqual([0, 1, 2, 3, 0, 1, 2, 3]);
    for (const wrong of [4, -1, 1.5, '1', 20])
      expect(fieldsOf({ spec_settings: { error_correction: wrong } })).toEqual([
        'render_customizations.spec_settings.error_correction',
      ]);
  });

  it('accepts #RGB, #RGBA, #RRGGBB and #RRGGBBAA colours', () => {
    for (const color of ['#abc', '#abcd', '#A1B2C3', '#a1b2c3d4'])
      expect(fieldsOf({ background_color: color })).toEqual([]);
    for (const color of ['abc', '#ab', '#abcde', '#ggg', '#a1b2c3d4e5', 'rgb(0,0,0)'])
      expect(fieldsOf({ background_color: color })).toEqual(['render_customizations.background_color']);
  });

  it('refuses, on a static code, each member only dynamic codes have', () => {
    const all = {
      background_color: '#ffffff',
      dot_pattern_color: '#000000',
      dot_pattern_type: 'circle',
      corners: { corner_1: { shape: 'rounded' } },
      branding: { service_brand: true },
      spec_settings: { error_correction: 3 },
    };
    expect(fieldsOf(all, 'static')).toEqual([]);
    expect(
      fieldsOf(
        {
          ...all,
          gradient: { style: 'no_gradient' },
          background_gradient: { style: 'no_gradient' },
          frame: { id: 'none' },
          text: {},
          logo: { image_guid: 'Iabc' },
        },
        'static',
      ),
    ).toEqual([
      'render_customizations.gradient',
      'render_customizations.background_gradient',
      'render_customizations.frame',
      'render_customizations.text',
      'render_customizations.logo',
    ]);
    expect(fieldsOf({ gradient: null, logo: null }, 'static')).toEqual([]);
  });
});

describe('contrast check', () => {
  const refusal = (raw: unknown) => {
    const read = readRenderCustomizations(raw, {});
    return read.ok ? undefined : read.problems;
  };

  it('refuses dots the colour of the background', () => {
    expect(refusal({ background_color: '#3366cc', dot_pattern_color: '#3366CC' })).toEqual([
      {
        field: 'render_customizations',
        message:
          'The contrast between the dots (#3366CC) and the background (#3366cc) is 1:1; a QR code needs at least 3:1 to scan.',
      },
    ]);
  });

  it('refuses light grey dots on white', () => {
    expect(refusal({ dot_pattern_color: '#cccccc' })?.[0]?.message).toBe(
      'The contrast between the dots (#cccccc) and the background (#ffffff) is 1.6:1; a QR code needs at least 3:1 to scan.',
    );
  });

  it('accepts a contrast of 3:1 and more', () => {
    expect(refusal({ dot_pattern_color: '#949494' })).toBeUndefined(); // 3.03:1 on white
    expect(refusal({ dot_pattern_color: '#959595' })).toBeDefined(); // 2.99:1
    expect(refusal({ background_color: '#fff3e0', dot_pattern_color: '#1a237e' })).toBeUndefined();
  });

  it('refuses inverted codes: dots lighter than the background', () => {
    expect(refusal({ background_color: '#000000', dot_pattern_color: '#ffffff' })?.[0]).toEqual({
      field: 'render_customizations',
      message:
        'The dots (#ffffff) are lighter than the background (#000000): inverted QR codes do not scan in many readers; use dots darker than the background.',
    });
  });

  it('composites transparent colours: faint dots on white, and a transparent background as white', () => {
    expect(refusal({ dot_pattern_color: '#00000033' })).toBeDefined();
    expect(refusal({ background_color: '#00000000', dot_pattern_color: '#000000' })).toBeUndefined();
    expect(refusal({ background_color: '#000000', dot_pattern_color: '#00000080' })).toBeDefined();
  });

  it('checks every gradient stop against every background stop', () => {
    const gradient = (...colors: string[]) => ({
      style: 'linear',
      colors: colors.map((color, i) => ({ color, offset: i * 50 })),
    });
    expect(refusal({ gradient: gradient('#000000', '#1a237e', '#eeeeee') })?.[0]?.message).toContain('(#eeeeee)');
    expect(refusal({ background_gradient: gradient('#ffffff', '#444444') })?.[0]?.message).toContain('(#444444)');
    expect(
      refusal({ gradient: { ...gradient('#000000', '#1a237e'), style: 'no_gradient' }, dot_pattern_color: '#111111' }),
    ).toBeUndefined();
  });

  it('checks the finder colours that are drawn', () => {
    expect(refusal({ corners: { corner_2: { outer_color: '#dddddd' } } })?.[0]?.message).toContain('(#dddddd)');
    expect(refusal({ corners: { corner_3: { inner_color: '#ffff00' } } })).toBeDefined();
    const gradient = {
      style: 'radial',
      colors: [
        { color: '#000000', offset: 0 },
        { color: '#333333', offset: 100 },
      ],
    };
    // Under a gradient that covers the corners their own colours are not drawn; with exclude_corners they are.
    expect(refusal({ gradient, corners: { corner_1: { outer_color: '#dddddd' } } })).toBeUndefined();
    expect(
      refusal({ gradient: { ...gradient, exclude_corners: true }, corners: { corner_1: { outer_color: '#dddddd' } } }),
    ).toBeDefined();
  });
});

describe('isCustomized', () => {
  it('is false for defaults, however written', () => {
    for (const raw of [
      {},
      { background_color: '#FFF', dot_pattern_color: '#000000ff', dot_pattern_type: 'standard' },
      { corners: { corner_1: { shape: 'standard', inner_color: '#000' } } },
      { gradient: { style: 'no_gradient' }, background_gradient: { style: 'no_gradient' } },
      {
        frame: { id: 'none' },
        text: { center: { content: '  ' } },
        branding: { service_brand: false },
        spec_settings: { error_correction: 1 },
      },
    ]) {
      expect(isCustomized(valueOf(raw)), JSON.stringify(raw)).toBe(false);
    }
  });

  it('is true as soon as one member differs', () => {
    for (const raw of [
      { background_color: '#fefefe' },
      { dot_pattern_color: '#111' },
      { dot_pattern_type: 'circle' },
      { corners: { corner_3: { shape: 'target' } } },
      { corners: { corner_2: { outer_color: '#1a237e' } } },
      {
        gradient: {
          style: 'radial',
          colors: [
            { color: '#000', offset: 0 },
            { color: '#222', offset: 100 },
          ],
        },
      },
      { logo: { image_guid: 'Iabc' } },
      { frame: { id: 'border_only' } },
      { text: { top: { content: 'Hi' } } },
      { branding: { service_brand: true } },
      { spec_settings: { error_correction: 3 } },
    ]) {
      expect(isCustomized(valueOf(raw)), JSON.stringify(raw)).toBe(true);
    }
  });
});
