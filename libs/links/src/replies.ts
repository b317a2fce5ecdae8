import type { LinkDoc } from './models.js';

export interface ShortlinkReply {
  link: Omit<LinkDoc, 'outbox' | 'has_outbox'>;
  /** False when a shorten returned the group's existing link (200 rather than 201). */
  created: boolean;
}

declare module '@platform/contracts' {
  interface CommandReplies {
    'platform.links.commands.SetUpLinksOrganization': { group_guid: string };
    'platform.links.commands.AddLinksGroupMember': { group_guid: string };
    'platform.links.commands.AddBrandedDomain': { domain: string };
    'platform.links.commands.CreateShortlink': ShortlinkReply;
    'platform.links.commands.UpdateShortlink': ShortlinkReply;
    'platform.links.commands.DeleteShortlink': { id: string };
    'platform.links.commands.BulkEditShortlinks': { ids: string[] };
    'platform.links.commands.UpdateLinksGroup': { group_guid: string };
    'platform.links.commands.UpdateLinksUser': { user_id: string };
    'platform.links.commands.SaveCampaign': { campaign_guid: string };
    'platform.links.commands.SaveChannel': { channel_guid: string };
    /** `signing_secret` is the new webhook's secret, answered on create only. */
    'platform.links.commands.SaveWebhook': { webhook_guid: string; signing_secret: string | null };
    'platform.links.commands.DeleteWebhook': { webhook_guid: string };
    'platform.links.commands.VerifyWebhook': { webhook_guid: string };
    'platform.links.commands.CreateQrCode': { qrcode_id: string; shortlink_id: string };
    'platform.links.commands.UpdateQrCode': { qrcode_id: string };
    'platform.links.commands.DeleteQrCode': {
      qrcodes_deleted: Array<{ id: string }>;
      links_deleted: Array<{ id: string }>;
    };
    'platform.links.commands.SaveQrLogo': { image_guid: string };
    'platform.links.commands.SetLinksOrganizationFeatures': { static_qr_codes: boolean };
  }
}
