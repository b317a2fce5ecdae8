import { Type, type HttpApp } from '@platform/http';
import { qrContent } from '@platform/links';
import type { RenderCustomizations } from '@platform/qr';
import type { RouteDeps } from '../../deps.js';
import { MEDIA_TYPES, negotiate } from '../../qr-images.js';
import { BitlyError, errorResponses, security } from '../../schemas.js';
import { qrFor, sendImage } from './qr-code.js';
import { FormatQuery, QrCodeParams, imageResponse } from './schemas.js';

export function getQrCodeImageRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/v4/qr-codes/:qrcode_id/image',
    {
      schema: {
        summary: "A QR code's image (SVG or PNG; raw or in JSON by Accept)",
        description:
          'Raw unless Accept asks for application/json: then {qr_code_image: a data: URI} in the format asked.',
        tags: ['qr-codes'],
        security,
        params: QrCodeParams,
        querystring: FormatQuery,
        response: {
          200: imageResponse(
            Type.Object({ qr_code_image: Type.String({ description: 'data:image/svg+xml;base64,... (or PNG).' }) }),
          ),
          ...errorResponses,
          406: BitlyError,
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const { qr } = await qrFor(deps, caller, request.params.qrcode_id);
      const wanted = negotiate(request.headers.accept, request.query.format ?? 'svg', 'raw');
      const image = await deps.qrImages.render(
        qrContent(deps.scheme, qr.shortlink_id, qr._id),
        qr.render_customizations as RenderCustomizations,
        wanted.format,
        caller.environment_id,
      );
      return sendImage(reply, image, wanted, (base64, format) => ({
        qr_code_image: `data:${MEDIA_TYPES[format]};base64,${base64}`,
      }));
    },
  );
}
