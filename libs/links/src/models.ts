import { Schema, defineModel, outboxSchemaFields, type Connection, type StoredOutboxEntry } from '@platform/mongo';
import type { QrCodeType } from './list-query.js';

/** Distinct tags a group's links may carry (Bitly's limit; its tag list returns them all). */
export const MAX_TAGS_PER_GROUP = 1000;

interface Outboxed {
  outbox: StoredOutboxEntry[];
  has_outbox: boolean;
}

export const GROUP_ROLES = ['GROUP_ADMIN', 'GROUP_EDITOR', 'GROUP_USER'] as const;
export type GroupRole = (typeof GROUP_ROLES)[number];

export interface GroupDoc {
  _id: string;
  organization_id: string;
  name: string;
  is_active: boolean;
  /** Branded domains the group may use (besides the default short domain). */
  bsds: string[];
  domain_preference: string | null;
  members: Array<{ user_id: string; role: GroupRole }>;
  created_at: Date;
  modified_at: Date;
}

export interface ProfileDoc {
  _id: string;
  organization_id: string;
  default_group_guid: string;
  name: string | null;
  created_at: Date;
  modified_at: Date;
}

export interface DomainDoc {
  _id: string;
  organization_id: string;
  group_guids: string[];
  redirect_status: 301 | 302;
  created_at: Date;
}

export interface Deeplink {
  guid: string;
  app_uri_path: string;
  install_url: string;
  app_guid: string;
  os: string;
  install_type: string;
  brand_guid: string;
  created: Date;
  modified: Date;
}

export interface LinkDoc extends Outboxed {
  /** `domain/hash`: what the redirector looks up. */
  _id: string;
  organization_id: string;
  group_guid: string;
  domain: string;
  hash: string;
  /** A keyword on a branded domain. */
  custom: boolean;
  long_url: string;
  /** `<group>\n<long url>` for links a shorten may return again; null for forced and custom links. */
  reuse_key: string | null;
  title: string | null;
  tags: string[];
  deeplinks: Deeplink[];
  campaign_ids: string[];
  /** Its QR codes: the redirector counts a redirect through one of them (`?qr=<id>`) as a scan. */
  qr_code_ids?: string[];
  /** The first redirect seen (a click or a scan); a QR code whose link was redirected cannot be deleted. */
  redirected_at?: Date | null;
  archived: boolean;
  expiration_at: Date | null;
  redirect_status: 301 | 302;
  created_at: Date;
  /** The login (user name) of its creator. */
  created_by: string;
  modified_at: Date;
  deleted_at: Date | null;
  /** The command that made it: a redelivered command finds its own link instead of making another. */
  command_id: string;
}

/** The fields of a link that a redirect reads. */
export type LinkRedirectFields = Pick<
  LinkDoc,
  | '_id'
  | 'organization_id'
  | 'group_guid'
  | 'long_url'
  | 'redirect_status'
  | 'expiration_at'
  | 'qr_code_ids'
  | 'archived'
  | 'deleted_at'
>;
export const REDIRECT_PROJECTION = {
  organization_id: 1,
  group_guid: 1,
  long_url: 1,
  redirect_status: 1,
  expiration_at: 1,
  qr_code_ids: 1,
  archived: 1,
  deleted_at: 1,
} as const;

export interface CampaignDoc {
  _id: string;
  organization_id: string;
  group_guid: string;
  name: string;
  description: string;
  channel_guids: string[];
  /** The login of its creator. */
  created_by: string;
  created_at: Date;
  modified_at: Date;
}

export interface ChannelDoc {
  _id: string;
  organization_id: string;
  group_guid: string;
  name: string;
  shortlinks: Array<{ campaign_guid: string; shortlink_id: string }>;
  created_at: Date;
  modified_at: Date;
}

export interface QrCodeDoc {
  _id: string;
  organization_id: string;
  group_guid: string;
  title: string;
  qr_code_type: QrCodeType;
  /** The short link it encodes (with `?qr=<id>`), made for it when it was created from a long URL. */
  shortlink_id: string;
  long_url: string;
  /** The validated render customizations, as given. */
  render_customizations: Record<string, unknown>;
  is_customized: boolean;
  gs1: { values: Array<{ key: string; value: string }> } | null;
  tags: string[];
  archived: boolean;
  created_by: string;
  created_at: Date;
  modified_at: Date;
  command_id: string;
}

