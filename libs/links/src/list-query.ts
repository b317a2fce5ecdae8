/**
 * The group link list's query (`GET /v4/groups/{group_guid}/shortlinks`), with the spec's defaults, and its
 * `search_after` tokens: opaque, and stable under concurrent inserts because they name the last link seen
 * (its creation time and id), not a position.
 */
export type Tristate = 'on' | 'off' | 'both';

/** Paging and search, the same in both lists. */
export interface ListSearch {
  size: number;
  searchAfter: { createdAt: number; id: string } | null;
  query: string | null;
  hostnamePathQuery: string | null;
  createdBefore: number | null;
  createdAfter: number | null;
  archived: Tristate;
}

export interface LinkListQuery extends ListSearch {
  /**
   * 1-based. Without `search_after` it positions the page ((page - 1) × size links are skipped); with it, the token
   * positions the page and `page` only numbers it (the next link carries both).
   */
  page: number;
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
/** Paging by number reaches the first 100 000 links at most (by token, all of them). */
export const MAX_PAGE = 1000;

type Raw = Record<string, string | string[] | undefined>;

const TRISTATE: readonly Tristate[] = ['on', 'off', 'both'];

/**
 * `hostname_path_query` as matched: lower case, without a scheme, and without the query and fragment the spec
 * says are ignored (`example.com/a?b=1#c` finds the links to `example.com/a...`); nothing left means no filter.
 */
export function hostAndPath(raw: string | null): string | null {
  const text =
    raw
      ?.toLowerCase()
      .replace(/^https?:\/\//, '')
      .replace(/[?#].*$/s, '') ?? '';
  return text === '' ? null : text;
}

export function encodeSearchAfter(last: { createdAt: number; id: string }): string {
  return Buffer.from(JSON.stringify([last.createdAt, last.id])).toString('base64url');
}

export function decodeSearchAfter(token: string): { createdAt: number; id: string } | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 2 &&
      Number.isSafeInteger(value[0]) &&
      typeof value[1] === 'string' &&
      value[1].length <= 200
    ) {
      return { createdAt: value[0] as number, id: value[1] };
    }
  } catch {
    // not one of ours
  }
  return null;
}

/** The parameter readers both list queries share; bad values are collected as problems naming the field. */
function queryReaders(raw: Raw) {
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
    return list
      .flatMap((s) => s.split(','))
      .map((s) => s.trim())
      .filter((s) => s.length > 0);
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
  const size = (): number => {
    const sizeRaw = one('size');
    if (sizeRaw === null) return DEFAULT_PAGE_SIZE;
    if (!/^\d{1,4}$/.test(sizeRaw) || Number(sizeRaw) < 1 || Number(sizeRaw) > MAX_PAGE_SIZE) {
      bad('size', `size is an integer from 1 to ${MAX_PAGE_SIZE}`);
      return DEFAULT_PAGE_SIZE;
    }
    return Number(sizeRaw);
  };
  const searchAfter = (): LinkListQuery['searchAfter'] => {
    const token = one('search_after');
    if (token === null) return null;
    const position = decodeSearchAfter(token);
    if (!position) bad('search_after', 'search_after must be a value from a previous response');
    return position;
  };
  /** The paging and search parameters both lists have. */
  const common = () => ({
    size: size(),
    searchAfter: searchAfter(),
    query: one('query'),
    hostnamePathQuery: hostAndPath(one('hostname_path_query')),
    createdBefore: epoch('created_before'),
    createdAfter: epoch('created_after'),
  });
  return { problems, bad, one, many, tristate, common };
}

/** Reads the query; unknown parameters are ignored (as Bitly does), bad values are problems naming the field. */
export function readLinkListQuery(
  raw: Raw,
): { ok: true; value: LinkListQuery } | { ok: false; problems: FieldProblem[] } {
  const r = queryReaders(raw);
  const pageRaw = r.one('page');
  let page = 1;
  if (pageRaw !== null) {
    if (/^\d{1,4}$/.test(pageRaw) && Number(pageRaw) >= 1 && Number(pageRaw) <= MAX_PAGE) page = Number(pageRaw);
    else r.bad('page', `page is an integer from 1 to ${MAX_PAGE}`);
  }
  const value: LinkListQuery = {
    ...r.common(),
    page,
    archived: r.tristate('archived', 'off'),
    deeplinks: r.tristate('deeplinks', 'both'),
    domainDeeplinks: r.tristate('domain_deeplinks', 'both'),
    campaignGuid: r.one('campaign_guid'),
    channelGuid: r.one('channel_guid'),
    customShortlink: r.tristate('custom_shortlink', 'both'),
    hasQrCodes: r.tristate('has_qr_codes', 'both'),
    tags: r.many('tags'),
    launchpadIds: r.many('launchpad_ids'),
    encodingLogin: r.many('encoding_login'),
  };
  return r.problems.length > 0 ? { ok: false, problems: r.problems } : { ok: true, value };
}

export const QR_CODE_TYPES = ['shortlink', 'long_url'] as const;
export type QrCodeType = (typeof QR_CODE_TYPES)[number];

export interface QrListQuery extends ListSearch {
  hasRenderCustomizations: Tristate;
  isGs1: Tristate;
  creatingLogin: string[];
  qrcTypes: QrCodeType[];
  tags: string[];
}

/** `GET /v4/groups/{group_guid}/qr-codes`: the spec's parameters and defaults (qrc_type shortlink and long_url). */
export function readQrListQuery(raw: Raw): { ok: true; value: QrListQuery } | { ok: false; problems: FieldProblem[] } {
  const r = queryReaders(raw);
  const types = r.many('qrc_type');
  if (types.some((t) => !(QR_CODE_TYPES as readonly string[]).includes(t)))
    r.bad('qrc_type', `qrc_type is a list of ${QR_CODE_TYPES.join(', ')}`);
  const value: QrListQuery = {
    ...r.common(),
    archived: r.tristate('archived', 'off'),
    hasRenderCustomizations: r.tristate('has_render_customizations', 'both'),
    isGs1: r.tristate('is_gs1', 'both'),
    creatingLogin: r.many('creating_login'),
    qrcTypes: types.length > 0 ? (types as QrCodeType[]) : [...QR_CODE_TYPES],
    tags: r.many('tags'),
  };
  return r.problems.length > 0 ? { ok: false, problems: r.problems } : { ok: true, value };
}
