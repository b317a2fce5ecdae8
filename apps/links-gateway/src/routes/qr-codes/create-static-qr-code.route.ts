import { NotAllowedError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { negotiate } from '../../qr-images.js';
import { BitlyError, errorResponses, security } from '../../schemas.js';
import { customizationsOf, sendImage } from './qr-code.js';
import { FormatQuery, GroupGuid, RenderCustomizationsInput, imageResponse } from './schemas.js';

const MAX_CONTENT = 2048;

const Body = Type.Object({
  content: Type.String({
    minLength: 1,
    maxLength: MAX_CONTENT,
    description: 'Any text to encode (a URL, a Wi-Fi network, a vCard...).',
    errorMessage: `must be 1 to ${MAX_CONTENT} characters to encode`,
  }),
  group_guid: GroupGuid,
  render_customizations: RenderCustomizationsInput,
});

export function createStaticQrCodeRoute(app: HttpApp, deps: RouteDeps) {
  app.post(
    '/v4/qr-codes/static',
    {
      schema: {
        summary: 'Render a QR code for any content without saving it (enabled per organization)',
        description:
          'Colours, dots, corners, branding and spec settings only. JSON ({image: base64}) unless Accept asks for an image type.',
        tags: ['qr-codes'],
        security,
        querystring: FormatQuery,
        body: Body,
        response: {
          200: imageResponse(Type.Object({ image: Type.String({ description: 'The image in base64.' }) })),
          ...errorResponses,
          406: BitlyError,
        },
      },
    },
    async (request, reply) => {
      const caller = request.caller!;
      const body = request.body;
      await accessTo(deps, caller, body.group_guid);
      if (!(await deps.store.organizationFeatures(caller.environment_id)).static_qr_codes)
        throw new NotAllowedError('FORBIDDEN', 'Static QR codes are not enabled for this organization.');
      const customizations = customizationsOf(body.render_customizations, 'static');
      const wanted = negotiate(request.headers.accept, request.query.format ?? 'svg', 'json');
      const image = await deps.qrImages.render(body.content, customizations, wanted.format, caller.environment_id);
      return sendImage(reply, image, wanted, (base64) => ({ image: base64 }));
    },
  );
}
