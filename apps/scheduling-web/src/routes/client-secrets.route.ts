import { MessageTypeNames } from '@platform/contracts';
import { Type, type HttpApp } from '@platform/http';
import { pageViewer } from '../auth.js';
import { generateClientSecret } from '../commands.js';
import { clientPath, secretPage } from '../pages/clients.page.js';
import { sendPage, seeOther } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { ClientParams } from './clients.route.js';

const SecretParams = Type.Object({
  clientId: Type.String({ minLength: 1, maxLength: 200 }),
  secretId: Type.String({ minLength: 1, maxLength: 200 }),
});

/**
 * Ownership, the 2-secret limit and "confidential only" are the worker's decisions (it answers NotFound,
 * Conflict or Input errors, rendered by the error handler as 404, 409 and 400 pages).
 */
export function clientSecretRoutes(app: HttpApp, { deps, auth }: WebContext) {
  app.post(
    '/settings/developer/oauth/:clientId/secrets',
    { schema: { params: ClientParams }, preHandler: auth.requireUser },
    async (request, reply) => {
      const viewer = auth.viewer(request)!;
      const { clientId } = request.params;
      const secret = await generateClientSecret(deps, clientId, viewer.user._id);
      request.log.info({ client_id: clientId }, 'client secret generated');
      return sendPage(
        reply,
        200,
        secretPage({ title: 'New client secret', clientId, secret, viewer: pageViewer(viewer)! }),
      );
    },
  );

  app.post(
    '/settings/developer/oauth/:clientId/secrets/:secretId/revoke',
    { schema: { params: SecretParams }, preHandler: auth.requireUser },
    async (request, reply) => {
      const viewer = auth.viewer(request)!;
      const { clientId, secretId } = request.params;
      await deps.commands.send(MessageTypeNames.RevokeClientSecret, clientId, {
        client_id: clientId,
        owner_user_id: viewer.user._id,
        secret_id: secretId,
      });
      request.log.info({ client_id: clientId, secret_id: secretId }, 'client secret revoked');
      return seeOther(reply, clientPath(clientId));
    },
  );
}
