import { InputError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import { encodeSearchAfter, qrSummaryJson, readQrListQuery } from '@platform/links';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { viewOf } from './qr-code.js';
import { QrCodeList, QrListQuery } from './schemas.js';

export function listGroupQrCodesRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/groups/:group_guid/qr-codes',
    {
      schema: {
        summary: "A group's QR codes, newest first",
        tags: ['qr-codes'],
        security,
        params: Type.Object({ group_guid: Type.String({ minLength: 1, maxLength: 100 }) }),
        querystring: QrListQuery,
        response: { 200: QrCodeList, ...errorResponses },
      },
    },
    async (request) => {
      const access = await accessTo(deps, request.caller!, request.params.group_guid);
      // The schema checked the forms; the reader applies the defaults, splits the lists and opens the token.
      const raw = Object.fromEntries(
        Object.entries(request.query).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
      );
      const read = readQrListQuery(raw);
      if (!read.ok) {
        const first = read.problems[0]!;
        throw new InputError(`INVALID_ARG_${first.field.toUpperCase()}`, first.message, {
          issues: read.problems.map((p) => ({ field: p.field, code: 'invalid', message: p.message })),
        });
      }
      const page = await deps.store.listQrCodes(access.group.organization_id, access.group._id, read.value);
      const links = await Promise.all(page.map((qr) => deps.store.getLink(qr.organization_id, qr.shortlink_id)));
      const last = page.length === read.value.size ? page.at(-1) : undefined;
      const searchAfter = last ? encodeSearchAfter({ createdAt: last.created_at.getTime(), id: last._id }) : '';
      let next = '';
      if (searchAfter) {
        // The next page keeps the parameters as the client sent them.
        const params = new URLSearchParams(request.url.split('?')[1] ?? '');
        params.delete('search_after');
        params.set('search_after', searchAfter);
        next = `${deps.publicBaseUrl}/v4/groups/${access.group._id}/qr-codes?${params.toString()}`;
      }
      const view = viewOf(deps);
      return {
        qr_codes: page.map((qr, i) => qrSummaryJson(qr, links[i] ?? null, view)),
        pagination: { next, search_after: searchAfter, size: read.value.size },
      };
    },
  );
}
