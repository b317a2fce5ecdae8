import { Type, headerSchemas, ref, withHeaders, type Static } from '@platform/http';
import { IMAGE_TYPES } from '@platform/images';

/** Tinify's error body: the error's name (Unauthorized, TooManyRequests, ...) and a message for people. */
const ErrorBodyComponent = Type.Object({ error: Type.String(), message: Type.String() }, { $id: 'TinifyError' });
export const ErrorBody = ref(ErrorBodyComponent);

/**
 * The error body of a status with its headers: Basic's challenge on a 401, the account's count on an answer to a
 * caller the service knows, Retry-After when a dependency cannot serve now.
 */
export function errorSchema(status: number) {
  if (status === 401) return withHeaders(ErrorBody, { 'WWW-Authenticate': { description: 'Basic realm="images"' } });
  return withHeaders(ErrorBody, {
    'Compression-Count': {
      description: 'Compressions counted for the account this month (when the caller is known).',
      schema: { type: 'integer' },
    },
    ...(status === 503 || status === 504 ? { 'Retry-After': { description: 'Seconds to wait.' } } : {}),
  });
}

const errorStatuses = [400, 401, 404, 413, 415, 429, 500, 503, 504] as const;
export const errorResponses = Object.fromEntries(errorStatuses.map((s) => [s, errorSchema(s)])) as Record<
  (typeof errorStatuses)[number],
  typeof ErrorBody
>;

export const security = [{ basic: [] }];

export const OutputParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

/** A pattern matching `word` in any letter case (media types and colour names are case-insensitive). */
const anyCase = (word: string) =>
  [...word]
    .map((c) =>
      /[a-z]/i.test(c) ? `[${c.toLowerCase()}${c.toUpperCase()}]` : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'),
    )
    .join('');
const oneOfAnyCase = (words: readonly string[]) => `^(?:${words.map(anyCase).join('|')})$`;

const Dimension = Type.Integer({ minimum: 1, maximum: 32_767 });
const Resize = Type.Union(
  [
    Type.Object({ method: Type.Literal('scale'), width: Dimension }, { additionalProperties: false }),
    Type.Object({ method: Type.Literal('scale'), height: Dimension }, { additionalProperties: false }),
    Type.Object(
      {
        method: Type.Union([Type.Literal('fit'), Type.Literal('cover'), Type.Literal('thumb')]),
        width: Dimension,
        height: Dimension,
      },
      { additionalProperties: false },
    ),
  ],
  {
    description: 'scale takes a width or a height; fit, cover and thumb take both.',
    errorMessage:
      'must be {"method": "scale"} with a width or a height, or {"method": "fit", "cover" or "thumb"} with both; each an integer from 1 to 32767.',
  },
);

/** The image types, the `image/jpg` alias official clients send, and `*\/*` (whichever is smallest). */
const ConvertType = Type.String({
  pattern: oneOfAnyCase([...IMAGE_TYPES, 'image/jpg', '*/*']),
  errorMessage: `must be one of ${IMAGE_TYPES.join(', ')} or */*.`,
});
const Convert = Type.Object({
  type: Type.Union([ConvertType, Type.Array(ConvertType, { minItems: 1, maxItems: 8 })], {
    errorMessage: `must be a media type (${IMAGE_TYPES.join(', ')} or */*) or a non-empty list of them.`,
  }),
});

const Transform = Type.Object({
  background: Type.String({
    pattern: `^(?:#[0-9A-Fa-f]{6}|#[0-9A-Fa-f]{3}|${anyCase('white')}|${anyCase('black')})$`,
    errorMessage: 'must be a hex colour (#RRGGBB), white or black.',
  }),
});

const Preserve = Type.Array(
  Type.Union([Type.Literal('copyright'), Type.Literal('creation'), Type.Literal('location')]),
  { maxItems: 3 },
);

