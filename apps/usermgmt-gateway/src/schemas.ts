import { STORE_SAFE_KEY, Type, ref } from '@platform/http';
import { WEBHOOK_RATE_LIMIT } from '@platform/usermgmt';

export const ErrorBodyComponent = Type.Object(
  {
    code: Type.String(),
    message: Type.String(),
    errors: Type.Optional(
      Type.Array(Type.Object({ field: Type.String(), code: Type.String(), message: Type.String() })),
    ),
  },
  { $id: 'UsermgmtError', description: 'Every error: a stable code, a message, and the invalid fields for 422.' },
);

/** The error body as routes name it: a reference to the component, which app.ts registers. */
export const ErrorBody = ref(ErrorBodyComponent);

export const errorResponses = {
  400: ErrorBody,
  401: ErrorBody,
  404: ErrorBody,
  409: ErrorBody,
  413: ErrorBody,
  415: ErrorBody,
  422: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
  503: ErrorBody,
  504: ErrorBody,
};

const timestamps = {
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
};

const CorsOriginComponent = Type.Object(
  {
    object: Type.Literal('cors_origin'),
    id: Type.String(),
    origin: Type.String(),
    ...timestamps,
  },
  { $id: 'CorsOrigin' },
);
export const CorsOrigin = ref(CorsOriginComponent);

const RedirectUriComponent = Type.Object(
  {
    object: Type.Literal('redirect_uri'),
    id: Type.String(),
    uri: Type.String(),
    default: Type.Boolean(),
    ...timestamps,
  },
  { $id: 'RedirectUri' },
);
export const RedirectUri = ref(RedirectUriComponent);

const JwtTemplateComponent = Type.Object(
  { object: Type.Literal('jwt_template'), content: Type.String(), ...timestamps },
  { $id: 'JwtTemplate' },
);
export const JwtTemplate = ref(JwtTemplateComponent);

const rateLimitDescription =
  'Extension beyond WorkOS: deliveries per second to this endpoint at most; over it they wait, none is dropped. null: no limit of its own.';
const orderedDescription =
  'Extension beyond WorkOS: when true, events about the same aggregate (for user.* events the user) arrive in the order they happened; a later one waits until the earlier is delivered or has given up.';

/** An endpoint's rate limit in a request: whole deliveries per second, or null for none. */
export const RateLimitInput = Type.Union(
  [Type.Integer({ minimum: WEBHOOK_RATE_LIMIT.min, maximum: WEBHOOK_RATE_LIMIT.max }), Type.Null()],
  {
    description: rateLimitDescription,
    errorMessage: `must be an integer from ${WEBHOOK_RATE_LIMIT.min} to ${WEBHOOK_RATE_LIMIT.max}, or null`,
  },
);

export const OrderedInput = (options: { default?: boolean } = {}) =>
  Type.Boolean({ description: orderedDescription, ...options });

const WebhookEndpointComponent = Type.Object(
  {
    object: Type.Literal('webhook_endpoint'),
    id: Type.String(),
    endpoint_url: Type.String(),
    events: Type.Array(Type.String()),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
    secret: Type.String({
      description:
        'The signing secret (whsec_…), as WorkOS returns it on every read. Stored sealed; rotate it with rotate_secret.',
    }),
    rate_limit: Type.Union([Type.Integer(), Type.Null()], { description: rateLimitDescription }),
    ordered: Type.Boolean({ description: orderedDescription }),
    ...timestamps,
  },
  { $id: 'WebhookEndpoint' },
);
export const WebhookEndpoint = ref(WebhookEndpointComponent);

const UserComponent = Type.Object(
  {
    object: Type.Literal('user'),
    id: Type.String(),
    email: Type.String(),
    first_name: Type.Union([Type.String(), Type.Null()]),
    last_name: Type.Union([Type.String(), Type.Null()]),
    email_verified: Type.Boolean(),
    profile_picture_url: Type.Union([Type.String(), Type.Null()]),
    last_sign_in_at: Type.Union([Type.String(), Type.Null()]),
    external_id: Type.Union([Type.String(), Type.Null()]),
    metadata: Type.Record(Type.String(), Type.String()),
    ...timestamps,
  },
  { $id: 'User' },
);
export const User = ref(UserComponent);

const DeliveryAttemptComponent = Type.Object(
  {
    object: Type.Literal('webhook_delivery_attempt'),
    id: Type.String(),
    delivery_id: Type.String(),
    event_id: Type.String(),
    event: Type.String(),
    attempt: Type.Integer(),
    status_code: Type.Union([Type.Integer(), Type.Null()], {
      description: 'HTTP status of the response; null when no response came.',
    }),
    latency_ms: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
    response_body: Type.String({ description: 'The first kilobyte of the response body.' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'DeliveryAttempt' },
);
export const DeliveryAttempt = ref(DeliveryAttemptComponent);

const ListMetadataComponent = Type.Object(
  {
    before: Type.Union([Type.String(), Type.Null()]),
    after: Type.Union([Type.String(), Type.Null()]),
  },
  { $id: 'ListMetadata' },
);
export const ListMetadata = ref(ListMetadataComponent);

export const PaginationQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    before: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_]+$' })),
    after: Type.Optional(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9_]+$' })),
    order: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')], { default: 'desc' })),
  },
  { additionalProperties: false },
);

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

/** A user's id in the caller's own system (WorkOS: at most 64 characters). */
export const ExternalId = Type.String({ minLength: 1, maxLength: 64, description: "The user's id in your system." });

const MetadataValue = Type.String({
  maxLength: 600,
  pattern: '^[\\x00-\\x7F]*$',
  errorMessage: 'must be ASCII, at most 600 characters',
});
// A record's key schema is not a check: the names' own limits are.
const metadataLimits = { maxProperties: 10, propertyNames: { maxLength: 40, pattern: STORE_SAFE_KEY } };

/** WorkOS's metadata: at most 10 pairs, names of at most 40 characters, ASCII values of at most 600. */
export const UserMetadata = Type.Record(Type.String(), MetadataValue, metadataLimits);

/** An update's metadata: the same limits; a null value removes its key. */
export const UserMetadataChanges = Type.Record(Type.String(), Type.Union([MetadataValue, Type.Null()]), metadataLimits);

const EventComponent = Type.Object(
  {
    object: Type.Literal('event'),
    id: Type.String(),
    event: Type.String({ description: 'The event type, dotted (user.created).' }),
    data: Type.Record(Type.String(), Type.Unknown(), { description: 'The object the event is about, as it was.' }),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'Event' },
);
export const Event = ref(EventComponent);

export const security = [{ apiKey: [] }];

/** The shapes the routes share: named components of /openapi.json, registered once by app.ts. */
export const components = [
  ErrorBodyComponent,
  CorsOriginComponent,
  RedirectUriComponent,
  JwtTemplateComponent,
  WebhookEndpointComponent,
  UserComponent,
  EventComponent,
  DeliveryAttemptComponent,
  ListMetadataComponent,
];
