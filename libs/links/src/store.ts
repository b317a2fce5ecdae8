import {
  Schema,
  aggregateWriter,
  defineModel,
  isDuplicateKeyError,
  outboxSchemaFields,
  type Connection,
  type OutboxCollection,
  type StoredOutboxEntry,
} from '@platform/mongo';
import type { LinkListQuery, QrCodeType, QrListQuery } from './list-query.js';

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
const REDIRECT_PROJECTION = {
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
  /** The Standard Webhooks signing secret (`whsec_...`), sealed. */
  sealed_signing_secret: string;
  created_at: Date;
  modified_at: Date;
  /** The login of who last changed it. */
  modified_by: string;
}

const options = { versionKey: false as const, minimize: false };

/** The links collections (private to this lib: readers use the store, links-worker the writer). */
function linkModels(connection: Connection) {
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

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type SearchQuery = Pick<LinkListQuery, 'createdBefore' | 'createdAfter' | 'query' | 'hostnamePathQuery'>;

/** The filters both lists share: creation time, a search over `searchIn`, and host and path of the long URL. */
function searchFilters(
  query: SearchQuery,
  searchIn: string[],
  filter: Record<string, unknown>,
  and: Array<Record<string, unknown>>,
): void {
  const created: Record<string, Date> = {};
  if (query.createdBefore !== null) created['$lt'] = new Date(query.createdBefore * 1000);
  if (query.createdAfter !== null) created['$gt'] = new Date(query.createdAfter * 1000);
  if (Object.keys(created).length > 0) filter['created_at'] = created;
  if (query.query) {
    const pattern = new RegExp(escapeRegex(query.query), 'i');
    and.push({ $or: searchIn.map((field) => ({ [field]: pattern })) });
  }
  if (query.hostnamePathQuery) {
    // Host (subdomains included) and/or path of the long URL, ignoring its query and fragment.
    and.push({
      long_url: new RegExp(`^https?://([^/?#]*\\.)?${escapeRegex(query.hostnamePathQuery)}`, 'i'),
    });
  }
}

/** After the `search_after` position: older, or as old with a smaller id. */
function after(position: { createdAt: number; id: string }): Record<string, unknown> {
  const at = new Date(position.createdAt);
  return { $or: [{ created_at: { $lt: at } }, { created_at: at, _id: { $lt: position.id } }] };
}

/** FerretDB leaves out the empty arrays of an upsert's `$setOnInsert`: reads put them back. */
const withGroupDefaults = (g: GroupDoc): GroupDoc => ({
  ...g,
  bsds: g.bsds ?? [],
  members: g.members ?? [],
  domain_preference: g.domain_preference ?? null,
});

/** Reads of the links data. */
export function createLinksStore(connection: Connection) {
  const m = linkModels(connection);
  return {
    async getGroup(guid: string): Promise<GroupDoc | null> {
      const group = await m.Group.findById(guid).lean<GroupDoc>();
      return group ? withGroupDefaults(group) : null;
    },
    groupsOfOrganization: async (organizationId: string) =>
      (await m.Group.find({ organization_id: organizationId }).sort({ created_at: 1 }).lean<GroupDoc[]>()).map(
        withGroupDefaults,
      ),
    groupsOfUser: async (userId: string) =>
      (await m.Group.find({ 'members.user_id': userId }).sort({ created_at: 1 }).lean<GroupDoc[]>()).map(
        withGroupDefaults,
      ),
    getProfile: (userId: string) => m.Profile.findById(userId).lean<ProfileDoc>(),
    getDomain: (domain: string) => m.Domain.findById(domain.toLowerCase()).lean<DomainDoc>(),
    domainsOfOrganization: async (organizationId: string) =>
      (await m.Domain.find({ organization_id: organizationId }).sort({ _id: 1 }).lean<DomainDoc[]>()).map((d) => ({
        ...d,
        group_guids: d.group_guids ?? [],
      })),
    /** A link by id, deleted ones excluded. */
    async getLink(id: string): Promise<LinkDoc | null> {
      return m.Link.findOne({ _id: id, deleted_at: null }).lean<LinkDoc>();
    },
    /**
     * What a redirect needs of many links, in one read (those not found, or deleted, are absent): a redirector's
     * cache reading again the links it serves.
     */
    async getRedirectTargets(ids: readonly string[]): Promise<LinkRedirectFields[]> {
      if (ids.length === 0) return [];
      return m.Link.find({ _id: { $in: ids }, deleted_at: null }, REDIRECT_PROJECTION).lean<LinkRedirectFields[]>();
    },
    /** The link a shorten returns again: the group's non-custom, unforced link for the same long URL. */
    async reusable(groupGuid: string, longUrl: string): Promise<LinkDoc | null> {
      return m.Link.findOne({ reuse_key: reuseKeyOf(groupGuid, longUrl), deleted_at: null }).lean<LinkDoc>();
    },
    /** A page of a group's links, newest first, after the `search_after` position. */
    /**
     * A page of a group's links, newest first, how many links the filters match in all (`search_after` and `page`
     * position the page; they do not change the total), and whether more follow.
     */
    async listLinks(
      groupGuid: string,
      query: LinkListQuery,
      linkIds?: string[],
    ): Promise<{ links: LinkDoc[]; total: number; more: boolean }> {
      const filter: Record<string, unknown> = { group_guid: groupGuid, deleted_at: null };
      const and: Array<Record<string, unknown>> = [];
      if (linkIds) filter['_id'] = { $in: linkIds };
      else {
        if (query.archived !== 'both') filter['archived'] = query.archived === 'on';
        if (query.customShortlink !== 'both') filter['custom'] = query.customShortlink === 'on';
        if (query.deeplinks !== 'both') filter['deeplinks.0'] = { $exists: query.deeplinks === 'on' };
        if (query.hasQrCodes !== 'both') filter['qr_code_ids.0'] = { $exists: query.hasQrCodes === 'on' };
        if (query.tags.length > 0) filter['tags'] = { $in: query.tags };
        if (query.campaignGuid) filter['campaign_ids'] = query.campaignGuid;
        if (query.encodingLogin.length > 0) filter['created_by'] = { $in: query.encodingLogin };
        searchFilters(query, ['title', 'long_url', '_id', 'tags'], filter, and);
      }
      const matching = and.length > 0 ? { ...filter, $and: [...and] } : filter;
      if (query.searchAfter) and.push(after(query.searchAfter));
      const paged = and.length > 0 ? { ...filter, $and: and } : filter;
      const skip = query.searchAfter ? 0 : (query.page - 1) * query.size;
      // One link past the page tells whether another page follows.
      const [found, total] = await Promise.all([
        m.Link.find(paged)
          .sort({ created_at: -1, _id: -1 })
          .skip(skip)
          .limit(query.size + 1)
          .lean<LinkDoc[]>(),
        m.Link.countDocuments(matching),
      ]);
      return { links: found.slice(0, query.size), total, more: found.length > query.size };
    },
    /** How many links of a group were made in [from, to) (deleted ones too: they were made). */
    countLinksCreated(groupGuid: string, from: Date, to: Date, customOnly = false): Promise<number> {
      const filter: Record<string, unknown> = { group_guid: groupGuid, created_at: { $gte: from, $lt: to } };
      if (customOnly) filter['custom'] = true;
      return m.Link.countDocuments(filter);
    },
    getCampaign: (guid: string) =>
      m.Campaign.findById(guid)
        .lean<CampaignDoc>()
        .then((c) => (c ? { ...c, channel_guids: c.channel_guids ?? [] } : null)),
    async campaignsOf(organizationId: string, groupGuids: string[]): Promise<CampaignDoc[]> {
      const found = await m.Campaign.find({ organization_id: organizationId, group_guid: { $in: groupGuids } })
        .sort({ created_at: -1, _id: -1 })
        .limit(1000)
        .lean<CampaignDoc[]>();
      return found.map((c) => ({ ...c, channel_guids: c.channel_guids ?? [] }));
    },
    getChannel: (guid: string) =>
      m.Channel.findById(guid)
        .lean<ChannelDoc>()
        .then((c) => (c ? { ...c, shortlinks: c.shortlinks ?? [] } : null)),
    async channelsOf(organizationId: string, groupGuids: string[]): Promise<ChannelDoc[]> {
      const found = await m.Channel.find({ organization_id: organizationId, group_guid: { $in: groupGuids } })
        .sort({ created_at: -1, _id: -1 })
        .limit(1000)
        .lean<ChannelDoc[]>();
      return found.map((c) => ({ ...c, shortlinks: c.shortlinks ?? [] }));
    },
    async tagsOfGroup(groupGuid: string): Promise<string[]> {
      const tags = (await m.Link.distinct('tags', { group_guid: groupGuid, deleted_at: null })) as string[];
      return tags.sort().slice(0, MAX_TAGS_PER_GROUP);
    },
    /** How many distinct tags the group's links would carry with `tags` added to them. */
    async groupTagCountWith(groupGuid: string, tags: readonly string[]): Promise<number> {
      const existing = new Set(
        (await m.Link.distinct('tags', { group_guid: groupGuid, deleted_at: null })) as string[],
      );
      return existing.size + new Set(tags.filter((t) => !existing.has(t))).size;
    },
    getQrCode: (id: string) =>
      m.QrCode.findById(id)
        .lean<QrCodeDoc>()
        .exec()
        .then((q) => (q ? { ...q, tags: q.tags ?? [], render_customizations: q.render_customizations ?? {} } : null)),
    /** A page of a group's QR codes, newest first, after the `search_after` position. */
    async listQrCodes(groupGuid: string, query: QrListQuery): Promise<QrCodeDoc[]> {
      const filter: Record<string, unknown> = { group_guid: groupGuid, qr_code_type: { $in: query.qrcTypes } };
      const and: Array<Record<string, unknown>> = [];
      if (query.archived !== 'both') filter['archived'] = query.archived === 'on';
      if (query.hasRenderCustomizations !== 'both') filter['is_customized'] = query.hasRenderCustomizations === 'on';
      if (query.isGs1 !== 'both') filter['gs1'] = query.isGs1 === 'on' ? { $ne: null } : null;
      if (query.tags.length > 0) filter['tags'] = { $in: query.tags };
      if (query.creatingLogin.length > 0) filter['created_by'] = { $in: query.creatingLogin };
      searchFilters(query, ['title', 'long_url', 'shortlink_id', 'tags'], filter, and);
      if (query.searchAfter) and.push(after(query.searchAfter));
      if (and.length > 0) filter['$and'] = and;
      const found = await m.QrCode.find(filter).sort({ created_at: -1, _id: -1 }).limit(query.size).lean<QrCodeDoc[]>();
      return found.map((q) => ({ ...q, tags: q.tags ?? [], render_customizations: q.render_customizations ?? {} }));
    },
    async qrTagsOfGroup(groupGuid: string): Promise<string[]> {
      const tags = (await m.QrCode.distinct('tags', { group_guid: groupGuid })) as string[];
      return tags.sort().slice(0, 1000);
    },
    async getQrLogo(guid: string): Promise<QrLogoDoc | null> {
      const logo = await m.QrLogo.findById(guid).lean<QrLogoDoc>();
      if (!logo) return null;
      // A lean read gives BSON Binary, not a Buffer.
      const raw = logo.bytes as unknown as Buffer | { buffer: Uint8Array };
      return { ...logo, bytes: Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer) };
    },
    async organizationFeatures(organizationId: string): Promise<{ static_qr_codes: boolean }> {
      const org = await m.Organization.findById(organizationId).lean<LinksOrganizationDoc>();
      return { static_qr_codes: org?.static_qr_codes ?? false };
    },
    getWebhook: (guid: string) => m.Webhook.findById(guid).lean<WebhookDoc>().exec(),
    webhooksOfOrganization: (organizationId: string) =>
      m.Webhook.find({ organization_id: organizationId })
        .sort({ created_at: 1, _id: 1 })
        .limit(1000)
        .lean<WebhookDoc[]>()
        .exec(),
    /** The organization's active webhooks for an event (organization-wide and group ones alike). */
    activeWebhooks: (organizationId: string, event: WebhookEvent) =>
      m.Webhook.find({ organization_id: organizationId, event, is_active: true }).lean<WebhookDoc[]>().exec(),
    outboxCollections(): OutboxCollection[] {
      return [m.Link, m.Webhook].map((x) => connection.db!.collection(x.collection.collectionName));
    },
    async ensureIndexes() {
      await Promise.all(Object.values(m).map((x) => x.init()));
    },
  };
}

