import { MessageTypeNames, type MessageTypes } from '@platform/contracts';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { MAX_TAGS_PER_GROUP, hashForCommand, reuseKeyOf, type LinkDoc, type ShortlinkReply } from '@platform/links';
import { outboxEvent } from '@platform/mongo';
import { randomUUID } from 'node:crypto';
import type { HandlerDeps } from './deps.js';

type N = typeof MessageTypeNames;
type Stored = Omit<LinkDoc, 'outbox' | 'has_outbox'>;

const HASH_ATTEMPTS = 8;

export function stateOf(doc: Stored) {
  return {
    id: doc._id,
    organization_id: doc.organization_id,
    group_guid: doc.group_guid,
    long_url: doc.long_url,
    title: doc.title,
    tags: doc.tags,
    archived: doc.archived,
    custom: doc.custom,
    redirect_status: doc.redirect_status,
    expiration_at: doc.expiration_at ? doc.expiration_at.getTime() : null,
  };
}

/**
 * Tags new to a group may be added while its links carry at most MAX_TAGS_PER_GROUP distinct tags. Commands of a
 * group are handled one at a time (keyed by group), so the count cannot change between the check and the write.
 */
async function assertTagsFit(deps: HandlerDeps, organizationId: string, groupGuid: string, adding: readonly string[]) {
  if (adding.length === 0) return;
  if ((await deps.store.groupTagCountWith(organizationId, groupGuid, adding)) <= MAX_TAGS_PER_GROUP) return;
  const message = `A group's links may carry at most ${MAX_TAGS_PER_GROUP} distinct tags.`;
  throw new InputError('TOO_MANY_TAGS_PER_GROUP', message, { issues: [{ field: 'tags', code: 'invalid', message }] });
}

export const strip = (doc: LinkDoc | Stored): Stored => {
  const { outbox: _o, has_outbox: _h, ...rest } = doc as LinkDoc;
  return rest;
};

/**
 * A short link in a group: the group's existing one for the same long URL unless forced (or a keyword is
 * asked for), else a new one under a back-half derived from the command id, so that a redelivered command
 * finds its own link.
 */
export async function createShortlink(
  deps: HandlerDeps,
  message: IncomingMessage<N['CreateShortlink']>,
): Promise<ShortlinkReply> {
  return makeShortlink(deps, message.value, message.meta.id);
}

/** createShortlink's work, for every command that makes a link (a QR code for a long URL makes one too). */
export async function makeShortlink(
  deps: HandlerDeps,
  v: Omit<MessageTypes[N['CreateShortlink']], 'requested_at'> & { requested_at: number },
  commandId: string,
): Promise<ShortlinkReply> {
  const reusable = !v.force_new_link && v.keyword === null;
  // Commands of a group are handled one at a time: the reads a new link needs go out together, not in turn.
  const directory = deps.store.forRequest(v.organization_id);
  const [group, existing, branded, user] = await Promise.all([
    directory.getGroup(v.organization_id, v.group_guid),
    reusable ? deps.reusables.get(v, commandId) : null,
    directory.getDomain(v.domain),
    deps.members.get(v.organization_id, v.user_id),
  ]);
  if (!group) throw new NotFoundError('NOT_FOUND', 'No such group.');
  if (existing) return { link: strip(existing), created: existing.command_id === commandId };
  await assertTagsFit(deps, v.organization_id, v.group_guid, v.tags);
  const now = new Date(v.requested_at);
  const base = {
    organization_id: v.organization_id,
    group_guid: v.group_guid,
    domain: v.domain,
    custom: v.keyword !== null,
    long_url: v.long_url,
    reuse_key: reusable ? reuseKeyOf(v.group_guid, v.long_url) : null,
    title: v.title,
    tags: [...new Set(v.tags)],
    deeplinks: v.deeplinks.map((d) => ({ ...d, guid: randomUUID(), created: now, modified: now })),
    campaign_ids: [],
    archived: false,
    expiration_at: v.expiration_at === null ? null : new Date(v.expiration_at),
    redirect_status: branded?.redirect_status ?? 301,
    created_at: now,
    created_by: user?.username ?? v.user_id,
    modified_at: now,
    deleted_at: null,
    command_id: commandId,
  } satisfies Omit<Stored, '_id' | 'hash'>;
  const hashes =
    v.keyword !== null ? [v.keyword] : Array.from({ length: HASH_ATTEMPTS }, (_, i) => hashForCommand(commandId, i));
  for (const hash of hashes) {
    const doc: Stored = { ...base, _id: `${v.domain}/${hash}`, hash };
    const event = outboxEvent(MessageTypeNames.ShortlinkCreated, doc._id, {
      ...stateOf(doc),
      created_by: doc.created_by,
      occurred_at: Date.now(),
    });
    if (await deps.writer.insertLink(doc, [event])) {
      deps.reusables.created(doc);
      return { link: doc, created: true };
    }
    const holder = await deps.store.getLink(v.organization_id, doc._id);
    if (holder?.command_id === commandId) return { link: strip(holder), created: true };
  }
  if (v.keyword !== null)
    throw new ConflictError('KEYWORD_UNAVAILABLE', `The keyword ${v.keyword} is in use on ${v.domain}.`);
  throw new Error(`no free back-half after ${HASH_ATTEMPTS} attempts on ${v.domain}`);
}

