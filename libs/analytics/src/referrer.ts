/** A click's referrer as the metrics name it. A click without one (typed, bookmarked, from an app) is `direct`. */
export interface ReferrerFacets {
  /** The referring page without its query and fragment (`https://t.co/abc`), or `direct`. */
  url: string;
  /** A person's name for the source (`Twitter`, `Google`), else its domain, or `direct`. */
  name: string;
  /** The host without `www.` (`t.co`), or `direct`. */
  domain: string;
  /** The network the source belongs to (`twitter`, `facebook`, ...), `other`, or `direct`. */
  network: string;
}

export const DIRECT = 'direct';
const MAX_URL = 300;

/** Known sources by host suffix: [suffix, network, name]. A suffix matches the host or a subdomain of it. */
const SOURCES: ReadonlyArray<readonly [string, string, string]> = [
  ['t.co', 'twitter', 'Twitter'],
  ['twitter.com', 'twitter', 'Twitter'],
  ['x.com', 'twitter', 'Twitter'],
  ['twitterrific.com', 'twitter', 'Twitterrific'],
  ['facebook.com', 'facebook', 'Facebook'],
  ['fb.com', 'facebook', 'Facebook'],
  ['fb.me', 'facebook', 'Facebook'],
  ['messenger.com', 'facebook', 'Messenger'],
  ['instagram.com', 'instagram', 'Instagram'],
  ['threads.net', 'instagram', 'Threads'],
  ['linkedin.com', 'linkedin', 'LinkedIn'],
  ['lnkd.in', 'linkedin', 'LinkedIn'],
  ['reddit.com', 'reddit', 'Reddit'],
  ['redd.it', 'reddit', 'Reddit'],
  ['youtube.com', 'youtube', 'YouTube'],
  ['youtu.be', 'youtube', 'YouTube'],
  ['pinterest.com', 'pinterest', 'Pinterest'],
  ['pin.it', 'pinterest', 'Pinterest'],
  ['tiktok.com', 'tiktok', 'TikTok'],
  ['whatsapp.com', 'whatsapp', 'WhatsApp'],
  ['wa.me', 'whatsapp', 'WhatsApp'],
  ['t.me', 'telegram', 'Telegram'],
  ['telegram.org', 'telegram', 'Telegram'],
  ['mail.google.com', 'email', 'Gmail'],
  ['outlook.live.com', 'email', 'Outlook'],
  ['outlook.office.com', 'email', 'Outlook'],
  ['mail.yahoo.com', 'email', 'Yahoo Mail'],
  ['google.com', 'google', 'Google'],
  ['bing.com', 'bing', 'Bing'],
  ['duckduckgo.com', 'duckduckgo', 'DuckDuckGo'],
  ['search.yahoo.com', 'yahoo', 'Yahoo'],
  ['yahoo.com', 'yahoo', 'Yahoo'],
  ['baidu.com', 'baidu', 'Baidu'],
  ['yandex.ru', 'yandex', 'Yandex'],
];
// Google's country domains (google.de, google.co.uk): the same source.
const GOOGLE_TLD = /(^|\.)google\.(?:[a-z]{2,3}|co\.[a-z]{2}|com\.[a-z]{2})$/;

function sourceOf(host: string): { network: string; name: string } | null {
  // Longest suffix first, so mail.google.com is Gmail rather than Google.
  let best: readonly [string, string, string] | null = null;
  for (const entry of SOURCES) {
    const [suffix] = entry;
    if ((host === suffix || host.endsWith(`.${suffix}`)) && (!best || suffix.length > best[0].length)) best = entry;
  }
  if (best) return { network: best[1], name: best[2] };
  if (GOOGLE_TLD.test(host)) return { network: 'google', name: 'Google' };
  return null;
}

const DIRECT_FACETS: ReferrerFacets = { url: DIRECT, name: DIRECT, domain: DIRECT, network: DIRECT };

/** The facets of a `Referer` header; one that is not an absolute URL counts as direct. */
export function readReferrer(referrer: string | null | undefined): ReferrerFacets {
  const raw = referrer?.trim();
  if (!raw) return DIRECT_FACETS;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return DIRECT_FACETS;
  }
  // App referrers (android-app://com.google.android.gm/) have a host too; other schemes without one are direct.
  const host = url.hostname.toLowerCase().replace(/\.$/, '');
  if (!host) return DIRECT_FACETS;
  const domain = host.replace(/^www\./, '');
  const source = sourceOf(domain);
  const port = url.port ? `:${url.port}` : '';
  return {
    url: `${url.protocol}//${host}${port}${url.pathname}`.slice(0, MAX_URL),
    name: source?.name ?? domain,
    domain,
    network: source?.network ?? 'other',
  };
}
