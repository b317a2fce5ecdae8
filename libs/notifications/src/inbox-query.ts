/**
 * The inbox list's and watch stream's query, read as Coder reads it (UUID lists comma-separated or repeated,
 * an empty value as absent), with one difference: every bad value, `read_status` included, is a validation
 * naming its field (Coder answers a bad read_status with a bare message naming the wrong parameter).
 */
export type ReadStatus = 'all' | 'read' | 'unread';
export type Format = 'markdown' | 'plaintext';

export interface InboxFilter {
  targets: string[];
  templates: string[];
  readStatus: ReadStatus;
}

export interface InboxListQuery extends InboxFilter {
  startingBefore: string | null;
}

export interface WatchQuery extends InboxFilter {
  format: Format;
}

export interface Validation {
  field: string;
  detail: string;
}

/** What the API answers for a query it cannot read: 400 with this message and the validations. */
export const INVALID_QUERY_MESSAGE = 'Query parameters have invalid values.';

/** A cursor (`starting_before`, `Last-Event-ID`) that is not one of the caller's notifications, unknown or someone else's alike. */
export const NOT_YOUR_NOTIFICATION = 'must be the id of one of your notifications';

export type QueryResult<T> = { ok: true; value: T } | { ok: false; validations: Validation[] };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const READ_STATUSES: readonly ReadStatus[] = ['all', 'read', 'unread'];
/** No page holds more; a client pages back with `starting_before`. */
export const INBOX_PAGE_SIZE = 25;
/** More ids than a filter could sensibly hold are refused rather than sent to the store. */
const MAX_LIST_ITEMS = 100;

type Raw = Record<string, string | string[] | undefined>;

const values = (raw: Raw, key: string): string[] => {
  const value = raw[key];
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
};

function uuidList(raw: Raw, key: string, issues: Validation[]): string[] {
  const items = values(raw, key)
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
  const bad = items.filter((v) => !UUID.test(v));
  if (bad.length > 0) {
    issues.push({
      field: key,
      detail: `Query param "${key}" has invalid values: ${bad.map((v) => `invalid UUID "${v.slice(0, 64)}"`).join(', ')}`,
    });
  } else if (items.length > MAX_LIST_ITEMS) {
    issues.push({ field: key, detail: `Query param "${key}" has more than ${MAX_LIST_ITEMS} values.` });
  }
  return [...new Set(items.map((v) => v.toLowerCase()))];
}

function single(raw: Raw, key: string, issues: Validation[]): string | undefined {
  const all = values(raw, key).filter((v) => v.trim().length > 0);
  if (all.length > 1) {
    issues.push({
      field: key,
      detail: `Query param "${key}" provided more than once, found ${all.length} times. Only provide 1 instance of this query param.`,
    });
    return undefined;
  }
  return all[0]?.trim();
}

function filterOf(raw: Raw, issues: Validation[]): InboxFilter {
  const targets = uuidList(raw, 'targets', issues);
  const templates = uuidList(raw, 'templates', issues);
  const status = single(raw, 'read_status', issues) ?? 'all';
  if (!(READ_STATUSES as readonly string[]).includes(status)) {
    issues.push({
      field: 'read_status',
      detail: `Query param "read_status" must be one of all, read, unread; got "${status.slice(0, 40)}".`,
    });
  }
  return { targets, templates, readStatus: status as ReadStatus };
}

function unknown(raw: Raw, known: readonly string[], issues: Validation[]) {
  for (const key of Object.keys(raw))
    if (!known.includes(key))
      issues.push({ field: key.slice(0, 64), detail: `"${key.slice(0, 64)}" is not a valid query param` });
}

export function readInboxListQuery(raw: Raw): QueryResult<InboxListQuery> {
  const issues: Validation[] = [];
  unknown(raw, ['targets', 'templates', 'read_status', 'starting_before'], issues);
  const filter = filterOf(raw, issues);
  const startingBefore = single(raw, 'starting_before', issues) ?? null;
  if (startingBefore !== null && !UUID.test(startingBefore))
    issues.push({ field: 'starting_before', detail: 'Query param "starting_before" must be a valid uuid' });
  return issues.length > 0
    ? { ok: false, validations: issues }
    : { ok: true, value: { ...filter, startingBefore: startingBefore?.toLowerCase() ?? null } };
}

/** The watch stream's query parameters, as its route schema lets them through. */
export interface WatchParams {
  targets?: string | string[] | undefined;
  templates?: string | string[] | undefined;
  read_status?: string | undefined;
  format?: string | undefined;
}

/**
 * The watch stream's filters and format from a query its route schema has passed (which refuses unknown
 * parameters, bad UUIDs and statuses, and a repeated single value): lists split, trimmed, lower-cased and
 * deduplicated, and what no schema can count refused here, more than 100 ids in one list. Other parameters
 * (the session token) are not read.
 */
export function watchQueryOf(params: WatchParams): QueryResult<WatchQuery> {
  const issues: Validation[] = [];
  const { targets, templates, read_status, format } = params;
  const filter = filterOf({ targets, templates, read_status }, issues);
  // As in Coder: anything but plaintext is markdown.
  const chosen: Format = format?.trim() === 'plaintext' ? 'plaintext' : 'markdown';
  return issues.length > 0 ? { ok: false, validations: issues } : { ok: true, value: { ...filter, format: chosen } };
}

/** Whether a notification belongs in a filtered list or stream. */
export function matchesFilter(
  filter: InboxFilter,
  n: { targets: readonly string[]; template_id: string; read_at: unknown },
): boolean {
  if (filter.templates.length > 0 && !filter.templates.includes(n.template_id)) return false;
  if (!filter.targets.every((t) => n.targets.includes(t))) return false;
  if (filter.readStatus === 'read') return n.read_at !== null;
  if (filter.readStatus === 'unread') return n.read_at === null;
  return true;
}