export async function updateShortlink(
  deps: HandlerDeps,
  message: IncomingMessage<N['UpdateShortlink']>,
): Promise<ShortlinkReply> {
  const v = message.value;
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await deps.store.getLink(v.organization_id, v.id);
    if (!doc) throw new NotFoundError('NOT_FOUND', 'No such short link.');
    if (v.tags !== null) await assertTagsFit(deps, v.organization_id, doc.group_guid, v.tags);
    const changes: Partial<Stored> = { modified_at: new Date(Math.max(v.requested_at, doc.modified_at.getTime() + 1)) };
    if (v.title !== null) changes.title = v.title;
    if (v.archived !== null) changes.archived = v.archived;
    if (v.tags !== null) changes.tags = [...new Set(v.tags)];
    if (v.long_url !== null && v.long_url !== doc.long_url) {
      changes.long_url = v.long_url;
      changes.reuse_key = null; // pointed elsewhere: a shorten of either URL no longer returns it
    }
    if (v.clear_expiration) changes.expiration_at = null;
    else if (v.expiration_at !== null) changes.expiration_at = new Date(v.expiration_at);
    const after: Stored = { ...strip(doc), ...changes };
    const event = outboxEvent(MessageTypeNames.ShortlinkChanged, doc._id, {
      ...stateOf(after),
      deleted: false,
      occurred_at: Date.now(),
    });
    if (
      await deps.writer.links.change({ _id: doc._id, modified_at: doc.modified_at, deleted_at: null }, changes, [event])
    ) {
      return { link: after, created: false };
    }
  }
  throw new Error(`the short link ${v.id} kept changing`);
}

export async function deleteShortlink(
  deps: HandlerDeps,
  message: IncomingMessage<N['DeleteShortlink']>,
): Promise<{ id: string }> {
  const v = message.value;
  const doc = await deps.store.getLink(v.organization_id, v.id);
  if (!doc) {
    // Deleted before (a redelivered command) or never there: the same answer the first time would have had.
    throw new NotFoundError('NOT_FOUND', 'No such short link.');
  }
  if (doc.custom)
    throw new InputError('INVALID_ARG_SHORTLINK', 'A custom short link cannot be deleted; archive it instead.');
  const at = new Date(v.requested_at);
  const event = outboxEvent(MessageTypeNames.ShortlinkChanged, doc._id, {
    ...stateOf(strip(doc)),
    deleted: true,
    occurred_at: Date.now(),
  });
  // False when a concurrent delete came first: the answer is the same.
  await deps.writer.links.change(
    { _id: doc._id, deleted_at: null },
    { deleted_at: at, reuse_key: null, modified_at: at },
    [event],
  );
  return { id: doc._id };
}

const MAX_BULK = 100;

/**
 * Archive or retag up to 100 links of a group; answers every id that is now in the asked state (so that a
 * redelivered command answers the same), and each link actually changed reports it in a ShortlinkChanged.
 */
export async function bulkEditShortlinks(
  deps: HandlerDeps,
  message: IncomingMessage<N['BulkEditShortlinks']>,
): Promise<{ ids: string[] }> {
  const v = message.value;
  if (v.ids.length > MAX_BULK) throw new InputError('INVALID_ARG_LINKS', `At most ${MAX_BULK} short links per update.`);
  const login = v.own_links_only
    ? ((await deps.members.get(v.organization_id, v.user_id))?.username ?? v.user_id)
    : null;
  if (v.action !== 'archive') await assertTagsFit(deps, v.organization_id, v.group_guid, v.add_tags);
  const updated: string[] = [];
  for (const id of [...new Set(v.ids)]) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const doc = await deps.store.getLink(v.organization_id, id);
      if (!doc || doc.group_guid !== v.group_guid) break;
      if (login !== null && doc.created_by !== login) break;
      const changes: Partial<Stored> = {};
      if (v.action === 'archive') {
        if (doc.archived !== v.archive) changes.archived = v.archive;
      } else {
        const tags = [...new Set([...doc.tags.filter((t) => !v.remove_tags.includes(t)), ...v.add_tags])];
        if (tags.length !== doc.tags.length || tags.some((t, i) => t !== doc.tags[i])) changes.tags = tags;
      }
      if (Object.keys(changes).length === 0) {
        updated.push(id);
        break;
      }
      changes.modified_at = new Date(Math.max(v.requested_at, doc.modified_at.getTime() + 1));
      const after: Stored = { ...strip(doc), ...changes };
      const event = outboxEvent(MessageTypeNames.ShortlinkChanged, doc._id, {
        ...stateOf(after),
        deleted: false,
        occurred_at: Date.now(),
      });
      if (
        await deps.writer.links.change({ _id: doc._id, modified_at: doc.modified_at, deleted_at: null }, changes, [
          event,
        ])
      ) {
        updated.push(id);
        break;
      }
    }
  }
  return { ids: updated };
}
