import { MessageTypeNames } from '@platform/contracts';
import { Type, type HttpApp } from '@platform/http';
import { assertMayEdit } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { BitlyError, errorResponses, security } from '../../schemas.js';
import { qrFor } from './qr-code.js';
import { QrCodeParams } from './schemas.js';

const Ids = Type.Array(Type.Object({ id: Type.String() }));

export function deleteQrCodeRoute(app: HttpApp, deps: RouteDeps) {
  app.delete(
    '/v4/qr-codes/:qrcode_id',
    {
      schema: {
        summary: 'Delete a QR code never scanned (and its short link)',
        description:
          '409 QR_CODE_REDIRECTED once its short link has redirected, 409 QR_CODE_OF_CUSTOM_SHORTLINK for a code of a custom link.',
        tags: ['qr-codes'],
        security,
        params: QrCodeParams,
        response: {
          200: Type.Object({ qrcodes_deleted: Ids, links_deleted: Ids }),
          ...errorResponses,
          409: BitlyError,
        },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const { qr, access } = await qrFor(deps, caller, request.params.qrcode_id);
      assertMayEdit(access, caller, qr);
      return deps.commands.send(MessageTypeNames.DeleteQrCode, qr.group_guid, {
        organization_id: caller.environment_id,
        user_id: caller._id,
        qrcode_id: qr._id,
      });
    },
  );
}
