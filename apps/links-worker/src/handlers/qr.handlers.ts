import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import type { LinkDoc, QrCodeDoc } from '@platform/links';
import { outboxEvent } from '@platform/mongo';
import type { HandlerDeps } from './deps.js';
import { makeShortlink, stateOf, strip } from './shortlink.handlers.js';

type N = typeof MessageTypeNames;
type Stored = Omit<LinkDoc, 'outbox' | 'has_outbox'>;

const noQrCode = () => new NotFoundError('NOT_FOUND', 'No such QR code.');

async function qrCodeOf(deps: HandlerDeps, organizationId: string, id: string): Promise<QrCodeDoc> {
  const qr = await deps.store.getQrCode(organizationId, id);
  if (!qr) throw noQrCode();
  return qr;
}

/**
 * Changes the QR code's short link (its list of codes, its expiry) and reports the link as it is after, so that
 * every redirector evicts it and knows the code's `?qr=` marker from then on. Retried on a concurrent change.
 */
async function changeLink(
  deps: HandlerDeps,
  organizationId: string,
  linkId: string,
  at: Date,
  change: { addQrCode?: string; expiration?: Date | null },
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const doc = await deps.store.getLink(organizationId, linkId);
    if (!doc) return;
    const codes = doc.qr_code_ids ?? [];
    const adds = change.addQrCode !== undefined && !codes.includes(change.addQrCode);
    const expires =
      change.expiration !== undefined &&
      (doc.expiration_at?.getTime() ?? null) !== (change.expiration?.getTime() ?? null);
    if (!adds && !expires) return;
    const after: Stored = {
      ...strip(doc),
      ...(expires ? { expiration_at: change.expiration ?? null } : {}),
      modified_at: at,
    };
    const event = outboxEvent(MessageTypeNames.ShortlinkChanged, linkId, {
      ...stateOf(after),
      deleted: false,
      occurred_at: Date.now(),
    });
    const changed = await deps.writer.links.change(
      { _id: linkId, modified_at: doc.modified_at, ...(adds ? { qr_code_ids: { $ne: change.addQrCode } } : {}) },
      { modified_at: at, ...(expires ? { expiration_at: change.expiration ?? null } : {}) },
      [event],
      adds ? { $push: { qr_code_ids: change.addQrCode } } : {},
    );
    if (changed) {
      return;
    }
  }
  throw new Error(`the short link ${linkId} kept changing`);
}

/**
 * A QR code for a short link of the group, or for a long URL: then a new short link is made for it, under a
 * back-half derived from this command's id, so a redelivered command finds both the link and the code it made.
 */
export async function createQrCode(
  deps: HandlerDeps,
  message: IncomingMessage<N['CreateQrCode']>,
): Promise<{ qrcode_id: string; shortlink_id: string }> {
  const v = message.value;
  const existing = await deps.store.getQrCode(v.organization_id, v.qrcode_id);
  if (existing) {
    return { qrcode_id: existing._id, shortlink_id: existing.shortlink_id };
  }
  const group = await deps.store.getGroup(v.organization_id, v.group_guid);
  if (!group) throw new NotFoundError('NOT_FOUND', 'No such group.');
  const at = new Date(v.requested_at);
  let link: Stored;
  if (v.shortlink_id !== null) {
    const found = await deps.store.getLink(v.organization_id, v.shortlink_id);
    if (!found || found.group_guid !== v.group_guid) {
      const message = 'No such short link in the group.';
      throw new InputError('INVALID_ARG_SHORTLINK_ID', message, {
        issues: [{ field: 'destination.shortlink_id', code: 'invalid', message }],
      });
    }
    link = strip(found);
  } else if (v.long_url !== null) {
    const made = await makeShortlink(
      deps,
      {
        organization_id: v.organization_id,
        user_id: v.user_id,
        group_guid: v.group_guid,
        domain: v.domain,
        long_url: v.long_url,
        keyword: null,
        title: v.title,
        tags: [],
        deeplinks: [],
        expiration_at: v.expiration_at,
        force_new_link: true,
        requested_at: v.requested_at,
      },
      message.meta.id,
    );
    link = made.link;
  } else {
    const message = 'destination needs a shortlink_id or a long_url.';
    throw new InputError('INVALID_ARG_DESTINATION', message, {
      issues: [{ field: 'destination', code: 'invalid', message }],
    });
  }
  const user = await deps.members.get(v.organization_id, v.user_id);
  await deps.writer.insertQrCode({
    _id: v.qrcode_id,
    organization_id: v.organization_id,
    group_guid: v.group_guid,
    title: v.title ?? '',
    qr_code_type: v.shortlink_id !== null ? 'shortlink' : 'long_url',
    shortlink_id: link._id,
    long_url: link.long_url,
    render_customizations: JSON.parse(v.render_customizations) as Record<string, unknown>,
    is_customized: v.is_customized,
    gs1: v.gs1_values ? { values: v.gs1_values } : null,
    tags: [...new Set(v.tags)],
    archived: v.archived,
    created_by: user?.username ?? v.user_id,
    created_at: at,
    modified_at: at,
    command_id: message.meta.id,
  });
  await changeLink(deps, v.organization_id, link._id, at, {
    addQrCode: v.qrcode_id,
    ...(v.expiration_at !== null ? { expiration: new Date(v.expiration_at) } : {}),
  });
  return { qrcode_id: v.qrcode_id, shortlink_id: link._id };
}

