import type { LinkDoc } from './store.js';

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
  expiration_at?: string;
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
    qr_code_ids: [],
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
  };
  if (doc.expiration_at) json.expiration_at = bitlyTime(doc.expiration_at);
  return json;
}
