import { IdempotencyKeyHeader, Type, ref, type TSchema } from '@platform/http';
import { SHORTLINK_ID_MAX_LENGTH, SHORTLINK_ID_PATTERN } from '@platform/links';

/** Bitly's error body; `message` is the UPPER_SNAKE code clients key on. */
export const BitlyErrorComponent = Type.Object(
  {
    message: Type.String({ description: 'The error code, such as INVALID_ARG_LONG_URL, FORBIDDEN or NOT_FOUND.' }),
    description: Type.String(),
    resource: Type.String({ description: 'The collection the path is about.' }),
    errors: Type.Array(
      Type.Object({
        field: Type.String(),
        error_code: Type.Union([Type.Literal('missing'), Type.Literal('invalid')]),
        message: Type.String(),
      }),
      { description: 'The fields at fault: missing (not sent) or invalid; empty when the error is about no field.' },
    ),
  },
  { $id: 'BitlyError', description: 'Every error of the link-shortening API.' },
);

/**
 * The error body as routes name it: a reference to the one component (`BitlyErrorComponent`, registered by
 * app.ts). A route must not carry the component inline beside a reference to it.
 */
export const BitlyError = ref(BitlyErrorComponent);

/**
 * The errors every authenticated operation can answer: 400 (validation), 403 (a missing or bad token, or a
 * group the caller is not in), 404, 429 (platform limits) and the 5xx of the platform. Framework statuses (413,
 * 414, 415) are added by @platform/http.
 */
export const errorResponses = {
  400: BitlyError,
  403: BitlyError,
  404: BitlyError,
  429: BitlyError,
  500: BitlyError,
  503: BitlyError,
  504: BitlyError,
};

/** What a creating POST adds: the `Idempotency-Key` header, and 422 for a key reused with another body. */
export const idempotentCreate = {
  headers: IdempotencyKeyHeader,
  responses: { 422: BitlyError },
};

/** Bitly's clients send explicit nulls for members they do not set: a null member is an absent one. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** An optional body member that may also be sent as null. */
export const OptionalNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/** Bitly's timestamps: `2026-01-28T14:30:00+0000`. */
export const BitlyTime = Type.String({
  description: 'ISO 8601 with a numeric offset, such as 2026-01-28T14:30:00+0000.',
});

export const security = [{ bearer: [] }];

/**
 * `OptionalNullable` refused with `<field> <errorMessage>`: a union reports its own failure, not its branches',
 * so the sentence goes on the union.
 */
export const OptionalNullableSaying = <T extends TSchema>(schema: T, errorMessage: string) =>
  Type.Optional(Type.Union([schema, Type.Null()], { errorMessage }));

/**
 * An object's options making `name` required unless `alias` (Bitly's other name for it, which its clients send)
 * is given instead; null counts as not given.
 */
export const requiredUnlessAlias = (name: string, alias: string) => ({
  if: { required: [alias], properties: { [alias]: { not: { type: 'null' } } } },
  else: { required: [name], properties: { [name]: { not: { type: 'null' } } } },
});

/** A short link's id in a body: `domain/hash`, such as sho.rt/abc1234. */
export const ShortlinkIdString = Type.String({
  maxLength: SHORTLINK_ID_MAX_LENGTH,
  pattern: SHORTLINK_ID_PATTERN,
  description: 'domain/hash, such as sho.rt/abc1234.',
  errorMessage: 'must be a short link id such as sho.rt/abc1234',
});
