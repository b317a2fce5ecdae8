import { Type, type TSchema } from '@platform/http';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, QR_CODE_TYPES } from '@platform/links';
import { BitlyTime, OptionalNullableSaying } from '../../schemas.js';

const QrCodeType = Type.String({
  enum: [...QR_CODE_TYPES],
  description: 'shortlink: made for a short link of the group; long_url: made for a long URL (with a new short link).',
});

/** The validated customizations as given (background_color, dot_pattern_type, corners, gradient, frame, logo...). */
const RenderCustomizations = Type.Object(
  {},
  { additionalProperties: true, description: 'Colours, dot pattern, corners, gradients, frame, text and logo.' },
);

const Gs1 = Type.Object({
  values: Type.Array(Type.Object({ key: Type.String(), value: Type.String() }), {
    description: 'GS1 application identifiers and their values.',
  }),
});

const common = {
  qrcode_id: Type.String(),
  group_guid: Type.String(),
  title: Type.String({ description: 'Empty when it has none.' }),
  serialized_content: Type.String({ description: 'What the code encodes: its short link with ?qr=<qrcode_id>.' }),
  qr_code_type: QrCodeType,
  long_urls: Type.Array(Type.String(), { description: 'Where its short link leads.' }),
  shortlink_id: Type.String(),
  archived: Type.Boolean(),
  expiration_at: Type.String({
    description: "Its short link's expiry, such as 2026-01-28T14:30:00+0000; empty when none.",
  }),
  created: BitlyTime,
  modified: BitlyTime,
};

/** The summary form (create, edit, list): `qrSummaryJson` of @platform/links. */
export const QrCodeSummary = Type.Object({
  ...common,
  is_customized: Type.Boolean(),
  is_gs1: Type.Boolean(),
  created_by: Type.String({ description: 'The login of its creator.' }),
  tags: Type.Array(Type.String()),
});

/** The full form (retrieve): `qrFullJson` of @platform/links. */
export const QrCode = Type.Object({
  ...common,
  gs1: Gs1,
  render_customizations: RenderCustomizations,
});

export const QrCodeParams = Type.Object({ qrcode_id: Type.String({ minLength: 1, maxLength: 100 }) });

export const GroupGuid = Type.String({ minLength: 1, maxLength: 100 });

/** Read by @platform/qr, which also checks the contrast and fills in defaults: only its kind is checked here. */
export const RenderCustomizationsInput = OptionalNullableSaying(RenderCustomizations, 'must be an object');

export const Title = OptionalNullableSaying(
  Type.String({ maxLength: 200 }),
  'must be a string of at most 200 characters',
);

const MAX_TAGS = 100;
export const Tags = OptionalNullableSaying(
  Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: MAX_TAGS }),
  `must be a list of at most ${MAX_TAGS} strings of 1 to 50 characters`,
);

const MAX_GS1_VALUES = 50;
export const Gs1Input = OptionalNullableSaying(
  Type.Object({
    values: Type.Array(
      Type.Object({ key: Type.String({ minLength: 1, maxLength: 10 }), value: Type.String({ maxLength: 200 }) }),
      { maxItems: MAX_GS1_VALUES },
    ),
  }),
  `must be {values: [{key, value}]} with at most ${MAX_GS1_VALUES} application identifiers`,
);

/** Its window (5 minutes to a year ahead) is the handler's check: it depends on the clock. */
export const ExpirationAt = OptionalNullableSaying(
  Type.Union([Type.String({ format: 'date-time' }), Type.Literal('')], {
    description: "Its short link's expiry, such as 2026-01-28T14:30:00+0000, 5 minutes to a year ahead; empty: none.",
  }),
  'must be a time such as 2026-01-28T14:30:00+0000 (or empty for none)',
);

export const Archived = OptionalNullableSaying(Type.Boolean(), 'must be true or false');

/** `?format=`: the image's format, raw or inside JSON (an image type in Accept wins). */
export const FormatQuery = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('svg'), Type.Literal('png')], {
      description: 'svg (default) or png; an image type in Accept wins.',
    }),
  ),
});

const binary = { schema: Type.String({ format: 'binary' }) };

/** A 200 as an image (SVG or PNG) or JSON carrying it, by Accept. */
export const imageResponse = <T extends TSchema>(json: T) => ({
  content: { 'image/svg+xml': binary, 'image/png': binary, 'application/json': { schema: json } },
});

const Tristate = (fallback: 'on' | 'off' | 'both', description: string) =>
  Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off'), Type.Literal('both')], { default: fallback, description }),
  );
const UnixTime = Type.Optional(Type.Integer({ minimum: 0, maximum: 99_999_999_999, description: 'Unix seconds.' }));
const Many = (description: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 10, description }));
const Text = (description: string) => Type.Optional(Type.String({ maxLength: 2048, description }));

/** Unknown parameters are ignored, as Bitly does. */
export const QrListQuery = Type.Object({
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
  search_after: Text('The token of the next page, from a previous answer.'),
  query: Text('Words to find in the title, long URL, short link or tags.'),
  hostname_path_query: Text('Text to find in the host and path of the long URL.'),
  created_before: UnixTime,
  created_after: UnixTime,
  archived: Tristate('off', 'Archived codes: off (none), on (only those) or both.'),
  has_render_customizations: Tristate('both', 'Codes with customizations.'),
  is_gs1: Tristate('both', 'Codes with GS1 values.'),
  creating_login: Many('Codes made by these logins, repeated or comma separated.'),
  qrc_type: Type.Optional(
    Type.Array(
      Type.String({
        pattern: `^[ \\t]*(?:${QR_CODE_TYPES.join('|')})?[ \\t]*(?:,[ \\t]*(?:${QR_CODE_TYPES.join('|')})?[ \\t]*)*$`,
        maxLength: 100,
        errorMessage: `must list ${QR_CODE_TYPES.join(', ')}`,
      }),
      { maxItems: 10, description: `${QR_CODE_TYPES.join(', ')} (default both), repeated or comma separated.` },
    ),
  ),
  tags: Many('Codes with any of these tags, repeated or comma separated.'),
});

export const QrCodeList = Type.Object({
  qr_codes: Type.Array(QrCodeSummary),
  pagination: Type.Object({
    next: Type.String({ description: 'The address of the next page; empty on the last one.' }),
    search_after: Type.String({ description: 'The token of the next page; empty on the last one.' }),
    size: Type.Integer(),
  }),
});
