import { InputError, PayloadTooLargeError, UnsupportedMediaTypeError } from '@platform/errors';

/** Stable codes of the image domain (the HTTP edge renders them in the API's `{error, message}` shape). */
export const IMAGE_ERRORS = {
  unsupportedType: () => new UnsupportedMediaTypeError('unsupported_type', 'File type is not supported.'),
  tooManyPixels: (max: number) =>
    new PayloadTooLargeError('too_many_pixels', `The image has more than ${max} pixels; it cannot be processed.`),
  tooMuchWork: () =>
    new PayloadTooLargeError(
      'too_much_work',
      'The image is too large to process with these options; send a smaller image or ask for fewer types.',
    ),
  undecodable: () => new InputError('decode_error', 'The file could not be decoded as an image.'),
  inputMissing: () => new InputError('input_missing', 'Input is missing.'),
} as const;
