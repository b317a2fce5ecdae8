import { MessageTypeNames } from '@platform/contracts';
import { InputError, isPlatformError, type FieldIssue } from '@platform/errors';
import { Type, type FastifyReply, type FastifyRequest, type HttpApp } from '@platform/http';
import { validateClientInput, type OAuthClientDoc } from '@platform/oauth';
import { generateId } from '@platform/secrets';
import { pageViewer, type Viewer } from '../auth.js';
import {
  clientFormFromBody,
  clientFormFromDoc,
  clientInput,
  EMPTY_CLIENT_FORM,
  type ClientFormValues,
} from '../client-form.js';
import { generateClientSecret } from '../commands.js';
import { fieldsOf } from '../form.js';
import { clientPage } from '../pages/client.page.js';
import { clientPath, clientsPage, newClientPage, secretPage } from '../pages/clients.page.js';
import { errorPage } from '../pages/error.page.js';
import { sendPage, seeOther } from '../respond.js';
import type { WebContext } from '../web-context.js';

export const ClientParams = Type.Object({ clientId: Type.String({ minLength: 1, maxLength: 200 }) });

/** The form's problems, from local validation or the worker's own (InputError with issues); anything else rethrows. */
export function formIssues(error: unknown): FieldIssue[] {
  if (isPlatformError(error) && error.kind === 'input') {
    return error.issues.length > 0 ? error.issues : [{ field: 'form', code: error.code, message: error.message }];
  }
  throw error;
}

/** The client, if the viewer owns it; otherwise a 404 page is sent (others' clients are not even confirmed to exist). */
export async function ownedClient(
  ctx: WebContext,
  request: FastifyRequest,
  reply: FastifyReply,
  clientId: string,
): Promise<OAuthClientDoc | null> {
  const viewer = ctx.auth.viewer(request)!;
  const client = await ctx.deps.store.getClient(clientId);
  if (client && client.owner_user_id === viewer.user._id) return client;
  sendPage(
    reply,
    404,
    errorPage({ status: 404, message: 'No OAuth client with this id belongs to you.', viewer: pageViewer(viewer) }),
  );
  return null;
}

export function clientRoutes(app: HttpApp, ctx: WebContext) {
  const { deps, auth } = ctx;
  const viewerOf = (request: FastifyRequest): Viewer => auth.viewer(request)!;

  app.get('/settings/developer/oauth', { preHandler: auth.requireUser }, async (request, reply) => {
    const viewer = viewerOf(request);
    const clients = await deps.store.clientsOwnedBy(viewer.user._id);
    return sendPage(
      reply,
      200,
      clientsPage({ clients, viewer: pageViewer(viewer)!, isAdmin: viewer.user.role === 'admin' }),
    );
  });

  app.get('/settings/developer/oauth/new', { preHandler: auth.requireUser }, async (request, reply) => {
    return sendPage(
      reply,
      200,
      newClientPage({ values: EMPTY_CLIENT_FORM, issues: [], viewer: pageViewer(viewerOf(request))! }),
    );
  });

  app.post('/settings/developer/oauth', { preHandler: auth.requireUser }, async (request, reply) => {
    const viewer = viewerOf(request);
    const values = clientFormFromBody(fieldsOf(request.body));
    const again = (issues: FieldIssue[]) =>
      sendPage(reply, 400, newClientPage({ values, issues, viewer: pageViewer(viewer)! }));
    const clientId = generateId('cal_client');
    try {
      if (values.unknownKind !== undefined)
        throw new InputError('invalid_client_kind', 'kind is confidential or public.', {
          issues: [{ field: 'kind', code: 'invalid_kind', message: 'must be confidential or public' }],
        });
      const input = validateClientInput(clientInput(values));
      await deps.commands.send(MessageTypeNames.CreateClient, clientId, {
        client_id: clientId,
        owner_user_id: viewer.user._id,
        owner_email: viewer.user.email,
        name: input.name,
        logo_url: input.logoUrl,
        website_url: input.websiteUrl,
        purpose: input.purpose,
        redirect_uris: input.redirectUris,
        scopes: input.scopes,
        kind: values.kind,
      });
    } catch (error) {
      return again(formIssues(error));
    }
    request.log.info({ client_id: clientId, kind: values.kind }, 'client registered');
    if (values.kind === 'public') return seeOther(reply, clientPath(clientId));
    const secret = await generateClientSecret(deps, clientId, viewer.user._id);
    return sendPage(
      reply,
      200,
      secretPage({ title: 'Client registered', clientId, secret, viewer: pageViewer(viewer)! }),
    );
  });

  app.get(
    '/settings/developer/oauth/:clientId',
    { schema: { params: ClientParams }, preHandler: auth.requireUser },
    async (request, reply) => {
      const client = await ownedClient(ctx, request, reply, request.params.clientId);
      if (!client) return reply;
      const page = clientPage({
        client,
        values: clientFormFromDoc(client),
        issues: [],
        viewer: pageViewer(viewerOf(request))!,
      });
      return sendPage(reply, 200, page);
    },
  );

  app.post(
    '/settings/developer/oauth/:clientId',
    { schema: { params: ClientParams }, preHandler: auth.requireUser },
    async (request, reply) => {
      const viewer = viewerOf(request);
      const client = await ownedClient(ctx, request, reply, request.params.clientId);
      if (!client) return reply;
      const values: ClientFormValues = { ...clientFormFromBody(fieldsOf(request.body)), kind: client.kind };
      try {
        const input = validateClientInput(clientInput(values));
        await deps.commands.send(MessageTypeNames.UpdateClient, client._id, {
          client_id: client._id,
          owner_user_id: viewer.user._id,
          name: input.name,
          logo_url: input.logoUrl,
          website_url: input.websiteUrl,
          purpose: input.purpose,
          redirect_uris: input.redirectUris,
          scopes: input.scopes,
        });
      } catch (error) {
        return sendPage(
          reply,
          400,
          clientPage({ client, values, issues: formIssues(error), viewer: pageViewer(viewer)! }),
        );
      }
      request.log.info({ client_id: client._id }, 'client changed');
      return seeOther(reply, clientPath(client._id));
    },
  );
}
