import { Type, ref } from '@platform/http';
import type { ShortlinkJson } from '@platform/links';
import { BitlyTime, OptionalNullableSaying } from '../../schemas.js';

const Deeplink = Type.Object({
  guid: Type.String(),
  shortlink: Type.String({ description: 'The id of the short link it belongs to.' }),
  app_uri_path: Type.String(),
  install_url: Type.String(),
  app_guid: Type.String(),
  os: Type.String(),
  install_type: Type.String(),
  created: BitlyTime,
  modified: BitlyTime,
  brand_guid: Type.String(),
});

const shortlinkMembers = {
  references: Type.Object({ group: Type.String({ description: "The API address of the link's group." }) }),
  link: Type.String({ description: 'The short link itself, such as https://sho.rt/abc1234.' }),
  id: Type.String({ description: 'domain/hash, such as sho.rt/abc1234.' }),
  long_url: Type.String(),
  title: Type.String({ description: 'Empty when it has none.' }),
  archived: Type.Boolean(),
  created_at: BitlyTime,
  created_by: Type.String({ description: 'The login of its creator.' }),
  client_id: Type.String(),
  custom_shortlinks: Type.Array(Type.String(), { description: 'The link itself when it has a custom keyword.' }),
  tags: Type.Array(Type.String()),
  launchpad_ids: Type.Array(Type.String()),
  qr_code_ids: Type.Array(Type.String()),
  deeplinks: Type.Array(Deeplink),
  campaign_ids: Type.Array(Type.String()),
  expiration_at: Type.String({
    description: 'Such as 2026-01-28T14:30:00+0000; empty when the link does not expire.',
  }),
};

/**
 * A short link as every operation shows it: `shortlinkJson` of @platform/links, typed as that presenter (whose
 * `references` and `deeplinks` are loose records) and described member by member.
 */
export const Shortlink = Type.Unsafe<ShortlinkJson>(Type.Object(shortlinkMembers, { $id: 'Shortlink' }));

type ShortenedMember =
  'references' | 'link' | 'id' | 'long_url' | 'archived' | 'created_at' | 'custom_shortlinks' | 'tags' | 'deeplinks';

/** What `POST /v4/shorten` answers: a subset of the short link, as Bitly's does. */
export const ShortenedLink = Type.Unsafe<Pick<ShortlinkJson, ShortenedMember>>(
  Type.Object({
    references: shortlinkMembers.references,
    link: shortlinkMembers.link,
    id: shortlinkMembers.id,
    long_url: shortlinkMembers.long_url,
    archived: shortlinkMembers.archived,
    created_at: shortlinkMembers.created_at,
    custom_shortlinks: shortlinkMembers.custom_shortlinks,
    tags: shortlinkMembers.tags,
    deeplinks: shortlinkMembers.deeplinks,
  }),
);

export const ShortlinkList = Type.Object({
  links: Type.Array(ref(Shortlink)),
  pagination: Type.Object({
    prev: Type.String({ description: 'The address of the previous page (by number); empty on the first one.' }),
    next: Type.String({ description: 'The address of the next page; empty on the last one.' }),
    size: Type.Integer(),
    page: Type.Integer({ description: 'The number of this page (1 for the first).' }),
    total: Type.Integer({ description: 'How many links the filters match in all.' }),
    search_after: Type.String({ description: 'The token of the next page; empty on the last one.' }),
  }),
});

/**
 * `/v4/shortlinks/{domain}/{hash}` (or `/v4/bitlinks/...`); the id URL-encoded in one segment (`sho.rt%2Fabc1234`)
 * is routed here too (one-id-form.ts).
 */
const DomainHashParams = Type.Object({
  domain: Type.String({ minLength: 1, maxLength: 253, description: 'The short domain, such as sho.rt.' }),
  hash: Type.String({ minLength: 1, maxLength: 100, description: 'The back-half, such as abc1234.' }),
});
/** The two addresses of one short link: both collections. */
export const shortlinkPaths = ['/v4/shortlinks', '/v4/bitlinks'].map((base) => ({
  url: `${base}/:domain/:hash`,
  params: DomainHashParams,
}));

export const shortlinkIdOf = (params: { domain: string; hash: string }) => `${params.domain}/${params.hash}`;

/** The members a shorten reads; the rest of a body (a keyword, a title...) is ignored, as Bitly does. */
export const ShortenBody = Type.Object({
  long_url: Type.String({ description: 'http(s), at most 2048 characters; a scheme-less one is taken as http.' }),
  domain: OptionalNullableSaying(
    Type.String({ minLength: 1, maxLength: 64 }),
    'must be a domain name of at most 64 characters',
  ),
  group_guid: OptionalNullableSaying(Type.String({ maxLength: 100 }), 'must be a string of at most 100 characters'),
  force_new_link: OptionalNullableSaying(Type.Boolean(), 'must be true or false'),
});

export const GroupParams = Type.Object({ group_guid: Type.String({ minLength: 1, maxLength: 100 }) });

export const Title = OptionalNullableSaying(
  Type.String({ maxLength: 2048 }),
  'must be a string of at most 2048 characters',
);

export const MAX_TAGS = 100;

/** A list of tags (add_tags, remove_tags, tags). */
export const TagList = OptionalNullableSaying(
  Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: MAX_TAGS }),
  `must be a list of at most ${MAX_TAGS} strings of 1 to 50 characters`,
);

/** Its window (5 minutes to a year ahead) is the handler's check: it depends on the clock. */
export const ExpirationAt = OptionalNullableSaying(
  Type.Union([Type.String({ format: 'date-time' }), Type.Literal('')], {
    description: 'Such as 2026-01-28T14:30:00+0000, at least 5 minutes and at most a year ahead; empty: none.',
  }),
  'must be a time such as 2026-01-28T14:30:00+0000 (or empty for none)',
);

const DeeplinkMember = OptionalNullableSaying(Type.String({ maxLength: 2048 }), 'must be a string');

export const DeeplinkInput = Type.Object({
  app_uri_path: DeeplinkMember,
  install_url: DeeplinkMember,
  app_guid: DeeplinkMember,
  app_id: DeeplinkMember, // another name of app_guid
  os: DeeplinkMember,
  install_type: DeeplinkMember,
  brand_guid: DeeplinkMember,
});
