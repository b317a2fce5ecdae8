import { html, type SafeHtml } from '../html.js';
import { csrfInput, layout, type PageViewer } from './layout.js';

/** The invite link's page: who invites to which team, and one button to join. */
export function teamInvitePage(options: {
  viewer: PageViewer;
  teamName: string | null;
  token: string;
  joined?: boolean;
}): SafeHtml {
  const { viewer, teamName, token } = options;
  if (teamName === null) {
    return layout({
      title: 'Invite link',
      viewer,
      body: html`<h1>Invite link</h1><p role="alert">This invite link is unknown or has expired. Ask the team for a new one.</p>`,
    });
  }
  if (options.joined) {
    return layout({
      title: `Joined ${teamName}`,
      viewer,
      body: html`<h1>You joined ${teamName}</h1><p data-testid="joined">You are now a member of the team ${teamName}.</p>`,
    });
  }
  return layout({
    title: `Join ${teamName}`,
    viewer,
    body: html`<h1>Join ${teamName}</h1>
<p>You were invited to join the team <strong>${teamName}</strong> as a member.</p>
<form method="post" action="/teams/invite">
${csrfInput(viewer.csrf)}
<input type="hidden" name="token" value="${token}">
<button type="submit">Join the team</button>
</form>`,
  });
}