export async function updateQrCode(
  deps: HandlerDeps,
  message: IncomingMessage<N['UpdateQrCode']>,
): Promise<{ qrcode_id: string }> {
  const v = message.value;
  const qr = await qrCodeOf(deps, v.organization_id, v.qrcode_id);
  const at = new Date(v.requested_at);
  const changes: Partial<QrCodeDoc> = { modified_at: at };
  if (v.title !== null) changes.title = v.title;
  if (v.render_customizations !== null)
    changes.render_customizations = JSON.parse(v.render_customizations) as Record<string, unknown>;
  if (v.is_customized !== null) changes.is_customized = v.is_customized;
  if (v.archived !== null) changes.archived = v.archived;
  if (v.tags !== null) changes.tags = [...new Set(v.tags)];
  await deps.writer.updateQrCode(qr.organization_id, qr._id, changes);
  if (v.clear_expiration) await changeLink(deps, qr.organization_id, qr.shortlink_id, at, { expiration: null });
  else if (v.expiration_at !== null)
    await changeLink(deps, qr.organization_id, qr.shortlink_id, at, { expiration: new Date(v.expiration_at) });
  return { qrcode_id: qr._id };
}

/**
 * Only a code whose short link was never redirected (a scan is a redirect) and is not a custom link may go;
 * its short link is deleted with it, reported like any deleted link.
 */
export async function deleteQrCode(
  deps: HandlerDeps,
  message: IncomingMessage<N['DeleteQrCode']>,
): Promise<{ qrcodes_deleted: Array<{ id: string }>; links_deleted: Array<{ id: string }> }> {
  const v = message.value;
  const qr = await qrCodeOf(deps, v.organization_id, v.qrcode_id);
  const link = await deps.store.getLink(qr.organization_id, qr.shortlink_id);
  if (link?.custom)
    throw new ConflictError(
      'QR_CODE_OF_CUSTOM_SHORTLINK',
      'The QR code belongs to a custom short link: it cannot be deleted (archive it instead).',
    );
  if (link?.redirected_at)
    throw new ConflictError(
      'QR_CODE_REDIRECTED',
      'The QR code or its short link was already scanned or clicked: it cannot be deleted (archive it instead).',
    );
  const at = new Date(v.requested_at);
  if (link) {
    const event = outboxEvent(MessageTypeNames.ShortlinkChanged, link._id, {
      ...stateOf(strip(link)),
      deleted: true,
      occurred_at: Date.now(),
    });
    // False when the link was deleted or redirected meanwhile: then there is nothing more to delete.
    await deps.writer.links.change(
      { _id: link._id, deleted_at: null, redirected_at: null },
      { deleted_at: at, reuse_key: null, modified_at: at },
      [event],
    );
  }
  await deps.writer.deleteQrCode(qr.organization_id, qr._id);
  return { qrcodes_deleted: [{ id: qr._id }], links_deleted: link ? [{ id: link._id }] : [] };
}

export async function saveQrLogo(
  deps: HandlerDeps,
  message: IncomingMessage<N['SaveQrLogo']>,
): Promise<{ image_guid: string }> {
  const v = message.value;
  const user = await deps.members.get(v.organization_id, v.user_id);
  await deps.writer.saveQrLogo({
    _id: v.image_guid,
    organization_id: v.organization_id,
    media_type: v.media_type,
    width: v.width,
    height: v.height,
    bytes: Buffer.from(v.bytes),
    created_by: user?.username ?? v.user_id,
    created_at: new Date(v.requested_at),
  });
  return { image_guid: v.image_guid };
}

export async function setOrganizationFeatures(
  deps: HandlerDeps,
  message: IncomingMessage<N['SetLinksOrganizationFeatures']>,
): Promise<{ static_qr_codes: boolean }> {
  const v = message.value;
  if (v.static_qr_codes !== null)
    await deps.writer.setOrganizationFeatures(
      v.organization_id,
      { static_qr_codes: v.static_qr_codes },
      new Date(v.requested_at),
    );
  return deps.store.organizationFeatures(v.organization_id);
}
