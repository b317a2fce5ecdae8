import type { ShortlinkClicked, ShortlinkCreated } from '@platform/contracts';

/**
 * The engagement kinds of the spec. A redirect of a short link is a click, the same redirect through a QR
 * code's URL a scan; library button clicks (Bitly's link-in-bio pages) have no producer here yet and stay 0.
 */
export const ENGAGEMENT_KINDS = ['clicks', 'scans', 'lib_button_clicks'] as const;
export type EngagementKind = (typeof ENGAGEMENT_KINDS)[number];

/** One engagement with a short link, whatever event reported it. */
export interface Engagement {
  type: 'engagement';
  /** The event id (CloudEvents `id`): a click's `click_id`. The same id twice is one engagement. */
  id: string;
  at: number;
  kind: EngagementKind;
  linkId: string;
  groupGuid: string;
  /** The destination it went to (a custom link's destinations change over time). */
  longUrl: string;
  /** The QR code scanned (a scan event names it). */
  qrcodeId: string | null;
  referrer: string | null;
  userAgent: string | null;
  clientIp: string | null;
  /** The producer's verdict (the redirector's list); the aggregator also asks isbot. */
  bot: boolean;
}

/** A new short link in a group (`shorten_counts`). */
export interface Shorten {
  type: 'shorten';
  id: string;
  at: number;
  groupGuid: string;
  linkId: string;
}

export type AnalyticsEvent = Engagement | Shorten;

export function engagementOfClick(id: string, click: ShortlinkClicked): Engagement {
  return {
    type: 'engagement',
    id,
    at: click.clicked_at,
    kind: click.qr ? 'scans' : 'clicks',
    linkId: click.id,
    groupGuid: click.group_guid,
    longUrl: click.long_url,
    qrcodeId: click.qrcode_id ?? null,
    referrer: click.referrer,
    userAgent: click.user_agent,
    clientIp: click.client_ip,
    bot: click.bot,
  };
}

export function shortenOfCreated(id: string, created: ShortlinkCreated): Shorten {
  return { type: 'shorten', id, at: created.occurred_at, groupGuid: created.group_guid, linkId: created.id };
}
