import type { LinkDoc, QrCodeDoc, WebhookDoc } from './models.js';

/** Bitly's timestamp form: `2006-01-02T15:04:05+0000`. */
export function bitlyTime(at: Date | number): string {
  return `${new Date(at).toISOString().slice(0, 19)}+0000`;
}

export interface ShortlinkJson {
  references: Record<string, string>;
  link: string;
  id: string;
  long_url: string;
  title: string;
  archived: boolean;
  created_at: string;
  created_by: string;
  client_id: string;
  custom_shortlinks: string[];
  tags: string[];
  launchpad_ids: string[];
  qr_code_ids: string[];
  deeplinks: Array<Record<string, string>>;
  campaign_ids: string[];
  /** Empty when the link does not expire (as on QR codes): the member is always there. */
  expiration_at: string;
}

/** A short link record as the API shows it; `apiBase` is the gateway's public address (for `references`). */
export function shortlinkJson(doc: LinkDoc, view: { apiBase: string; scheme: 'http' | 'https' }): ShortlinkJson {
  const json: ShortlinkJson = {
    references: { group: `${view.apiBase}/v4/groups/${doc.group_guid}` },
    link: `${view.scheme}://${doc._id}`,
    id: doc._id,
    long_url: doc.long_url,
    title: doc.title ?? '',
    archived: doc.archived,
    created_at: bitlyTime(doc.created_at),
    created_by: doc.created_by,
    client_id: '',
    custom_shortlinks: doc.custom ? [`${view.scheme}://${doc._id}`] : [],
    tags: doc.tags,
    launchpad_ids: [],
    qr_code_ids: doc.qr_code_ids ?? [],
    deeplinks: doc.deeplinks.map((d) => ({
      guid: d.guid,
      shortlink: doc._id,
      app_uri_path: d.app_uri_path,
      install_url: d.install_url,
      app_guid: d.app_guid,
      os: d.os,
      install_type: d.install_type,
      created: bitlyTime(d.created),
      modified: bitlyTime(d.modified),
      brand_guid: d.brand_guid,
    })),
    campaign_ids: doc.campaign_ids,
    expiration_at: doc.expiration_at ? bitlyTime(doc.expiration_at) : '',
  };
  return json;
}

export interface WebhookJson {
  references: Record<string, string>;
  guid: string;
  created: string;
  modified: string;
  modified_by: string;
  alerted: string;
  deactivated: string;
  is_active: boolean;
  is_alert: boolean;
  organization_guid: string;
  group_guid: string;
  name: string;
  event: string;
  url: string;
  /** `active`, `inactive` (turned off by its owner) or `deactivated` (turned off after failed deliveries). */
  status: 'active' | 'inactive' | 'deactivated';
  oauth_url: string;
  client_id: string;
  /** Never the secret itself: `********` when one is set. */
  client_secret: string;
  fetch_tags: boolean;
  /** Deliveries per second at most; null: no limit. */
  rate_limit: number | null;
  /** Events about one link arrive in the order they happened. */
  ordered: boolean;
}

/** A webhook as the API shows it; empty strings for the times and OAuth members it does not have. */
export function webhookJson(doc: WebhookDoc, view: { apiBase: string }): WebhookJson {
  const references: Record<string, string> = {
    organization: `${view.apiBase}/v4/organizations/${doc.organization_id}`,
  };
  if (doc.group_guid) references['group'] = `${view.apiBase}/v4/groups/${doc.group_guid}`;
  return {
    references,
    guid: doc._id,
    created: bitlyTime(doc.created_at),
    modified: bitlyTime(doc.modified_at),
    modified_by: doc.modified_by,
    alerted: doc.alerted_at ? bitlyTime(doc.alerted_at) : '',
    deactivated: doc.deactivated_at ? bitlyTime(doc.deactivated_at) : '',
    is_active: doc.is_active,
    is_alert: doc.is_alert,
    organization_guid: doc.organization_id,
    group_guid: doc.group_guid ?? '',
    name: doc.name,
    event: doc.event,
    url: doc.url,
    status: doc.is_active ? 'active' : doc.deactivated_at ? 'deactivated' : 'inactive',
    oauth_url: doc.oauth?.url ?? '',
    client_id: doc.oauth?.client_id ?? '',
    client_secret: doc.oauth ? '********' : '',
    fetch_tags: doc.fetch_tags,
    rate_limit: doc.rate_limit ?? null,
    ordered: doc.ordered ?? false,
  };
}

/** What a QR code encodes: its short link with the `qr` marker by which the redirector counts a scan. */
export function qrContent(scheme: 'http' | 'https', shortlinkId: string, qrcodeId: string): string {
  return `${scheme}://${shortlinkId}?qr=${qrcodeId}`;
}

export interface QrSummaryJson {
  qrcode_id: string;
  group_guid: string;
  title: string;
  is_customized: boolean;
  serialized_content: string;
  qr_code_type: string;
  long_urls: string[];
  shortlink_id: string;
  is_gs1: boolean;
  created_by: string;
  tags: string[];
  archived: boolean;
  expiration_at: string;
  created: string;
  modified: string;
}

/** The summary form (create, update, list); `link` is the code's short link as it is now, if it still exists. */
export function qrSummaryJson(doc: QrCodeDoc, link: LinkDoc | null, view: { scheme: 'http' | 'https' }): QrSummaryJson {
  return {
    qrcode_id: doc._id,
    group_guid: doc.group_guid,
    title: doc.title,
    is_customized: doc.is_customized,
    serialized_content: qrContent(view.scheme, doc.shortlink_id, doc._id),
    qr_code_type: doc.qr_code_type,
    long_urls: [link?.long_url ?? doc.long_url],
    shortlink_id: doc.shortlink_id,
    is_gs1: doc.gs1 !== null,
    created_by: doc.created_by,
    tags: doc.tags,
    archived: doc.archived,
    expiration_at: link?.expiration_at ? bitlyTime(link.expiration_at) : '',
    created: bitlyTime(doc.created_at),
    modified: bitlyTime(doc.modified_at),
  };
}

/** The full form (retrieve). */
export function qrFullJson(doc: QrCodeDoc, link: LinkDoc | null, view: { scheme: 'http' | 'https' }) {
  const summary = qrSummaryJson(doc, link, view);
  return {
    qrcode_id: summary.qrcode_id,
    group_guid: summary.group_guid,
    title: summary.title,
    gs1: doc.gs1 ?? { values: [] },
    render_customizations: doc.render_customizations,
    qr_code_type: summary.qr_code_type,
    shortlink_id: summary.shortlink_id,
    long_urls: summary.long_urls,
    serialized_content: summary.serialized_content,
    archived: summary.archived,
    created: summary.created,
    modified: summary.modified,
    expiration_at: summary.expiration_at,
  };
}
