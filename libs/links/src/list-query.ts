/**
 * The group link list's query (`GET /v4/groups/{group_guid}/shortlinks`), with the spec's defaults, and its
 * `search_after` tokens: opaque, and stable under concurrent inserts because they name the last link seen
 * (its creation time and id), not a position.
 */
export type Tristate = 'on' | 'off' | 'both';

export interface LinkListQuery {
  size: number;
  searchAfter: { createdAt: number; id: string } | null;
  query: string | null;
  hostnamePathQuery: string | null;
  createdBefore: number | null;
  createdAfter: number | null;
  archived: Tristate;
  deeplinks: Tristate;
  domainDeeplinks: Tristate;
  campaignGuid: string | null;
  /** When set, every other filter is ignored (the spec: it overrides all other parameters). */
  channelGuid: string | null;
  customShortlink: Tristate;
  hasQrCodes: Tristate;
  tags: string[];
  launchpadIds: string[];
  encodingLogin: string[];
}

export interface FieldProblem {
  field: string;
  error_code: 'invalid';
  message: string;
}

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

type Raw = Record<string, string | string[] | undefined>;

const TRISTATE: readonly Tristate[] = ['on', 'off', 'both'];

export function encodeSearchAfter(last: { createdAt: number; id: string }): string {
  return Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url');
}

export function decodeSearchAfter(token: string): { createdAt: number; id: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && Number.isSafeInteger(value[0]) && typeof value[1] === 'string' && value[1].length <= 200) {
      return { createdAt: value[0] as number, id: value[1] };
    }
  } catch {
    // not one of ours
  }
  return null;
}

/** Reads the query; unknown parameters are ignored (as Bitly does), bad values are problems naming the field. */
export function readLinkListQuery(raw: Raw): { ok: true; value: LinkListQuery } | { ok: false; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  const bad = (field: string, message: string) => problems.push({ field, error_code: 'invalid', message });
  const one = (name: string): string | null => {
    const v = raw[name];
    const s = Array.isArray(v) ? v[v.length - 1] : v;
    return s === undefined || s === '' ? null : s;
  };
  const many = (name: string): string[] => {
    const v = raw[name];
    const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
    return list.flatMap((s) => s.split(',')).map((s) => s.trim()).filter((s) => s.length > 0);
  };
  const tristate = (name: string, fallback: Tristate): Tristate => {
    const v = one(name);
    if (v === null) return fallback;
    if ((TRISTATE as readonly string[]).includes(v)) return v as Tristate;
    bad(name, `${name} is one of on, off, both`);
    return fallback;
  };
  const epoch = (name: string): number | null => {
    const v = one(name);
    if (v === null) return null;
    if (!/^\d{1,11}$/.test(v)) {
      bad(name, `${name} is a unix time in seconds`);
      return null;
    }
    return Number(v);
  };
  let size = DEFAULT_PAGE_SIZE;
  const sizeRaw = one('size');
  if (sizeRaw !== null) {
    if (!/^\d{1,4}$/.test(sizeRaw) || Number(sizeRaw) < 1 || Number(sizeRaw) > MAX_PAGE_SIZE) bad('size', `size is an integer from 1 to ${MAX_PAGE_SIZE}`);
    else size = Number(sizeRaw);
  }
  let searchAfter: LinkListQuery['searchAfter'] = null;
  const token = one('search_after');
  if (token !== null) {
    searchAfter = decodeSearchAfter(token);
    if (!searchAfter) bad('search_after', 'search_after must be a value from a previous response');
  }
  const value: LinkListQuery = {
    size,
    searchAfter,
    query: one('query'),
    hostnamePathQuery: one('hostname_path_query')?.toLowerCase() ?? null,
    createdBefore: epoch('created_before'),
    createdAfter: epoch('created_after'),
    archived: tristate('archived', 'off'),
    deeplinks: tristate('deeplinks', 'both'),
    domainDeeplinks: tristate('domain_deeplinks', 'both'),
    campaignGuid: one('campaign_guid'),
    channelGuid: one('channel_guid'),
    customShortlink: tristate('custom_shortlink', 'both'),
    hasQrCodes: tristate('has_qr_codes', 'both'),
    tags: many('tags'),
    launchpadIds: many('launchpad_ids'),
    encodingLogin: many('encoding_login'),
  };
  return problems.length > 0 ? { ok: false, problems } : { ok: true, value };
}