export interface QrLogoDoc {
  _id: string;
  organization_id: string;
  media_type: string;
  width: number;
  height: number;
  bytes: Buffer;
  created_by: string;
  created_at: Date;
}

/** What an operator enabled for an organization. */
export interface LinksOrganizationDoc {
  _id: string;
  static_qr_codes: boolean;
  modified_at: Date;
}

/** The events a webhook may name: Bitly's click (`decodes`) and the life of a link. */
export const WEBHOOK_EVENTS = ['decodes', 'shortlink_created', 'shortlink_changed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export interface WebhookDoc extends Outboxed {
  _id: string;
  organization_id: string;
  /** Only this group's links; null for every group of the organization. */
  group_guid: string | null;
  name: string;
  event: WebhookEvent;
  url: string;
  is_active: boolean;
  /** When deliveries last started failing (Bitly's `alerted`); `is_alert` while they still fail. */
  alerted_at: Date | null;
  is_alert: boolean;
  /** When the platform turned it off after failed deliveries (a user's is_active false is not this). */
  deactivated_at: Date | null;
  /** Client-credentials grant towards the receiver, its secret sealed. */
  oauth: { url: string; client_id: string; sealed_client_secret: string } | null;
  fetch_tags: boolean;
  /** Deliveries per second at most to `url`; null or absent (webhooks made before it existed): no limit. */
  rate_limit?: number | null;
  /** The events about one link (its clicks too) arrive in order; absent: false. */
  ordered?: boolean;
  /** The Standard Webhooks signing secret (`whsec_...`), sealed. */
  sealed_signing_secret: string;
  created_at: Date;
  modified_at: Date;
  /** The login of who last changed it. */
  modified_by: string;
}

const options = { versionKey: false as const, minimize: false };

