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

export const ShrinkResult = Type.Object({
  input: ImageDescription,
  output: Type.Object({
    size: Type.Integer(),
    type: Type.String(),
    width: Type.Integer(),
    height: Type.Integer(),
    ratio: Type.Number(),
    url: Type.String(),
  }),
});

const ImageBytes = Type.Unsafe<Buffer | undefined>({ type: 'string', format: 'binary' });

/**
 * A binary image answer, documented under each media type it can have (Fastify sends a Buffer as it is).
 * `description` says what else the status means on that route.
 */
export const imageResponse = (description: string) => ({
  description,
  content: Object.fromEntries(IMAGE_TYPES.map((type) => [type, { schema: ImageBytes }])),
});
