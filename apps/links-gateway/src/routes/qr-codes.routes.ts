import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotAllowedError, NotFoundError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import {
  encodeSearchAfter,
  parseShortlinkId,
  qrContent,
  qrFullJson,
  qrSummaryJson,
  readLongUrl,
  readQrListQuery,
  type QrCodeDoc,
} from '@platform/links';
import { isCustomized, readRenderCustomizations, validateLogo, type RenderCustomizations } from '@platform/qr';
import { accessTo, type GroupAccess } from '../access.js';
import { bodyOf, booleanField, expirationField, invalid, isObject, present, stringField, tagsField } from '../body.js';
import type { GatewayDeps } from '../deps.js';
import { MEDIA_TYPES, formatParam, negotiate, type QrFormat, type QrImages, type Wanted } from '../qr-images.js';

const MAX_GS1_VALUES = 50;
const MAX_STATIC_CONTENT = 2048;
const MAX_LOGO_BYTES = 512 * 1024;
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml'];

type QrParams = { Params: { qrcode_id: string } };

const forbidden = () => new NotAllowedError('FORBIDDEN', 'You are currently forbidden to access this resource.');

function gs1Field(body: Record<string, unknown>): Array<{ key: string; value: string }> | null {
  const v = body['gs1'];
  if (!present(v)) return null;
  const values = isObject(v) ? v['values'] : undefined;
  const ok = (e: unknown): e is { key: string; value: string } =>
    isObject(e) &&
    typeof e['key'] === 'string' &&
    e['key'].length > 0 &&
    e['key'].length <= 10 &&
    typeof e['value'] === 'string' &&
    e['value'].length <= 200;
  if (!Array.isArray(values) || values.length > MAX_GS1_VALUES || !values.every(ok)) {
    throw invalid(
      'gs1',
      `gs1 is {values: [{key, value}]} with at most ${MAX_GS1_VALUES} application identifiers`,
      'INVALID_ARG_GS1',
    );
  }
  return values.map((e) => ({ key: e.key, value: e.value }));
}

function customizationsField(raw: unknown, allowed: 'full' | 'static'): RenderCustomizations {
  const read = readRenderCustomizations(raw ?? {}, { allowed });
  if (!read.ok) {
    const [first] = read.problems;
    throw new InputError('INVALID_ARG_RENDER_CUSTOMIZATIONS', first?.message ?? 'render_customizations is not valid', {
      issues: read.problems.map((p) => ({ field: p.field, code: 'invalid', message: p.message })),
    });
  }
  return read.value;
}

/** Sends an image as the request wants it: raw with its media type, or JSON (`key` a data: URI or bare base64). */
function sendImage(
  reply: FastifyReply,
  image: Buffer,
  wanted: Wanted,
  json: (base64: string, format: QrFormat) => Record<string, string>,
) {
  reply.header('vary', 'Accept').header('cache-control', 'private, max-age=300');
  if (wanted.as === 'json') return reply.send(json(image.toString('base64'), wanted.format));
  return reply.type(MEDIA_TYPES[wanted.format]).send(image);
}

/**
 * QR codes (Bitly's `/v4/qr-codes`): each encodes its short link with a `?qr=<id>` marker, by which the
 * redirector counts a scan. Images come from the project's SVG renderer (libs/qr), PNG rasterized from it.
 */
