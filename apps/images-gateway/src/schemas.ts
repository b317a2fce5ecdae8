import { Type } from '@platform/http';
import { IMAGE_TYPES } from '@platform/images';

export const ErrorBody = Type.Object({ error: Type.String(), message: Type.String() });

const errorStatuses = [400, 401, 404, 413, 415, 429, 500, 503, 504] as const;
export const errorResponses = Object.fromEntries(errorStatuses.map((s) => [s, ErrorBody])) as Record<
  (typeof errorStatuses)[number],
  typeof ErrorBody
>;

export const security = [{ basic: [] }];

export const OutputParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

const ImageDescription = Type.Object({ size: Type.Integer(), type: Type.String() });

/** Tinify's account counter, on every answer to a caller it knows. */
const CompressionCount = {
  'Compression-Count': { type: 'integer', description: 'Compressions counted for the account this month.' },
};

const Dimensions = {
  'Image-Width': { type: 'integer', description: 'The width of the image in pixels.' },
  'Image-Height': { type: 'integer', description: 'The height of the image in pixels.' },
};

/** An image as the body of a request: its bytes, in any image type (or none: official clients send none). */
const ImageUpload = Type.Unsafe<Buffer>({
  format: 'binary',
  description: 'The image bytes (AVIF, WebP, JPEG or PNG).',
});

/** `POST /shrink` takes an image, or JSON naming one by URL. */
export const ShrinkBody = {
  content: {
    'application/json': {
      schema: Type.Object({
        source: Type.Object({
          url: Type.String({
            maxLength: 2048,
            pattern: '^[Hh][Tt][Tt][Pp][Ss]?://',
            errorMessage: 'must be an http or https URL.',
          }),
        }),
      }),
    },
    'application/octet-stream': { schema: ImageUpload },
    ...Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: ImageUpload }])),
  },
};

export const ShrinkResult = Type.Object(
  {
    input: ImageDescription,
    output: Type.Object({
      size: Type.Integer(),
      type: Type.String(),
      width: Type.Integer(),
      height: Type.Integer(),
      ratio: Type.Number(),
      url: Type.String(),
    }),
  },
  {
    headers: {
      Location: { type: 'string', format: 'uri', description: 'The output: download it, or POST options to it.' },
      ...CompressionCount,
    },
  },
);

const ImageBytes = Type.Unsafe<Buffer | undefined>({ type: 'string', format: 'binary' });

/**
 * A binary image answer, documented under each media type it can have (Fastify sends a Buffer as it is).
 * `description` says what else the status means on that route.
 */
export const imageResponse = (description: string) => ({
  description,
  headers: {
    ...CompressionCount,
    ...Dimensions,
    Location: { type: 'string', format: 'uri', description: 'For a store request: the stored object.' },
  },
  content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: ImageBytes }])),
});
