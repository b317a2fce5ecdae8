import { MessageTypeNames } from '@platform/contracts';
import type { FastifyReply, FastifyRequest, HttpApp } from '@platform/http';
import {
  decideAuthorize,
  errorRedirect,
  type AuthorizeDecision,
  type AuthorizeParams,
  type OAuthClientDoc,
} from '@platform/oauth';
import { pageViewer } from '../auth.js';
import { codeRedirect, readAuthorizeParams, withIssuer } from '../authorize-params.js';
import { fieldsOf, textField, type Fields } from '../form.js';
import { formActionSource } from '../page-headers.js';
import { consentPage } from '../pages/consent.page.js';
import { errorPage } from '../pages/error.page.js';
import { sendPage, seeOther } from '../respond.js';
import type { WebContext } from '../web-context.js';

const AUTHORIZE_PATH = '/auth/oauth2/authorize';

type Outcome =
  | { kind: 'show_error'; message: string }
  | Exclude<AuthorizeDecision, { kind: 'show_error' } | { kind: 'consent' }>
  | (Extract<AuthorizeDecision, { kind: 'consent' }> & { doc: OAuthClientDoc; params: AuthorizeParams });

/**
 * The authorization page (RFC 6749 4.1.1). Problems with the client or its redirect URI are shown here and
 * never redirected (that would make this an open redirector); problems with the request go back to the
 * client's redirect URI with `state` and `iss`. The consent post re-checks everything: the page is not trusted.
 */
export function authorizeRoutes(app: HttpApp, { deps, auth }: WebContext) {
  async function decide(fields: Fields, userId: string): Promise<Outcome> {
    const read = readAuthorizeParams(fields);
    if ('error' in read) return { kind: 'show_error', message: read.error };
    const { params } = read;
    const doc = params.client_id ? await deps.store.getClient(params.client_id) : null;
    const client = doc && {
      id: doc._id,
      status: doc.status,
      kind: doc.kind,
      redirectUris: doc.redirect_uris,
      scopes: doc.scopes,
    };
    const decision = decideAuthorize(client, params, await deps.userReach(userId));
    return decision.kind === 'consent' ? { ...decision, doc: doc!, params } : decision;
  }

  /** Sends the page or redirect for every outcome but consent; returns the consent outcome for the caller. */
  function settle(request: FastifyRequest, reply: FastifyReply, outcome: Outcome) {
    if (outcome.kind === 'show_error') {
      request.log.info({ reason: outcome.message }, 'authorization request refused');
      const page = errorPage({
        status: 400,
        title: 'This authorization request cannot be completed',
        message: outcome.message,
        viewer: pageViewer(auth.viewer(request)),
        testId: 'authorize-error',
      });
      sendPage(reply, 400, page);
      return null;
    }
    if (outcome.kind === 'redirect_error') {
      request.log.info({ error: outcome.error }, 'authorization request error redirected');
      seeOther(
        reply,
        withIssuer(errorRedirect(outcome.redirectUri, outcome.error, outcome.description, outcome.state), deps.issuer),
      );
      return null;
    }
    return outcome;
  }

  app.get(AUTHORIZE_PATH, { preHandler: auth.requireUser }, async (request, reply) => {
    const consent = settle(request, reply, await decide(fieldsOf(request.query), auth.viewer(request)!.user._id));
    if (!consent) return reply;
    const source = formActionSource(consent.redirectUri);
    const page = consentPage({
      client: consent.doc,
      scopes: consent.scopes,
      legacy: consent.legacy,
      params: consent.params,
      viewer: pageViewer(auth.viewer(request))!,
    });
    // The consent form's answer is a redirect to the client, which form-action must allow.
    return sendPage(reply, 200, page, source ? [source] : null);
  });

  app.post(AUTHORIZE_PATH, { preHandler: auth.requireUser }, async (request, reply) => {
    const viewer = auth.viewer(request)!;
    const fields = fieldsOf(request.body);
    const consent = settle(request, reply, await decide(fields, viewer.user._id));
    if (!consent) return reply;
    const choice = textField(fields, 'decision');
    if (choice === 'deny') {
      request.log.info({ client_id: consent.client.id }, 'authorization denied by the user');
      return seeOther(
        reply,
        withIssuer(
          errorRedirect(consent.redirectUri, 'access_denied', 'The user denied access.', consent.state),
          deps.issuer,
        ),
      );
    }
    if (choice !== 'allow') {
      settle(request, reply, { kind: 'show_error', message: 'Choose Allow or Deny.' });
      return reply;
    }
    const code = deps.credentials.newCode();
    await deps.commands.send(MessageTypeNames.IssueAuthorizationCode, consent.client.id, {
      code_hash: deps.credentials.hashCode(code),
      client_id: consent.client.id,
      user_id: viewer.user._id,
      redirect_uri: consent.redirectUri,
      scopes: consent.scopes,
      code_challenge: consent.codeChallenge ?? null,
      expires_at: Date.now() + deps.codeTtlSeconds * 1000,
    });
    request.log.info(
      { client_id: consent.client.id, user_id: viewer.user._id, scopes: consent.scopes },
      'authorization code issued',
    );
    return seeOther(reply, codeRedirect(consent.redirectUri, code, consent.state, deps.issuer));
  });
}
