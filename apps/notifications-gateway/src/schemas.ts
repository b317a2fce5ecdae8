import { Type, ref } from '@platform/http';
import { MAX_LIST_IDS, UUID_LIST_RULE } from '@platform/notifications';

/** Coder's response object for every error: a message, an optional detail and the fields at fault. */
export const CoderResponse = Type.Object(
  {
    message: Type.String(),
    detail: Type.Optional(Type.String()),
    validations: Type.Optional(Type.Array(Type.Object({ field: Type.String(), detail: Type.String() }))),
  },
  { $id: 'Response', description: 'Every error of the notifications API (Coder’s codersdk.Response).' },
);

/** The error body as a route names it: a reference to the one component (never the inline schema). */
const Response = ref(CoderResponse);

export const errorResponses = {
  400: Response,
  401: Response,
  403: Response,
  404: Response,
  500: Response,
  503: Response,
  504: Response,
};

const Uuid = Type.String({ format: 'uuid' });
const Timestamp = Type.String({ format: 'date-time' });

export const InboxNotification = Type.Object(
  {
    id: Uuid,
    user_id: Type.String(),
    template_id: Uuid,
    targets: Type.Array(Type.String()),
    title: Type.String(),
    content: Type.String(),
    icon: Type.String(),
    actions: Type.Array(Type.Object({ label: Type.String(), url: Type.String() })),
    read_at: Type.Union([Timestamp, Type.Null()]),
    created_at: Timestamp,
  },
  { $id: 'InboxNotification' },
);

export const NotificationTemplate = Type.Object(
  {
    id: Uuid,
    name: Type.String(),
    title_template: Type.String(),
    body_template: Type.String(),
    actions: Type.String({ description: 'JSON: the action templates, `[{label, url}]`.' }),
    group: Type.String(),
    method: Type.String({ description: 'Empty: the deployment’s default method (and the inbox).' }),
    kind: Type.Union([Type.Literal('system'), Type.Literal('custom')]),
    enabled_by_default: Type.Boolean(),
  },
  { $id: 'NotificationTemplate' },
);

export const NotificationPreference = Type.Object(
  { id: Uuid, disabled: Type.Boolean(), updated_at: Timestamp },
  { $id: 'NotificationPreference' },
);

export const NotificationSettings = Type.Object({ notifier_paused: Type.Boolean() }, { $id: 'NotificationSettings' });

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
/**
 * UUIDs separated by commas, with spaces and tabs around them and empty items (`,,`, a trailing comma) allowed,
 * at most `MAX_LIST_IDS` of them: exactly what the reader splits and trims into ids.
 */
// Bounded so that both lists at their limits fit in a URL the server reads (256 KiB with the headers).
const uuidsText = (maxLength: number) =>
  Type.String({
    maxLength,
    pattern: `^[ \\t,]*(?:${UUID}[ \\t]*(?:,[ \\t,]*|$)){0,${MAX_LIST_IDS}}$`,
    errorMessage: UUID_LIST_RULE,
  });

/**
 * `targets` and `templates`: comma-separated UUIDs, or the parameter repeated. At most 100 ids: a single value
 * is counted by its pattern; the sum over a repeated parameter (at most 100 values, each of at most 80
 * characters, so two ids) is the one count no schema can make, refused by `listsOverLimit` with the same words.
 */
const UuidList = Type.Union([uuidsText(3800), Type.Array(uuidsText(80), { maxItems: MAX_LIST_IDS })], {
  description: `Comma-separated UUIDs (or the parameter repeated), at most ${MAX_LIST_IDS}.`,
  errorMessage: UUID_LIST_RULE,
});

export const InboxFilterQuery = {
  targets: Type.Optional(UuidList),
  templates: Type.Optional(UuidList),
  read_status: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('read'), Type.Literal('unread')])),
};

/** A UUID exactly (not the `urn:uuid:` form the `uuid` format also takes, nor with spaces around it). */
export const UuidParam = Type.String({ pattern: `^${UUID}$`, errorMessage: { pattern: 'must be a valid uuid' } });

export const NotificationIdParams = Type.Object({ id: Uuid });

export const security = [{ session: [] }];
/** The watch stream also takes the token a browser can send: the `platform_session_token` cookie or query parameter. */
export const browserSecurity: Array<Record<string, string[]>> = [
  { session: [] },
  { sessionCookie: [] },
  { sessionQuery: [] },
];