const Secret = Type.String({ minLength: 1, maxLength: 1024 });
const StorePath = Type.String({
  maxLength: 1024,
  pattern: '^[a-z0-9][a-z0-9._-]{1,62}/[^\\u0000]*[^/]$',
  not: { pattern: '(?:^|/)\\.\\.(?:/|$)' },
  description: '<bucket>/<path>/<filename>',
  errorMessage: 'must have the form <bucket>/<path>/<filename>.',
});
const StoreHeaders = Type.Record(Type.String(), Type.String({ pattern: '^[\\x20-\\x7e]{1,256}$' }), {
  propertyNames: { pattern: oneOfAnyCase(['cache-control']) },
  description: 'Only Cache-Control.',
  errorMessage: 'may only set Cache-Control, to a short string.',
});
/** Either of two names for one credential (Tinify's `aws_` and its clients' `cloud_`). */
const eitherOf = (...names: string[]) => ({
  anyOf: names.map((name) => ({ required: [name] })),
  errorMessage: `must give ${names.join(' or ')}.`,
});
const S3Store = Type.Object(
  {
    service: Type.Literal('s3'),
    aws_access_key_id: Type.Optional(Secret),
    aws_secret_access_key: Type.Optional(Secret),
    cloud_access_key_id: Type.Optional(Secret),
    cloud_secret_access_key: Type.Optional(Secret),
    region: Type.String({ pattern: '^[a-z0-9-]{1,40}$', errorMessage: 'must be a region name such as us-west-1.' }),
    path: StorePath,
    headers: Type.Optional(StoreHeaders),
    acl: Type.Optional(
      Type.String({ pattern: '^[a-z-]{1,40}$', errorMessage: 'must be a canned ACL name, or no-acl.' }),
    ),
  },
  {
    allOf: [
      eitherOf('aws_access_key_id', 'cloud_access_key_id'),
      eitherOf('aws_secret_access_key', 'cloud_secret_access_key'),
    ],
  },
);
const GcsStore = Type.Object(
  {
    service: Type.Literal('gcs'),
    gcp_access_token: Type.Optional(Secret),
    cloud_access_token: Type.Optional(Secret),
    path: StorePath,
    headers: Type.Optional(StoreHeaders),
  },
  { allOf: [eitherOf('gcp_access_token', 'cloud_access_token')] },
);

/** `POST /output/{id}`: at least one of the options; none of them unknown. */
export const OutputOptionsBody = Type.Object(
  {
    resize: Type.Optional(Resize),
    convert: Type.Optional(Convert),
    transform: Type.Optional(Transform),
    preserve: Type.Optional(Preserve),
    store: Type.Optional(
      Type.Unsafe<Static<typeof S3Store> | Static<typeof GcsStore>>({
        type: 'object',
        oneOf: [S3Store, GcsStore],
        discriminator: { propertyName: 'service' },
      }),
    ),
  },
  {
    additionalProperties: false,
    minProperties: 1,
    errorMessage: 'must be an object giving at least one of resize, convert, transform, preserve or store.',
  },
);

const ImageDescription = Type.Object({ size: Type.Integer(), type: Type.String() });

/** Tinify's account counter, on every answer to a caller it knows. */
const CompressionCount = {
  'Compression-Count': { description: 'Compressions counted for the account this month.', schema: { type: 'integer' } },
};

const Dimensions = {
  'Image-Width': { description: 'The width of the image in pixels.', schema: { type: 'integer' } },
  'Image-Height': { description: 'The height of the image in pixels.', schema: { type: 'integer' } },
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

const ShrinkResultComponent = Type.Object(
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
  { $id: 'ShrinkResult' },
);
export const ShrinkResult = withHeaders(ref(ShrinkResultComponent), {
  Location: {
    description: 'The output: download it, or POST options to it.',
    schema: { type: 'string', format: 'uri' },
  },
  ...CompressionCount,
});

/** The shapes the routes share: named components of /openapi.json, registered by app.ts. */
export const components = [ErrorBodyComponent, ShrinkResultComponent];

const ImageBytes = Type.Unsafe<Buffer | undefined>({ type: 'string', format: 'binary' });

/**
 * A binary image answer, documented under each media type it can have (Fastify sends a Buffer as it is).
 * `description` says what else the status means on that route.
 */
export const imageResponse = (description: string) => ({
  description,
  headers: headerSchemas({
    ...CompressionCount,
    ...Dimensions,
    Location: { description: 'For a store request: the stored object.', schema: { type: 'string', format: 'uri' } },
  }),
  content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: ImageBytes }])),
});
