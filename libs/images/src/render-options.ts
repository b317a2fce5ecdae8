import type { RenderOutputV2 } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { isImageType } from './media-types.js';
import type { GcsStore, OutputOptions, ResizeOptions, S3Store } from './options.js';

export type RenderOptionsRecord = RenderOutputV2['options'];

/** Validated output options as the command's record (the store travels apart, sealed). */
export function renderOptionsRecord(options: Omit<OutputOptions, 'store'>): RenderOptionsRecord {
  return {
    resize: options.resize
      ? { method: options.resize.method, width: options.resize.width ?? null, height: options.resize.height ?? null }
      : null,
    convert: options.convert ?? null,
    background: options.background ?? null,
    preserve: options.preserve ?? null,
  };
}

/** The record back into output options, with the unsealed store when there is one. */
export function outputOptionsOf(record: RenderOptionsRecord, store: S3Store | GcsStore | null): OutputOptions {
  const options: OutputOptions = {};
  if (record.resize) options.resize = resizeOf(record.resize);
  if (record.convert) {
    if (!record.convert.every(isImageType))
      throw new InputError('bad_request', `Convert types ${record.convert.join(', ')} are not all supported.`);
    options.convert = record.convert.filter(isImageType);
  }
  if (record.background) options.background = record.background;
  if (record.preserve) options.preserve = record.preserve;
  if (store) options.store = store;
  return options;
}

function resizeOf(resize: NonNullable<RenderOptionsRecord['resize']>): ResizeOptions {
  const { method, width, height } = resize;
  if (method === 'scale') {
    if (width !== null && height === null) return { method, width };
    if (height !== null && width === null) return { method, height };
  } else if (width !== null && height !== null) {
    return { method, width, height };
  }
  throw new InputError('bad_request', `Resize method ${method} has the wrong dimensions.`);
}
