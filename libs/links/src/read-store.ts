import { findStored, type Connection, type Model, type OutboxCollection } from '@platform/mongo';
import { cachedDirectory, type Directory, type DirectoryCacheOptions, type DirectoryStamps } from './directory.js';
import type { LinkListQuery, QrListQuery } from './list-query.js';
import {
  MAX_TAGS_PER_GROUP,
  REDIRECT_PROJECTION,
  linkModels,
  reuseKeyOf,
  withGroupDefaults,
  type CampaignDoc,
  type ChannelDoc,
  type DomainDoc,
  type GroupDoc,
  type LinkDoc,
  type LinkRedirectFields,
  type LinksOrganizationDoc,
  type ProfileDoc,
  type QrCodeDoc,
  type QrLogoDoc,
  type WebhookDoc,
  type WebhookEvent,
} from './models.js';

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

/** An organization's campaigns or channels in the groups, newest first (at most 1 000). */
function ofGroups<T>(model: Model<T>, organizationId: string, groupGuids: string[]): Promise<T[]> {
  return model
    .find({ organization_id: organizationId, group_guid: { $in: groupGuids } } as never)
    .sort({ created_at: -1, _id: -1 })
    .limit(1000)
    .lean<T[]>()
    .exec();
}

/**
 * Reads of the links data. Every read of an organization's records takes the organization first and finds
 * nothing of another's: a request can name any id, and only the caller's own can come back. The reads that
 * span organizations say so: a short domain and a link's redirect fields (domains are the platform's,
 * and the redirector serves every organization's links).
 *
 * With `directory`, the group, profile and short-domain reads are answered from memory while their stamps hold
 * (see cachedDirectory): for the processes that read them on every shorten.
 */
