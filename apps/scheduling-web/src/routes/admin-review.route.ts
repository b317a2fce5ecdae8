import { MessageTypeNames } from '@platform/contracts';
import { InputError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { pageViewer } from '../auth.js';
import { fieldsOf, textField } from '../form.js';
import { reviewPage } from '../pages/review.page.js';
import { sendPage, seeOther } from '../respond.js';
import type { WebContext } from '../web-context.js';
import { ClientParams } from './clients.route.js';

const REVIEW_PAGE = '/settings/admin/oauth';
const MAX_REASON = 1000;

export function adminReviewRoutes(app: HttpApp, { deps, auth }: WebContext) {
  app.get(REVIEW_PAGE, { preHandler: auth.requireAdmin }, async (request, reply) => {
    const clients = await deps.store.clientsWithStatus('pending');
    return sendPage(reply, 200, reviewPage({ clients, viewer: pageViewer(auth.viewer(request))! }));
  });

  app.post(
    `${REVIEW_PAGE}/:clientId/review`,
    { schema: { params: ClientParams }, preHandler: auth.requireAdmin },
    async (request, reply) => {
      const viewer = auth.viewer(request)!;
      const fields = fieldsOf(request.body);
      const decision = textField(fields, 'decision');
      if (decision !== 'accepted' && decision !== 'rejected')
        throw new InputError('invalid_decision', 'Choose Accept or Reject.');
      const reason = textField(fields, 'reason', MAX_REASON + 1).trim();
      if (reason.length > MAX_REASON)
        throw new InputError('reason_too_long', `The reason must be at most ${MAX_REASON} characters.`);
      const { clientId } = request.params;
      await deps.commands.send(MessageTypeNames.ReviewClient, clientId, {
        client_id: clientId,
        reviewer_user_id: viewer.user._id,
        decision,
        reason: reason || null,
      });
      request.log.info({ client_id: clientId, decision }, 'client reviewed');
      return seeOther(reply, REVIEW_PAGE);
    },
  );
}
