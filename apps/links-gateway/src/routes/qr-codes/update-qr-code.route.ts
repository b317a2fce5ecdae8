import { MessageTypeNames } from '@platform/contracts';
import { Type, bodyChecker, deferredBodyValidation, type HttpApp } from '@platform/http';
import { isCustomized } from '@platform/qr';
import { assertMayEdit } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { assertLogo, customizationsOf, expirationOf, qrFor, summaryOf } from './qr-code.js';
import {
  Archived,
  ExpirationAt,
  QrCodeParams,
  QrCodeSummary,
  RenderCustomizationsInput,
  Tags,
  Title,
} from './schemas.js';

/** Each member absent or null leaves that field as it is; expiration_at empty clears it. */
const Body = Type.Object({
  title: Title,
  render_customizations: RenderCustomizationsInput,
  archived: Archived,
  expiration_at: ExpirationAt,
  tags: Tags,
});
const checkBody = bodyChecker(Body);

export function updateQrCodeRoute(app: HttpApp, deps: RouteDeps) {
  app.patch(
    '/v4/qr-codes/:qrcode_id',
    {
      // Who may edit the code is decided before the body is judged: a stranger learns nothing from a 400.
      validatorCompiler: deferredBodyValidation(),
      schema: {
        summary: 'Edit a QR code: title, customizations, archived, expiry, tags',
        description: "render_customizations replaces the whole set; the expiry is its short link's.",
        tags: ['qr-codes'],
        security,
        params: QrCodeParams,
        body: Body,
        response: { 200: QrCodeSummary, ...errorResponses },
      },
    },
    async (request) => {
      const caller = request.caller!;
      const { qr, access } = await qrFor(deps, caller, request.params.qrcode_id);
      assertMayEdit(access, caller, qr);
      checkBody(request.body);
      const body = request.body;
      const customizations =
        body.render_customizations != null ? customizationsOf(body.render_customizations, 'full') : null;
      if (customizations) await assertLogo(deps, caller, customizations);
      const expiration = expirationOf(body.expiration_at);
      await deps.commands.send(MessageTypeNames.UpdateQrCode, qr.group_guid, {
        organization_id: caller.environment_id,
        user_id: caller._id,
        qrcode_id: qr._id,
        title: body.title ?? null,
        render_customizations: customizations ? JSON.stringify(customizations) : null,
        is_customized: customizations ? isCustomized(customizations) : null,
        archived: body.archived ?? null,
        expiration_at: expiration.at,
        clear_expiration: expiration.clear,
        tags: body.tags ?? null,
      });
      return summaryOf(deps, caller, qr._id);
    },
  );
}