export function createLinksStore(
  connection: Connection,
  options: { directory?: { stamps: DirectoryStamps } & DirectoryCacheOptions } = {},
) {
  const m = linkModels(connection);
  const store = {
    // The reads every shorten makes (the caller's default group, the group, the long URL's host) go to the
    // driver: mongoose's query casting cost the gateway more than the read (issue 41). The documents are the
    // stored ones, as `lean` gives them.
    async getGroup(organizationId: string, guid: string): Promise<GroupDoc | null> {
      const group = await findStored<GroupDoc>(m.Group, { _id: guid, organization_id: organizationId });
      return group ? withGroupDefaults(group) : null;
    },
    groupsOfOrganization: async (organizationId: string) =>
      (await m.Group.find({ organization_id: organizationId }).sort({ created_at: 1 }).lean<GroupDoc[]>()).map(
        withGroupDefaults,
      ),
    groupsOfUser: async (organizationId: string, userId: string) =>
      (
        await m.Group.find({ organization_id: organizationId, 'members.user_id': userId })
          .sort({ created_at: 1 })
          .lean<GroupDoc[]>()
      ).map(withGroupDefaults),
    getProfile: (organizationId: string, userId: string) =>
      findStored<ProfileDoc>(m.Profile, { _id: userId, organization_id: organizationId }),
    /** A short domain, whichever organization holds it (platform-wide: a domain is one organization's at most). */
    getDomain: (domain: string) => findStored<DomainDoc>(m.Domain, { _id: domain.toLowerCase() }),
    domainsOfOrganization: async (organizationId: string) =>
      (await m.Domain.find({ organization_id: organizationId }).sort({ _id: 1 }).lean<DomainDoc[]>()).map((d) => ({
        ...d,
        group_guids: d.group_guids ?? [],
      })),
    /** A link by id, deleted ones excluded. */
    async getLink(organizationId: string, id: string): Promise<LinkDoc | null> {
      return findStored<LinkDoc>(m.Link, { _id: id, organization_id: organizationId, deleted_at: null });
    },
    /**
     * What a redirect needs of many links, in one read (those not found, or deleted, are absent): a redirector's
     * cache reading again the links it serves (platform-wide: a short URL names no organization).
     */
    async getRedirectTargets(ids: readonly string[]): Promise<LinkRedirectFields[]> {
      if (ids.length === 0) return [];
      return m.Link.find({ _id: { $in: ids }, deleted_at: null }, REDIRECT_PROJECTION).lean<LinkRedirectFields[]>();
    },
    /** The link a shorten returns again: the group's non-custom, unforced link for the same long URL. */
    async reusable(organizationId: string, groupGuid: string, longUrl: string): Promise<LinkDoc | null> {
      return findStored<LinkDoc>(m.Link, {
        reuse_key: reuseKeyOf(groupGuid, longUrl),
        organization_id: organizationId,
        deleted_at: null,
      });
    },
    /**
     * The links several shortens would return again (see `reusable`), in one read: for each reuse key at most
     * one link, the first stored as `reusable` reads it.
     */
    async reusableAmong(organizationId: string, reuseKeys: readonly string[]): Promise<Map<string, LinkDoc>> {
      const found = new Map<string, LinkDoc>();
      if (reuseKeys.length === 0) return found;
      const links = (await m.Link.collection
        .find({ reuse_key: { $in: [...reuseKeys] }, organization_id: organizationId, deleted_at: null })
        .toArray()) as unknown as LinkDoc[];
      for (const link of links) {
        if (link.reuse_key !== null && !found.has(link.reuse_key)) found.set(link.reuse_key, link);
      }
      return found;
    },
    /**
     * A page of a group's links, newest first, how many links the filters match in all (`search_after` and `page`
     * position the page; they do not change the total), and whether more follow.
     */
    async listLinks(
      organizationId: string,
      groupGuid: string,
      query: LinkListQuery,
      linkIds?: string[],
    ): Promise<{ links: LinkDoc[]; total: number; more: boolean }> {
      const filter: Record<string, unknown> = {
        group_guid: groupGuid,
        organization_id: organizationId,
        deleted_at: null,
      };
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
    countLinksCreated(
      organizationId: string,
      groupGuid: string,
      from: Date,
      to: Date,
      customOnly = false,
    ): Promise<number> {
      const filter: Record<string, unknown> = {
        group_guid: groupGuid,
        organization_id: organizationId,
        created_at: { $gte: from, $lt: to },
      };
      if (customOnly) filter['custom'] = true;
      return m.Link.countDocuments(filter);
    },
    getCampaign: (organizationId: string, guid: string) =>
      m.Campaign.findOne({ _id: guid, organization_id: organizationId })
        .lean<CampaignDoc>()
        .then((c) => (c ? { ...c, channel_guids: c.channel_guids ?? [] } : null)),
    async campaignsOf(organizationId: string, groupGuids: string[]): Promise<CampaignDoc[]> {
      const found = await ofGroups<CampaignDoc>(m.Campaign, organizationId, groupGuids);
      return found.map((c) => ({ ...c, channel_guids: c.channel_guids ?? [] }));
    },
    getChannel: (organizationId: string, guid: string) =>
      m.Channel.findOne({ _id: guid, organization_id: organizationId })
        .lean<ChannelDoc>()
        .then((c) => (c ? { ...c, shortlinks: c.shortlinks ?? [] } : null)),
    async channelsOf(organizationId: string, groupGuids: string[]): Promise<ChannelDoc[]> {
      const found = await ofGroups<ChannelDoc>(m.Channel, organizationId, groupGuids);
      return found.map((c) => ({ ...c, shortlinks: c.shortlinks ?? [] }));
    },
    async tagsOfGroup(organizationId: string, groupGuid: string): Promise<string[]> {
      const tags = (await m.Link.distinct('tags', {
        group_guid: groupGuid,
        organization_id: organizationId,
        deleted_at: null,
      })) as string[];
      return tags.sort().slice(0, MAX_TAGS_PER_GROUP);
    },
    /** How many distinct tags the group's links would carry with `tags` added to them. */
    async groupTagCountWith(organizationId: string, groupGuid: string, tags: readonly string[]): Promise<number> {
      const existing = new Set(
        (await m.Link.distinct('tags', {
          group_guid: groupGuid,
          organization_id: organizationId,
          deleted_at: null,
        })) as string[],
      );
      return existing.size + new Set(tags.filter((t) => !existing.has(t))).size;
    },
    getQrCode: (organizationId: string, id: string) =>
      m.QrCode.findOne({ _id: id, organization_id: organizationId })
        .lean<QrCodeDoc>()
        .exec()
        .then((q) => (q ? { ...q, tags: q.tags ?? [], render_customizations: q.render_customizations ?? {} } : null)),
    /** A page of a group's QR codes, newest first, after the `search_after` position. */
    async listQrCodes(organizationId: string, groupGuid: string, query: QrListQuery): Promise<QrCodeDoc[]> {
      const filter: Record<string, unknown> = {
        group_guid: groupGuid,
        organization_id: organizationId,
        qr_code_type: { $in: query.qrcTypes },
      };
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
    async qrTagsOfGroup(organizationId: string, groupGuid: string): Promise<string[]> {
      const tags = (await m.QrCode.distinct('tags', {
        group_guid: groupGuid,
        organization_id: organizationId,
      })) as string[];
      return tags.sort().slice(0, 1000);
    },
    async getQrLogo(organizationId: string, guid: string): Promise<QrLogoDoc | null> {
      const logo = await m.QrLogo.findOne({ _id: guid, organization_id: organizationId }).lean<QrLogoDoc>();
      if (!logo) return null;
      // A lean read gives BSON Binary, not a Buffer.
      const raw = logo.bytes as unknown as Buffer | { buffer: Uint8Array };
      return { ...logo, bytes: Buffer.isBuffer(raw) ? raw : Buffer.from(raw.buffer) };
    },
    async organizationFeatures(organizationId: string): Promise<{ static_qr_codes: boolean }> {
      const org = await m.Organization.findById(organizationId).lean<LinksOrganizationDoc>();
      return { static_qr_codes: org?.static_qr_codes ?? false };
    },
    getWebhook: (organizationId: string, guid: string) =>
      m.Webhook.findOne({ _id: guid, organization_id: organizationId }).lean<WebhookDoc>().exec(),
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
  if (!options.directory) return { ...store, forRequest: (_organizationId: string): Directory => store };
  const { stamps, ...cache } = options.directory;
  return { ...store, ...cachedDirectory(store, stamps, cache) };
}

export type LinksStore = ReturnType<typeof createLinksStore>;
