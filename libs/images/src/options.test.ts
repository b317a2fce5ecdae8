import { describe, expect, it } from 'vitest';
import { compressionsFor, parseOutputOptions } from './options.js';

const message = (body: unknown) => {
  try {
    parseOutputOptions(body);
  } catch (error) {
    return (error as Error).message;
  }
  return 'no error';
};

describe('parseOutputOptions', () => {
  it('takes each resize method with the dimensions it needs', () => {
    expect(parseOutputOptions({ resize: { method: 'scale', width: 100 } }).resize).toEqual({
      method: 'scale',
      width: 100,
    });
    expect(parseOutputOptions({ resize: { method: 'cover', width: 10, height: 20 } }).resize).toEqual({
      method: 'cover',
      width: 10,
      height: 20,
    });
  });

  it('rejects wrong combinations with a message that says what is wrong', () => {
    expect(message({ resize: { method: 'scale', width: 1, height: 1 } })).toBe(
      'Resize method scale takes either width or height, not both.',
    );
    expect(message({ resize: { method: 'scale' } })).toBe('Resize method scale requires either width or height.');
    expect(message({ resize: { method: 'fit', width: 10 } })).toBe('Resize method fit requires both width and height.');
    expect(message({ resize: { method: 'stretch', width: 1, height: 1 } })).toBe(
      'Resize method must be one of scale, fit, cover, thumb; got "stretch".',
    );
    expect(message({ resize: { method: 'fit', width: 0, height: 5 } })).toBe(
      'Resize width must be an integer between 1 and 32767.',
    );
    expect(message({})).toBe('Give at least one of resize, convert, transform, preserve or store.');
    expect(message({ flip: true })).toBe('Unknown option flip.');
  });

  it('expands convert lists and the wildcard', () => {
    expect(parseOutputOptions({ convert: { type: 'image/webp' } }).convert).toEqual(['image/webp']);
    expect(parseOutputOptions({ convert: { type: ['image/png', 'image/jpeg'] } }).convert).toEqual([
      'image/png',
      'image/jpeg',
    ]);
    expect(parseOutputOptions({ convert: { type: '*/*' } }).convert).toHaveLength(4);
    // The official Node client's own integration test converts to image/jpg.
    expect(parseOutputOptions({ convert: { type: ['image/webp', 'image/jpg'] } }).convert).toEqual([
      'image/webp',
      'image/jpeg',
    ]);
    expect(parseOutputOptions({ convert: { type: ['image/JPG', 'image/jpeg'] } }).convert).toEqual(['image/jpeg']);
    expect(message({ convert: { type: 'image/gif' } })).toMatch(/^Convert type "image\/gif" is not supported/);
  });

  it('reads backgrounds as hex, white or black', () => {
    expect(parseOutputOptions({ transform: { background: '#ff8000' } }).background).toEqual({ r: 255, g: 128, b: 0 });
    expect(parseOutputOptions({ transform: { background: 'black' } }).background).toEqual({ r: 0, g: 0, b: 0 });
    expect(message({ transform: { background: 'red' } })).toBe(
      'Transform background must be a hex colour (#RRGGBB), white or black.',
    );
  });

  it('validates store options per provider', () => {
    const s3 = parseOutputOptions({
      store: {
        service: 's3',
        aws_access_key_id: 'A',
        aws_secret_access_key: 'S',
        region: 'eu-west-1',
        path: 'bucket/a/b.png',
      },
    }).store;
    expect(s3).toMatchObject({ service: 's3', accessKeyId: 'A', acl: 'public-read', path: 'bucket/a/b.png' });
    expect(message({ store: { service: 'gcs', path: 'b/f.png' } })).toBe(
      'Store option cloud_access_token is required for service gcs.',
    );
    expect(message({ store: { service: 'azure' } })).toBe('Store service must be s3 or gcs.');
  });

  it('counts one compression per resize, convert and store; none for preserve (spec rule 9)', () => {
    expect(compressionsFor(parseOutputOptions({ preserve: ['copyright'] }))).toBe(0);
    expect(
      compressionsFor(parseOutputOptions({ resize: { method: 'fit', width: 1, height: 1 }, convert: { type: '*/*' } })),
    ).toBe(2);
  });
});