/** The links collections (private to this lib: readers use the store, links-worker the writer). */
export function linkModels(connection: Connection) {
  const group = new Schema<GroupDoc>(
    {
      _id: String,
      organization_id: { type: String, required: true, index: true },
      name: String,
      is_active: { type: Boolean, default: true },
      bsds: { type: [String], default: [] },
      domain_preference: { type: String, default: null },
      members: { type: [{ _id: false, user_id: String, role: String }], default: [] },
      created_at: Date,
      modified_at: Date,
    },
    { ...options, collection: 'links_groups' },
  );
  const profile = new Schema<ProfileDoc>(
    {
      _id: String,
      organization_id: String,
      default_group_guid: String,
      name: { type: String, default: null },
      created_at: Date,
      modified_at: Date,
    },
    { ...options, collection: 'links_profiles' },
  );
  const domain = new Schema<DomainDoc>(
    {
      _id: String,
      organization_id: { type: String, index: true },
      group_guids: { type: [String], default: [] },
      redirect_status: Number,
      created_at: Date,
    },
    { ...options, collection: 'links_domains' },
  );
  const link = new Schema<LinkDoc>(
    {
      _id: String,
      organization_id: { type: String, required: true },
      group_guid: { type: String, required: true },
      domain: String,
      hash: String,
      custom: Boolean,
      long_url: String,
      reuse_key: { type: String, default: null, index: true },
      title: { type: String, default: null },
      tags: { type: [String], default: [] },
      deeplinks: {
        type: [
          {
            _id: false,
            guid: String,
            app_uri_path: String,
            install_url: String,
            app_guid: String,
            os: String,
            install_type: String,
            brand_guid: String,
            created: Date,
            modified: Date,
          },
        ],
        default: [],
      },
      campaign_ids: { type: [String], default: [] },
      qr_code_ids: { type: [String], default: [] },
      redirected_at: { type: Date, default: null },
      archived: { type: Boolean, default: false },
      expiration_at: { type: Date, default: null },
      redirect_status: Number,
      created_at: Date,
      created_by: String,
      modified_at: Date,
      deleted_at: { type: Date, default: null },
      command_id: String,
      ...outboxSchemaFields,
    },
    { ...options, collection: 'links_links' },
  ).index({ group_guid: 1, created_at: -1, _id: -1 });

  const campaign = new Schema<CampaignDoc>(
    {
      _id: String,
      organization_id: { type: String, required: true },
      group_guid: { type: String, required: true },
      name: String,
      description: String,
      channel_guids: { type: [String], default: [] },
      created_by: String,
      created_at: Date,
      modified_at: Date,
    },
    { ...options, collection: 'links_campaigns' },
  ).index({ organization_id: 1, group_guid: 1, created_at: -1 });
  const channel = new Schema<ChannelDoc>(
    {
      _id: String,
      organization_id: { type: String, required: true },
      group_guid: { type: String, required: true },
      name: String,
      shortlinks: { type: [{ _id: false, campaign_guid: String, shortlink_id: String }], default: [] },
      created_at: Date,
      modified_at: Date,
    },
    { ...options, collection: 'links_channels' },
  ).index({ organization_id: 1, group_guid: 1, created_at: -1 });

  const webhook = new Schema<WebhookDoc>(
    {
      _id: String,
      organization_id: { type: String, required: true, index: true },
      group_guid: { type: String, default: null },
      name: String,
      event: String,
      url: String,
      is_active: Boolean,
      alerted_at: { type: Date, default: null },
      is_alert: { type: Boolean, default: false },
      deactivated_at: { type: Date, default: null },
      oauth: { type: Schema.Types.Mixed, default: null },
      fetch_tags: { type: Boolean, default: false },
      rate_limit: { type: Number, default: null },
      ordered: { type: Boolean, default: false },
      sealed_signing_secret: String,
      created_at: Date,
      modified_at: Date,
      modified_by: String,
      ...outboxSchemaFields,
    },
    { ...options, collection: 'links_webhooks' },
  );

  const qrCode = new Schema<QrCodeDoc>(
    {
      _id: String,
      organization_id: { type: String, required: true },
      group_guid: { type: String, required: true },
      title: String,
      qr_code_type: String,
      shortlink_id: { type: String, index: true },
      long_url: String,
      render_customizations: { type: Schema.Types.Mixed, default: {} },
      is_customized: Boolean,
      gs1: { type: Schema.Types.Mixed, default: null },
      tags: { type: [String], default: [] },
      archived: { type: Boolean, default: false },
      created_by: String,
      created_at: Date,
      modified_at: Date,
      command_id: String,
    },
    { ...options, collection: 'links_qr_codes' },
  ).index({ group_guid: 1, created_at: -1, _id: -1 });
  const qrLogo = new Schema<QrLogoDoc>(
    {
      _id: String,
      organization_id: String,
      media_type: String,
      width: Number,
      height: Number,
      bytes: Buffer,
      created_by: String,
      created_at: Date,
    },
    { ...options, collection: 'links_qr_logos' },
  );
  const organization = new Schema<LinksOrganizationDoc>(
    { _id: String, static_qr_codes: { type: Boolean, default: false }, modified_at: Date },
    { ...options, collection: 'links_organizations' },
  );

  const model = <T>(name: string, schema: Schema<T>) => defineModel(connection, name, schema);
  return {
    Group: model('LinksGroup', group),
    Profile: model('LinksProfile', profile),
    Domain: model('LinksDomain', domain),
    Link: model('LinksLink', link),
    Campaign: model('LinksCampaign', campaign),
    Channel: model('LinksChannel', channel),
    Webhook: model('LinksWebhook', webhook),
    QrCode: model('LinksQrCode', qrCode),
    QrLogo: model('LinksQrLogo', qrLogo),
    Organization: model('LinksOrganization', organization),
  };
}

export const reuseKeyOf = (groupGuid: string, longUrl: string) => `${groupGuid}\n${longUrl}`;

export type LinkModels = ReturnType<typeof linkModels>;

/** FerretDB leaves out the empty arrays of an upsert's `$setOnInsert`: reads put them back. */
export const withGroupDefaults = (g: GroupDoc): GroupDoc => ({
  ...g,
  bsds: g.bsds ?? [],
  members: g.members ?? [],
  domain_preference: g.domain_preference ?? null,
});
