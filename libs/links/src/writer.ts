import {
  aggregateWriter,
  insertValidated,
  isDuplicateKeyError,
  type Connection,
  type Model,
  type StoredOutboxEntry,
} from '@platform/mongo';
import {
  linkModels,
  type CampaignDoc,
  type ChannelDoc,
  type DomainDoc,
  type GroupDoc,
  type GroupRole,
  type LinkDoc,
  type ProfileDoc,
  type QrCodeDoc,
  type QrLogoDoc,
  type WebhookDoc,
} from './models.js';
import type { DirectoryStamps } from './directory.js';

/** A campaign or channel: created under its guid if missing (a redelivered create finds it), or edited. */
async function createOrSet<T extends { _id: string; organization_id: string; modified_at: Date }>(
  model: Model<T>,
  doc: T,
  changes: Partial<T>,
  create: boolean,
): Promise<void> {
  if (create) {
    const { _id, ...fields } = doc;
    await model
      .updateOne({ _id } as never, { $setOnInsert: fields } as never, { upsert: true })
      .catch((error: unknown) => {
        if (!isDuplicateKeyError(error)) throw error;
      });
  } else {
    await model.updateOne(
      { _id: doc._id, organization_id: doc.organization_id } as never,
      { $set: { ...changes, modified_at: doc.modified_at } } as never,
    );
  }
}

/**
 * The links writes: owned by links-worker (a lint rule keeps other apps to the store and to commands). As with the
 * reads, every write to an organization's record takes the organization first and changes nothing of another's;
 * a link changes through `links.change`, filtered by the id and version of the link the handler read. A change
 * to the directory (groups, profiles, short domains) renews its stamps before it returns, so that no cached
 * directory serves what it replaced once the command is answered.
 */
