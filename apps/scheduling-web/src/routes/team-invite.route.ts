import { MessageTypeNames } from '@platform/contracts';
import { Type, type HttpApp } from '@platform/http';
import { pageViewer } from '../auth.js';
import { fieldsOf, textField } from '../form.js';
import { teamInvitePage } from '../pages/team-invite.page.js';
import { sendPage } from '../respond.js';
import type { WebContext } from '../web-context.js';

const InviteQuery = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) });

/** Team invite links (`POST /v2/teams/:teamId/invite` makes them): a logged-in user joins the team. */
export function teamInviteRoutes(app: HttpApp, { deps, auth }: WebContext) {
  app.get(
    '/teams/invite',
    { schema: { querystring: InviteQuery }, preHandler: auth.requireUser },
    async (request, reply) => {
      const viewer = pageViewer(auth.viewer(request))!;
      const invite = await deps.teamInvites.describe(request.query.token);
      return sendPage(
        reply,
        invite ? 200 : 404,
        teamInvitePage({ viewer, teamName: invite?.teamName ?? null, token: request.query.token }),
      );
    },
  );

  app.post('/teams/invite', { preHandler: auth.requireUser }, async (request, reply) => {
    const viewer = auth.viewer(request)!;
    const token = textField(fieldsOf(request.body), 'token', 200);
    const invite = await deps.teamInvites.describe(token);
    if (!invite) return sendPage(reply, 404, teamInvitePage({ viewer: pageViewer(viewer)!, teamName: null, token }));
    await deps.commands.send(MessageTypeNames.AcceptTeamInvite, `team:${invite.teamId}`, {
      actor_user_id: viewer.user._id,
      token,
    });
    request.log.info({ team_id: invite.teamId }, 'team invite accepted');
    return sendPage(
      reply,
      200,
      teamInvitePage({ viewer: pageViewer(viewer)!, teamName: invite.teamName, token, joined: true }),
    );
  });
}
