import type { HttpApp } from '@platform/http';
import { qrFullJson } from '@platform/links';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { qrFor, viewOf } from './qr-code.js';
import { QrCode, QrCodeParams } from './schemas.js';

export function getQrCodeRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/qr-codes/:qrcode_id',
    {
      schema: {
        summary: 'A QR code (full form)',
        tags: ['qr-codes'],
        security,
        params: QrCodeParams,
        response: { 200: QrCode, ...errorResponses },
      },
    },
    async (request) => {
      const { qr } = await qrFor(deps, request.caller!, request.params.qrcode_id);
      return qrFullJson(qr, await deps.store.getLink(qr.organization_id, qr.shortlink_id), viewOf(deps));
    },
  );
}
