/**
 * The inbox list's and watch stream's query, read as Coder reads it (UUID lists comma-separated or repeated).
 * The routes' schemas judge every value (UUIDs, `read_status`, `starting_before`, unknown parameters, at most
 * 100 ids in one comma-separated value); what reaches these readers is only reshaped. The one rule a schema
 * cannot state, at most 100 ids summed over a repeated parameter, is `listsOverLimit`.
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

/** No page holds more; a client pages back with `starting_before`. */
export const INBOX_PAGE_SIZE = 25;
/** More ids than a filter could sensibly hold are refused rather than sent to the store (counted before deduplication). */
export const MAX_LIST_IDS = 100;
/** What a `targets` or `templates` value must be: the route schema's words, and those of `listsOverLimit`. */
export const UUID_LIST_RULE = `must be UUIDs, comma-separated or the parameter repeated, at most ${MAX_LIST_IDS}`;

/** The filters as the route schemas let them through. */
export interface InboxFilterParams {
  targets?: string | string[] | undefined;
  templates?: string | string[] | undefined;
  read_status?: ReadStatus | undefined;
}

/** The inbox list's query parameters, as its route schema lets them through. */
export interface InboxListParams extends InboxFilterParams {
  starting_before?: string | undefined;
}

/** The watch stream's query parameters, as its route schema lets them through (the session token is not read). */
export interface WatchParams extends InboxFilterParams {
  format?: string | undefined;
}

const LISTS = ['targets', 'templates'] as const;

/** Every id of a list, in order, repeats kept: the comma-separated values split and trimmed, empty items dropped. */
const idsOf = (value: string | string[] | undefined): string[] =>
  [value ?? []]
    .flat()
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter((v) => v.length > 0);

const uuidList = (value: string | string[] | undefined): string[] => [
  ...new Set(idsOf(value).map((v) => v.toLowerCase())),
];

const filterOf = (params: InboxFilterParams): InboxFilter => ({
  targets: uuidList(params.targets),
  templates: uuidList(params.templates),
  readStatus: params.read_status ?? 'all',
});

/**
 * The one rule the route schema cannot state: at most 100 ids in a list given as the parameter repeated, each
 * value itself comma-separated (JSON Schema draft-07, as the gateways' Ajv reads it, counts array items but
 * cannot sum what each holds). A single comma-separated value is counted by the schema's pattern.
 */
export function listsOverLimit(params: InboxFilterParams): Validation[] {
  return LISTS.filter((key) => idsOf(params[key]).length > MAX_LIST_IDS).map((key) => ({
    field: key,
    detail: `${key} ${UUID_LIST_RULE}`,
  }));
}

/** The inbox list's filters and cursor: lists split, trimmed, lower-cased and deduplicated; the cursor lower-cased. */
export function readInboxListQuery(params: InboxListParams): InboxListQuery {
  return { ...filterOf(params), startingBefore: params.starting_before?.toLowerCase() ?? null };
}

/** The watch stream's filters, read as the list's, and its format: as in Coder, anything but plaintext is markdown. */
export function watchQueryOf(params: WatchParams): WatchQuery {
  return { ...filterOf(params), format: params.format?.trim() === 'plaintext' ? 'plaintext' : 'markdown' };
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
