import { expirationOf, invalid } from '../../input.js';

export { expirationOf, invalid };
import type { FastifyReply } from 'fastify';
import type { MemberRecord } from '@platform/accounts';
import { InputError, NotAllowedError, NotFoundError } from '@platform/errors';
import { qrSummaryJson, type QrCodeDoc } from '@platform/links';
import { readRenderCustomizations, type RenderCustomizations } from '@platform/qr';
import { accessTo, type GroupAccess } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { MEDIA_TYPES, type QrFormat, type Wanted } from '../../qr-images.js';

export const forbidden = () => new NotAllowedError('FORBIDDEN', 'You are currently forbidden to access this resource.');

/** A 400 naming the member, for checks that need data or the clock (the schema does the shapes). */
export const viewOf = (deps: RouteDeps) => ({ scheme: deps.scheme });

/** A code of the caller's organization (404 otherwise) and the caller's role in its group (403 if none). */
export async function qrFor(
  deps: RouteDeps,
  caller: MemberRecord,
  id: string,
): Promise<{ qr: QrCodeDoc; access: GroupAccess }> {
  const qr = await deps.store.getQrCode(caller.environment_id, id);
  if (!qr) throw new NotFoundError('NOT_FOUND', 'No such QR code.');
  return { qr, access: await accessTo(deps, caller, qr.group_guid) };
}

/** The customizations read by @platform/qr: every member checked, defaults filled in, unreadable codes refused. */
export function customizationsOf(raw: unknown, allowed: 'full' | 'static'): RenderCustomizations {
  const read = readRenderCustomizations(raw ?? {}, { allowed });
  if (!read.ok) {
    const [first] = read.problems;
    throw new InputError('INVALID_ARG_RENDER_CUSTOMIZATIONS', first?.message ?? 'render_customizations is not valid', {
      issues: read.problems.map((p) => ({ field: p.field, code: 'invalid', message: p.message })),
    });
  }
  return read.value;
}

/** A logo named in the customizations must be one of the organization's uploads. */
export async function assertLogo(deps: RouteDeps, caller: MemberRecord, customizations: RenderCustomizations) {
  const guid = customizations.logo?.image_guid;
  if (!guid) return;
  const logo = await deps.store.getQrLogo(caller.environment_id, guid);
  if (!logo) throw invalid('render_customizations.logo.image_guid', 'No such uploaded image.', 'INVALID_ARG_LOGO');
}

/** The summary form of a code just written. */
export async function summaryOf(deps: RouteDeps, caller: MemberRecord, id: string) {
  const qr = (await deps.store.getQrCode(caller.environment_id, id))!;
  return qrSummaryJson(qr, await deps.store.getLink(qr.organization_id, qr.shortlink_id), viewOf(deps));
}

/** Sends an image as the request wants it: raw with its media type, or JSON (`key` a data: URI or bare base64). */
export function sendImage(
  reply: FastifyReply,
  image: Buffer,
  wanted: Wanted,
  json: (base64: string, format: QrFormat) => Record<string, string>,
) {
  reply.header('vary', 'Accept').header('cache-control', 'private, max-age=300');
  if (wanted.as === 'json') return reply.send(json(image.toString('base64'), wanted.format));
  return reply.type(MEDIA_TYPES[wanted.format]).send(image);
}