export function createLinksWriter(connection: Connection, stamps: DirectoryStamps) {
  const m = linkModels(connection);
  const organization = (organizationId: string) => ({ organization: organizationId });
  const links = aggregateWriter<LinkDoc>(m.Link);
  const webhooks = aggregateWriter<WebhookDoc>(m.Webhook);
  return {
    links,
    /** Inserts a QR code; false when its id is taken (a redelivered create made it). */
    async insertQrCode(doc: QrCodeDoc): Promise<boolean> {
      try {
        await insertValidated(m.QrCode, doc);
        return true;
      } catch (error) {
        if (isDuplicateKeyError(error)) return false;
        throw error;
      }
    },
    async updateQrCode(
      organizationId: string,
      id: string,
      changes: Partial<Omit<QrCodeDoc, '_id' | 'organization_id'>>,
    ): Promise<void> {
      await m.QrCode.updateOne({ _id: id, organization_id: organizationId }, { $set: changes });
    },
    async deleteQrCode(organizationId: string, id: string): Promise<void> {
      await m.QrCode.deleteOne({ _id: id, organization_id: organizationId });
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
    /** Notes a link's first redirect (one write per link: later ones match nothing); a click names the link alone. */
    async markRedirected(id: string, at: Date): Promise<void> {
      await m.Link.updateOne({ _id: id, redirected_at: null }, { $set: { redirected_at: at } });
    },
    /** Inserts a webhook; false when a redelivered create already made it. */
    insertWebhook: (doc: Omit<WebhookDoc, 'outbox' | 'has_outbox'>) => webhooks.insertOnce(doc, []),
    async updateWebhook(
      organizationId: string,
      guid: string,
      changes: Partial<Omit<WebhookDoc, '_id' | 'organization_id' | 'outbox' | 'has_outbox'>>,
    ): Promise<void> {
      await m.Webhook.updateOne({ _id: guid, organization_id: organizationId }, { $set: changes });
    },
    async deleteWebhook(organizationId: string, guid: string): Promise<void> {
      await m.Webhook.deleteOne({ _id: guid, organization_id: organizationId });
    },
    /** Queues events (a ping's delivery request) with the webhook, for the outbox relay to publish. */
    async queueWebhookEvents(organizationId: string, guid: string, events: StoredOutboxEntry[]): Promise<boolean> {
      return webhooks.change({ _id: guid, organization_id: organizationId }, {}, events);
    },
    /** Inserts a link; false when its id is taken (a hash collided, a keyword is in use, or a redone command made it). */
    insertLink(doc: Omit<LinkDoc, 'outbox' | 'has_outbox'>, events: StoredOutboxEntry[]): Promise<boolean> {
      return links.insertOnce(doc, events);
    },
    /**
     * Creates the group if missing and gives the user the role in it (replacing a role they had); false when the
     * guid is another organization's group (nothing changes).
     */
    async upsertGroupMember(
      group: { guid: string; organization_id: string; name: string | null },
      userId: string,
      role: GroupRole,
      at: Date,
    ): Promise<boolean> {
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
      const own = { _id: group.guid, organization_id: group.organization_id };
      const pulled = await m.Group.updateOne(own, { $pull: { members: { user_id: userId } } });
      if (pulled.matchedCount === 0) return false;
      await m.Group.updateOne(own, { $push: { members: { user_id: userId, role } }, $set: { modified_at: at } });
      await stamps.renew([organization(group.organization_id)]);
      return true;
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
      await stamps.renew([organization(organizationId)]);
    },
    /** Sets the named group fields; a new bsds list also updates which groups each domain lists. */
    async updateGroup(
      organizationId: string,
      guid: string,
      changes: Partial<Pick<GroupDoc, 'name' | 'bsds' | 'domain_preference'>>,
      at: Date,
    ): Promise<void> {
      const own = { _id: guid, organization_id: organizationId };
      const before = await m.Group.findOne(own, { bsds: 1 }).lean<Pick<GroupDoc, 'bsds'>>();
      if (!before) return;
      await m.Group.updateOne(own, { $set: { ...changes, modified_at: at } });
      if (changes.bsds) {
        const removed = (before?.bsds ?? []).filter((d) => !changes.bsds!.includes(d));
        if (changes.bsds.length > 0)
          await m.Domain.updateMany(
            { _id: { $in: changes.bsds }, organization_id: organizationId },
            { $addToSet: { group_guids: guid } },
          );
        if (removed.length > 0)
          await m.Domain.updateMany(
            { _id: { $in: removed }, organization_id: organizationId },
            { $pull: { group_guids: guid } },
          );
      }
      await stamps.renew(changes.bsds ? [organization(organizationId), 'domains'] : [organization(organizationId)]);
    },
    async updateProfile(
      organizationId: string,
      userId: string,
      changes: Partial<Pick<ProfileDoc, 'name' | 'default_group_guid'>>,
      at: Date,
    ): Promise<void> {
      await m.Profile.updateOne(
        { _id: userId, organization_id: organizationId },
        { $set: { ...changes, modified_at: at } },
      );
      await stamps.renew([organization(organizationId)]);
    },
    /** Creates the campaign if missing (a redelivered create finds it), or sets the given fields of the organization's. */
    saveCampaign: (
      doc: CampaignDoc,
      changes: Partial<Pick<CampaignDoc, 'name' | 'description' | 'channel_guids'>>,
      create: boolean,
    ) => createOrSet<CampaignDoc>(m.Campaign, doc, changes, create),
    saveChannel: (doc: ChannelDoc, changes: Partial<Pick<ChannelDoc, 'name' | 'shortlinks'>>, create: boolean) =>
      createOrSet<ChannelDoc>(m.Channel, doc, changes, create),
    /** Links of a channel enter a campaign (what `campaign_guid` filters and `campaign_ids` shows), and the channel with them. */
    async addLinksToCampaign(
      organizationId: string,
      campaignGuid: string,
      linkIds: string[],
      channelGuid: string,
    ): Promise<void> {
      if (linkIds.length > 0)
        await m.Link.updateMany(
          { _id: { $in: linkIds }, organization_id: organizationId },
          { $addToSet: { campaign_ids: campaignGuid } },
        );
      await m.Campaign.updateOne(
        { _id: campaignGuid, organization_id: organizationId },
        { $addToSet: { channel_guids: channelGuid } },
      );
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
      await m.Group.updateMany(
        { _id: { $in: doc.group_guids }, organization_id: doc.organization_id },
        { $addToSet: { bsds: doc._id } },
      );
      await stamps.renew([organization(doc.organization_id), 'domains']);
    },
  };
}

export type LinksWriter = ReturnType<typeof createLinksWriter>;
