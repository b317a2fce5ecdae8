import { randomBytes } from 'node:crypto';
import { MessageTypeNames } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { Type, deferredBodyValidation, type HttpApp } from '@platform/http';
import { validateLogo } from '@platform/qr';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';

const MAX_LOGO_BYTES = 512 * 1024;
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp', 'image/gif', 'image/svg+xml'];
const bytes = { schema: Type.String({ format: 'binary' }) };

const UploadedLogo = Type.Object({
  image_guid: Type.String({ description: 'For render_customizations.logo.image_guid.' }),
  media_type: Type.String({ description: 'The type found in the bytes.' }),
  width: Type.Integer(),
  height: Type.Integer(),
});

export function uploadQrCodeLogoRoute(app: HttpApp, deps: RouteDeps) {
  // The bytes of the upload, to this route only; the rest of the API takes JSON.
  void app.register(async (scope) => {
    const uploads = scope as HttpApp;
    uploads.addContentTypeParser(LOGO_TYPES, { parseAs: 'buffer', bodyLimit: MAX_LOGO_BYTES }, (_request, body, done) =>
      done(null, body),
    );
    uploads.post(
      '/v4/qr-codes/images',
      {
        // A schema validator would see a Buffer where the document says binary: validateLogo reads the bytes.
        validatorCompiler: deferredBodyValidation(),
        schema: {
          summary: 'Upload a logo for render_customizations.logo (PNG, JPEG, WebP, GIF or SVG without scripts)',
          description: `The image itself as the body, at most ${MAX_LOGO_BYTES / 1024} KiB, with its Content-Type.`,
          tags: ['qr-codes'],
          security,
          body: { content: Object.fromEntries(LOGO_TYPES.map((type) => [type, bytes])) },
          response: { 201: UploadedLogo, ...errorResponses },
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