export type LinksStore = ReturnType<typeof createLinksStore>;

/** The links writes: owned by links-worker (a lint rule keeps other apps to the store and to commands). */
export function createLinksWriter(connection: Connection) {
  const m = linkModels(connection);
  const links = aggregateWriter<LinkDoc>(m.Link);
  const webhooks = aggregateWriter<WebhookDoc>(m.Webhook);
  return {
    links,
    /** Inserts a QR code; false when its id is taken (a redelivered create made it). */
    async insertQrCode(doc: QrCodeDoc): Promise<boolean> {
      try {
        await m.QrCode.create(doc);
        return true;
      } catch (error) {
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },
    async updateQrCode(id: string, changes: Partial<Omit<QrCodeDoc, '_id'>>): Promise<void> {
      await m.QrCode.updateOne({ _id: id }, { $set: changes });
    },
    async deleteQrCode(id: string): Promise<void> {
      await m.QrCode.deleteOne({ _id: id });
    },
    async saveQrLogo(doc: QrLogoDoc): Promise<void> {
      const { _id, ...fields } = doc;
      await m.QrLogo.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true }).catch((error: unknown) => {
        if (!isDuplicateKeyError(error)) throw error;
      });
    },
    async setOrganizationFeatures(
      organizationId: string,
      features: { static_qr_codes?: boolean },
      at: Date,
    ): Promise<void> {
      await m.Organization.updateOne(
        { _id: organizationId },
        { $set: { ...features, modified_at: at } },
        { upsert: true },
      );
    },
    /** Notes a link's first redirect (one write per link: later ones match nothing). */
    async markRedirected(id: string, at: Date): Promise<void> {
      await m.Link.updateOne({ _id: id, redirected_at: null }, { $set: { redirected_at: at } });
    },
    /** Inserts a webhook; false when a redelivered create already made it. */
    insertWebhook: (doc: Omit<WebhookDoc, 'outbox' | 'has_outbox'>) => webhooks.insertOnce(doc, []),
    async updateWebhook(
      guid: string,
      changes: Partial<Omit<WebhookDoc, '_id' | 'outbox' | 'has_outbox'>>,
    ): Promise<void> {
      await m.Webhook.updateOne({ _id: guid }, { $set: changes });
    },
    async deleteWebhook(guid: string): Promise<void> {
      await m.Webhook.deleteOne({ _id: guid });
    },
    /** Queues events (a ping's delivery request) with the webhook, for the outbox relay to publish. */
    async queueWebhookEvents(guid: string, events: StoredOutboxEntry[]): Promise<boolean> {
      return webhooks.change({ _id: guid }, {}, events);
    },
    /** Inserts a link; false when its id is taken (a hash collided, a keyword is in use, or a redone command made it). */
    insertLink(doc: Omit<LinkDoc, 'outbox' | 'has_outbox'>, events: StoredOutboxEntry[]): Promise<boolean> {
      return links.insertOnce(doc, events);
    },
    /** Creates the group if missing and gives the user the role in it (replacing a role they had). */
    async upsertGroupMember(
      group: { guid: string; organization_id: string; name: string | null },
      userId: string,
      role: GroupRole,
      at: Date,
    ): Promise<void> {
      if (group.name !== null) {
        await m.Group.updateOne(
          { _id: group.guid },
          {
            $setOnInsert: {
              organization_id: group.organization_id,
              name: group.name,
              is_active: true,
              bsds: [],
              domain_preference: null,
              members: [],
              created_at: at,
              modified_at: at,
            },
          },
          { upsert: true },
        ).catch((error: unknown) => {
          if (!isDuplicateKeyError(error)) throw error;
        });
      }
      await m.Group.updateOne({ _id: group.guid }, { $pull: { members: { user_id: userId } } });
      await m.Group.updateOne(
        { _id: group.guid },
        { $push: { members: { user_id: userId, role } }, $set: { modified_at: at } },
      );
    },
    /** The user's profile, made with this default group on first use. */
    async ensureProfile(userId: string, organizationId: string, defaultGroupGuid: string, at: Date): Promise<void> {
      await m.Profile.updateOne(
        { _id: userId },
        {
          $setOnInsert: {
            organization_id: organizationId,
            default_group_guid: defaultGroupGuid,
            name: null,
            created_at: at,
            modified_at: at,
          },
        },
        { upsert: true },
      ).catch((error: unknown) => {
        if (!isDuplicateKeyError(error)) throw error;
      });
    },
    /** Sets the named group fields; a new bsds list also updates which groups each domain lists. */
    async updateGroup(
      guid: string,
      changes: Partial<Pick<GroupDoc, 'name' | 'bsds' | 'domain_preference'>>,
      at: Date,
    ): Promise<void> {
      const before = await m.Group.findById(guid, { bsds: 1 }).lean<Pick<GroupDoc, 'bsds'>>();
      await m.Group.updateOne({ _id: guid }, { $set: { ...changes, modified_at: at } });
      if (changes.bsds) {
        const removed = (before?.bsds ?? []).filter((d) => !changes.bsds!.includes(d));
        if (changes.bsds.length > 0)
          await m.Domain.updateMany({ _id: { $in: changes.bsds } }, { $addToSet: { group_guids: guid } });
        if (removed.length > 0) await m.Domain.updateMany({ _id: { $in: removed } }, { $pull: { group_guids: guid } });
      }
    },
    async updateProfile(
      userId: string,
      changes: Partial<Pick<ProfileDoc, 'name' | 'default_group_guid'>>,
      at: Date,
    ): Promise<void> {
      await m.Profile.updateOne({ _id: userId }, { $set: { ...changes, modified_at: at } });
    },
    /** Creates the campaign if missing (a redelivered create finds it), then sets the given fields. */
    async saveCampaign(
      doc: CampaignDoc,
      changes: Partial<Pick<CampaignDoc, 'name' | 'description' | 'channel_guids'>>,
      create: boolean,
    ): Promise<void> {
      if (create) {
        const { _id, ...fields } = doc;
        await m.Campaign.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true }).catch((error: unknown) => {
          if (!isDuplicateKeyError(error)) throw error;
        });
      } else {
        await m.Campaign.updateOne({ _id: doc._id }, { $set: { ...changes, modified_at: doc.modified_at } });
      }
    },
    async saveChannel(
      doc: ChannelDoc,
      changes: Partial<Pick<ChannelDoc, 'name' | 'shortlinks'>>,
      create: boolean,
    ): Promise<void> {
      if (create) {
        const { _id, ...fields } = doc;
        await m.Channel.updateOne({ _id }, { $setOnInsert: fields }, { upsert: true }).catch((error: unknown) => {
          if (!isDuplicateKeyError(error)) throw error;
        });
      } else {
        await m.Channel.updateOne({ _id: doc._id }, { $set: { ...changes, modified_at: doc.modified_at } });
      }
    },
    /** Links of a channel enter a campaign (what `campaign_guid` filters and `campaign_ids` shows), and the channel with them. */
    async addLinksToCampaign(campaignGuid: string, linkIds: string[], channelGuid: string): Promise<void> {
      if (linkIds.length > 0)
        await m.Link.updateMany({ _id: { $in: linkIds } }, { $addToSet: { campaign_ids: campaignGuid } });
      await m.Campaign.updateOne({ _id: campaignGuid }, { $addToSet: { channel_guids: channelGuid } });
    },
    async addDomain(doc: DomainDoc): Promise<void> {
      await m.Domain.updateOne(
        { _id: doc._id },
        {
          $set: {
            organization_id: doc.organization_id,
            group_guids: doc.group_guids,
            redirect_status: doc.redirect_status,
          },
          $setOnInsert: { created_at: doc.created_at },
        },
        { upsert: true },
      );
      await m.Group.updateMany({ _id: { $in: doc.group_guids } }, { $addToSet: { bsds: doc._id } });
    },
  };
}

export type LinksWriter = ReturnType<typeof createLinksWriter>;
