import type { MemberRecord } from '@platform/accounts';
import type { GroupDoc, LinkDoc, LinksStore, QrCodeDoc } from '@platform/links';
import { accessIn, type GroupAccess } from '../access.js';
import { recently } from '../recent.js';

/**
 * How long the metrics operations reuse a link, group or QR code they read: a dashboard asks for several
 * metrics of one link at once, and each would read the same documents. A deleted link, or a member removed
 * from a group, is seen this much later by these read-only operations (never by edits).
 */
const LOOKUP_TTL_MS = 5_000;
const LOOKUP_CACHE_MAX = 10_000;

export interface Lookups {
  /** A link of the caller's organization (null for another's). */
  link(caller: MemberRecord, id: string): Promise<LinkDoc | null>;
  qrCode(caller: MemberRecord, id: string): Promise<QrCodeDoc | null>;
  /** The caller's access to a group (403 when they are not in it). */
  access(caller: MemberRecord, groupGuid: string): Promise<GroupAccess>;
}

// One set per store, shared by every metrics operation of an app (each route is built on its own).
const byStore = new WeakMap<LinksStore, Lookups>();

/** The metrics operations' short-lived reads of the documents they report on. */
export function metricLookups(store: LinksStore): Lookups {
  const known = byStore.get(store);
  if (known) return known;
  const cache = { ttlMs: LOOKUP_TTL_MS, max: LOOKUP_CACHE_MAX };
  const [link, group, qrCode] = [recently<LinkDoc>(cache), recently<GroupDoc>(cache), recently<QrCodeDoc>(cache)];
  const made: Lookups = {
    link: (caller, id) => link(`${caller.environment_id}\n${id}`, () => store.getLink(caller.environment_id, id)),
    qrCode: (caller, id) => qrCode(`${caller.environment_id}\n${id}`, () => store.getQrCode(caller.environment_id, id)),
    access: async (caller, guid) =>
      accessIn(
        await group(`${caller.environment_id}\n${guid}`, () => store.getGroup(caller.environment_id, guid)),
        caller,
      ),
  };
  byStore.set(store, made);
  return made;
}
