import { Type } from '@platform/http';
import { WEBHOOK_EVENTS } from '@platform/links';
import { BitlyTime, OptionalNullableSaying } from '../../schemas.js';

/** Bitly's other names for `decodes` (`engagement` in its current documents, `click` in older clients). */
export const EVENT_ALIASES: Record<string, (typeof WEBHOOK_EVENTS)[number]> = {
  engagement: 'decodes',
  click: 'decodes',
};

export const Event = Type.Union(
  [...WEBHOOK_EVENTS, ...Object.keys(EVENT_ALIASES)].map((e) => Type.Literal(e)),
  {
    description:
      'decodes: each click (engagement and click are other names for it, stored as decodes); shortlink_created, shortlink_changed: the life of a link.',
  },
);

/** A webhook as every operation shows it (`webhookJson` of @platform/links). */
const webhookMembers = {
  // webhookJson types it as a record; its members are documented here.
  references: Type.Unsafe<Record<string, string>>(
    Type.Object({
      organization: Type.String({ description: "The API address of the webhook's organization." }),
      group: Type.Optional(
        Type.String({ description: 'The API address of its group; absent when organization-wide.' }),
      ),
    }),
  ),
  guid: Type.String(),
  created: BitlyTime,
  modified: BitlyTime,
  modified_by: Type.String({ description: 'The login of who last changed it.' }),
  alerted: Type.String({ description: 'When a delivery failed and the alert was raised; empty when none.' }),
  deactivated: Type.String({ description: 'When failed deliveries turned it off; empty when they did not.' }),
  is_active: Type.Boolean(),
  is_alert: Type.Boolean({ description: 'A delivery failed and none has got through since.' }),
  organization_guid: Type.String(),
  group_guid: Type.String({ description: 'Empty for a webhook of the whole organization.' }),
  name: Type.String(),
  event: Type.String({ enum: [...WEBHOOK_EVENTS] }),
  url: Type.String(),
  status: Type.Union([Type.Literal('active'), Type.Literal('inactive'), Type.Literal('deactivated')], {
    description: 'inactive: turned off by its owner; deactivated: turned off after failed deliveries.',
  }),
  oauth_url: Type.String({ description: 'The client-credentials token endpoint; empty when none.' }),
  client_id: Type.String(),
  client_secret: Type.String({ description: 'Never the secret: ******** when one is set, else empty.' }),
  fetch_tags: Type.Boolean({ description: "Whether decodes events carry the link's tags." }),
  // Beyond Bitly's API (issue 42): what the webhook dispatcher honours for this webhook's URL.
  rate_limit: Type.Union([Type.Integer(), Type.Null()], {
    description: 'Deliveries per second at most to the URL (over it they wait; none is dropped); null: no limit.',
  }),
  ordered: Type.Boolean({
    description:
      'Events about one link (its clicks, its creation and changes) arrive in the order they happened: a later one waits until the earlier is delivered or given up.',
  }),
};

export const Webhook = Type.Object(webhookMembers);

/** The create's answer: the one time the signing secret is shown. */
export const CreatedWebhook = Type.Object({
  ...webhookMembers,
  signing_secret: Type.Union([Type.String(), Type.Null()], {
    description: 'whsec_...: deliveries carry Standard Webhooks signatures made with it. Shown this once.',
  }),
});

export const WebhookParams = Type.Object({ webhook_guid: Type.String({ minLength: 1, maxLength: 100 }) });

const URL_FORM = '[Hh][Tt][Tt][Pp][Ss]?://[^\\s#]+';
const URL_SENTENCE = 'must be an absolute http or https URL without a fragment';

/** Where it may point (never a private address) is the dispatcher's check. */
export const HttpUrl = Type.String({ maxLength: 2048, pattern: `^${URL_FORM}$`, errorMessage: URL_SENTENCE });

export const RATE_LIMIT_MAX = 10_000;

/** The members a create and a patch share; absent or null leaves a field as it is. */
export const webhookInput = {
  is_active: OptionalNullableSaying(Type.Boolean(), 'must be true or false'),
  group_guid: OptionalNullableSaying(
    Type.String({ maxLength: 100, description: 'Empty: the whole organization.' }),
    'must be a string of at most 100 characters',
  ),
  oauth_url: OptionalNullableSaying(
    Type.String({
      maxLength: 2048,
      pattern: `^(${URL_FORM})?$`,
      description: 'A client-credentials token endpoint, with client_id and client_secret; empty removes them.',
    }),
    `${URL_SENTENCE}, or empty`,
  ),
  client_id: OptionalNullableSaying(Type.String({ maxLength: 500 }), 'must be a string of at most 500 characters'),
  client_secret: OptionalNullableSaying(
    Type.String({ maxLength: 500, description: 'Sealed on arrival; never shown again.' }),
    'must be a string of at most 500 characters',
  ),
  fetch_tags: OptionalNullableSaying(Type.Boolean(), 'must be true or false'),
  ordered: OptionalNullableSaying(
    Type.Boolean({ description: 'Beyond Bitly: events about one link in the order they happened (default false).' }),
    'must be true or false',
  ),
  /** Unlike the others, null here removes the limit (absent leaves it as it is). */
  rate_limit: Type.Optional(
    Type.Union(
      [
        Type.Integer({
          minimum: 1,
          maximum: RATE_LIMIT_MAX,
          description: 'Beyond Bitly: deliveries per second at most to the URL; null removes the limit.',
        }),
        Type.Null(),
      ],
      { errorMessage: `must be a whole number from 1 to ${RATE_LIMIT_MAX}, or null for no limit` },
    ),
  ),
};

export const Name = Type.String({
  maxLength: 200,
  pattern: '\\S',
  errorMessage: 'must be 1 to 200 characters, not only spaces',
});