export function qrCodeRoutes(app: HttpApp, deps: GatewayDeps & { qrImages: QrImages }) {
  const view = { scheme: deps.scheme };
  const ownDomains = async (caller: MemberRecord) =>
    new Set([deps.defaultDomain, ...(await deps.store.domainsOfOrganization(caller.environment_id)).map((d) => d._id)]);

  async function qrFor(caller: MemberRecord, id: string): Promise<{ qr: QrCodeDoc; access: GroupAccess }> {
    const qr = await deps.store.getQrCode(id);
    if (!qr || qr.organization_id !== caller.environment_id) throw new NotFoundError('NOT_FOUND', 'No such QR code.');
    return { qr, access: await accessTo(deps, caller, qr.group_guid) };
  }

  /** As with links: a group's users change only the codes they made; editors and admins any of the group's. */
  function assertMayEditQr(access: GroupAccess, caller: MemberRecord, qr: QrCodeDoc) {
    if (access.role === 'GROUP_USER' && qr.created_by !== caller.username) throw forbidden();
  }

  /** A logo named in the customizations must be one of the organization's uploads. */
  async function assertLogo(caller: MemberRecord, customizations: RenderCustomizations) {
    const guid = customizations.logo?.image_guid;
    if (!guid) return;
    const logo = await deps.store.getQrLogo(guid);
    if (!logo || logo.organization_id !== caller.environment_id) {
      throw invalid('render_customizations.logo.image_guid', 'No such uploaded image.', 'INVALID_ARG_LOGO');
    }
  }

  async function summary(id: string) {
    const qr = (await deps.store.getQrCode(id))!;
    return qrSummaryJson(qr, await deps.store.getLink(qr.shortlink_id), view);
  }

  app.post(
    '/v4/qr-codes',
    { schema: { summary: 'Create a QR code for a short link or a long URL', tags: ['qr-codes'] } },
    async (request, reply) => {
      const caller = request.caller!;
      const body = bodyOf(request);
      const groupGuid = stringField(body, 'group_guid', 100);
      if (!groupGuid) throw invalid('group_guid', 'group_guid is required');
      const access = await accessTo(deps, caller, groupGuid);
      const destination = body['destination'];
      if (!isObject(destination))
        throw invalid('destination', 'destination is required: an object with shortlink_id or long_url');
      let shortlinkId: string | null = null;
      let longUrl: string | null = null;
      if (present(destination['shortlink_id']) || present(destination['bitlink_id'])) {
        const raw = destination['shortlink_id'] ?? destination['bitlink_id'];
        const id = typeof raw === 'string' ? parseShortlinkId(raw) : null;
        if (!id)
          throw invalid(
            'destination.shortlink_id',
            'shortlink_id is a short link such as sho.rt/abc1234',
            'INVALID_ARG_SHORTLINK_ID',
          );
        shortlinkId = `${id.domain}/${id.hash}`;
      } else if (present(destination['long_url'])) {
        const read = readLongUrl(destination['long_url'], await ownDomains(caller));
        if (!read.ok) throw invalid('destination.long_url', read.detail, read.problem);
        longUrl = read.url;
      } else {
        throw invalid('destination', 'destination needs a shortlink_id or a long_url', 'INVALID_ARG_DESTINATION');
      }
      const customizations = customizationsField(body['render_customizations'], 'full');
      await assertLogo(caller, customizations);
      const expiration = expirationField(body);
      const qrcodeId = `Q${randomBytes(5).toString('hex')}`;
      await deps.commands.send(MessageTypeNames.CreateQrCode, access.group._id, {
        organization_id: caller.environment_id,
        user_id: caller._id,
        qrcode_id: qrcodeId,
        group_guid: access.group._id,
        shortlink_id: shortlinkId,
        long_url: longUrl,
        domain: access.group.domain_preference ?? deps.defaultDomain,
        title: stringField(body, 'title', 200),
        render_customizations: JSON.stringify(customizations),
        is_customized: isCustomized(customizations),
        gs1_values: gs1Field(body),
        archived: booleanField(body, 'archived') ?? false,
        expiration_at: expiration.at,
        tags: tagsField(body) ?? [],
      });
      return reply.code(201).send(await summary(qrcodeId));
    },
  );

  app.get<QrParams>(
    '/v4/qr-codes/:qrcode_id',
    { schema: { summary: 'A QR code (full form)', tags: ['qr-codes'] } },
    async (request) => {
      const { qr } = await qrFor(request.caller!, request.params.qrcode_id);
      return qrFullJson(qr, await deps.store.getLink(qr.shortlink_id), view);
    },
  );

  app.patch<QrParams>(
    '/v4/qr-codes/:qrcode_id',
    { schema: { summary: 'Edit a QR code: title, customizations, archived, expiry, tags', tags: ['qr-codes'] } },
    async (request) => {
      const caller = request.caller!;
      const { qr, access } = await qrFor(caller, request.params.qrcode_id);
      assertMayEditQr(access, caller, qr);
      const body = bodyOf(request);
      const customizations = present(body['render_customizations'])
        ? customizationsField(body['render_customizations'], 'full')
        : null;
      if (customizations) await assertLogo(caller, customizations);
      const expiration = expirationField(body);
      await deps.commands.send(MessageTypeNames.UpdateQrCode, qr.group_guid, {
        organization_id: caller.environment_id,
        user_id: caller._id,
        qrcode_id: qr._id,
        title: stringField(body, 'title', 200),
        render_customizations: customizations ? JSON.stringify(customizations) : null,
        is_customized: customizations ? isCustomized(customizations) : null,
        archived: booleanField(body, 'archived'),
        expiration_at: expiration.at,
        clear_expiration: expiration.clear,
        tags: tagsField(body),
      });
      return summary(qr._id);
    },
  );

  app.delete<QrParams>(
    '/v4/qr-codes/:qrcode_id',
    { schema: { summary: 'Delete a QR code never scanned (and its short link)', tags: ['qr-codes'] } },
    async (request) => {
      const caller = request.caller!;
      const { qr, access } = await qrFor(caller, request.params.qrcode_id);
      assertMayEditQr(access, caller, qr);
      return deps.commands.send(MessageTypeNames.DeleteQrCode, qr.group_guid, {
        organization_id: caller.environment_id,
        user_id: caller._id,
        qrcode_id: qr._id,
      });
    },
  );

  app.get<QrParams & { Querystring: { format?: string } }>(
    '/v4/qr-codes/:qrcode_id/image',
    { schema: { summary: "A QR code's image (SVG or PNG; raw or in JSON by Accept)", tags: ['qr-codes'] } },
    async (request, reply) => {
      const caller = request.caller!;
      const { qr } = await qrFor(caller, request.params.qrcode_id);
      const wanted = negotiate(request.headers.accept, formatParam(request.query.format), 'raw');
      const content = qrContent(deps.scheme, qr.shortlink_id, qr._id);
      const image = await deps.qrImages.render(
        content,
        qr.render_customizations as RenderCustomizations,
        wanted.format,
        caller.environment_id,
      );
      return sendImage(reply, image, wanted, (base64, format) => ({
        qr_code_image: `data:${MEDIA_TYPES[format]};base64,${base64}`,
      }));
    },
  );

  app.post<{ Querystring: { format?: string } }>(
    '/v4/qr-codes/static',
    {
      schema: {
        summary: 'Render a QR code for any content without saving it (enabled per organization)',
        tags: ['qr-codes'],
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const body = bodyOf(request);
      const content = stringField(body, 'content', MAX_STATIC_CONTENT);
      if (!content) throw invalid('content', `content is required: at most ${MAX_STATIC_CONTENT} characters to encode`);
      const groupGuid = stringField(body, 'group_guid', 100);
      if (!groupGuid) throw invalid('group_guid', 'group_guid is required');
      await accessTo(deps, caller, groupGuid);
      if (!(await deps.store.organizationFeatures(caller.environment_id)).static_qr_codes) {
        throw new NotAllowedError('FORBIDDEN', 'Static QR codes are not enabled for this organization.');
      }
      const customizations = customizationsField(body['render_customizations'], 'static');
      const wanted = negotiate(request.headers.accept, formatParam(request.query.format), 'json');
      const image = await deps.qrImages.render(content, customizations, wanted.format, caller.environment_id);
      return sendImage(reply, image, wanted, (base64) => ({ image: base64 }));
    },
  );

  app.get<{ Params: { group_guid: string }; Querystring: Record<string, string | string[] | undefined> }>(
    '/v4/groups/:group_guid/qr-codes',
    { schema: { summary: "A group's QR codes, newest first", tags: ['qr-codes'] } },
    async (request) => {
      const caller = request.caller!;
      const access = await accessTo(deps, caller, request.params.group_guid);
      const read = readQrListQuery(request.query);
      if (!read.ok) {
        throw new InputError(`INVALID_ARG_${read.problems[0]!.field.toUpperCase()}`, read.problems[0]!.message, {
          issues: read.problems.map((p) => ({ field: p.field, code: 'invalid', message: p.message })),
        });
      }
      const page = await deps.store.listQrCodes(access.group._id, read.value);
      const links = await Promise.all(page.map((qr) => deps.store.getLink(qr.shortlink_id)));
      const last = page.length === read.value.size ? page[page.length - 1] : undefined;
      const searchAfter = last ? encodeSearchAfter({ createdAt: last.created_at.getTime(), id: last._id }) : '';
      let next = '';
      if (searchAfter) {
        const params = new URLSearchParams();
        for (const [k, v] of Object.entries(request.query))
          for (const one of [v ?? []].flat()) if (k !== 'search_after') params.append(k, one);
        params.set('search_after', searchAfter);
        next = `${deps.publicBaseUrl}/v4/groups/${access.group._id}/qr-codes?${params.toString()}`;
      }
      return {
        qr_codes: page.map((qr, i) => qrSummaryJson(qr, links[i] ?? null, view)),
        pagination: { next, search_after: searchAfter, size: read.value.size },
      };
    },
  );

  app.register(async (uploads) => {
    uploads.addContentTypeParser(LOGO_TYPES, { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    uploads.post(
      '/v4/qr-codes/images',
      {
        schema: {
          summary: 'Upload a logo for render_customizations.logo (PNG, JPEG, WebP, GIF or SVG without scripts)',
          tags: ['qr-codes'],
        },
      },
      async (request, reply) => {
        const caller = request.caller!;
        const declared = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
        if (!LOGO_TYPES.includes(declared) || !Buffer.isBuffer(request.body)) {
          throw new InputError(
            'INVALID_ARG_IMAGE',
            `Send the image as the body with Content-Type ${LOGO_TYPES.join(', ')} (at most ${MAX_LOGO_BYTES / 1024} KiB).`,
          );
        }
        const checked = await validateLogo(request.body, declared);
        if (!checked.ok) throw new InputError('INVALID_ARG_IMAGE', checked.problem);
        const imageGuid = `I${randomBytes(6).toString('hex')}`;
        await deps.commands.send(MessageTypeNames.SaveQrLogo, caller.environment_id, {
          organization_id: caller.environment_id,
          user_id: caller._id,
          image_guid: imageGuid,
          media_type: checked.mediaType,
          width: checked.width,
          height: checked.height,
          bytes: request.body,
        });
        return reply
          .code(201)
          .send({ image_guid: imageGuid, media_type: checked.mediaType, width: checked.width, height: checked.height });
      },
    );
  });
}
