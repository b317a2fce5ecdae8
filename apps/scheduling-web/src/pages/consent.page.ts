import type { AuthorizeParams, OAuthClientDoc, Scope } from '@platform/oauth';
import { AUTHORIZE_PARAM_NAMES } from '../authorize-params.js';
import { html, type SafeHtml } from '../html.js';
import { csrfInput, layout, type PageViewer } from './layout.js';
import { externalLink, scopeLabel } from './review.page.js';

export function consentPage(options: {
  client: OAuthClientDoc;
  scopes: Scope[];
  legacy: boolean;
  params: AuthorizeParams;
  viewer: PageViewer;
}): SafeHtml {
  const { client, scopes, legacy, params, viewer } = options;
  const logo = client.logo_url && /^https:\/\//i.test(client.logo_url) ? client.logo_url : null;
  return layout({
    title: `Authorize ${client.name}`,
    viewer,
    body: html`${logo && html`<img class="logo" src="${logo}" alt="${client.name} logo">`}
<h1>Authorize ${client.name}</h1>
<p>Signed in as <strong>${viewer.email}</strong>.</p>
${client.website_url && html`<p>Website: ${externalLink(client.website_url)}</p>`}
<p><strong>${client.name}</strong> asks for permission to:</p>
${
  scopes.length > 0
    ? html`<ul>${scopes.map((s) => html`<li>${scopeLabel(s)}</li>`)}</ul>`
    : html`<ul><li>Use your account: your profile, event types, schedules and bookings, and those of your teams</li></ul>`
}
${legacy && html`<p class="note">This client was registered before scopes existed; its access is not limited to the scopes listed above.</p>`}
<form id="consent" method="post" action="/auth/oauth2/authorize">
${csrfInput(viewer.csrf)}
${AUTHORIZE_PARAM_NAMES.map((name) => {
  const value = params[name];
  return value === undefined ? '' : html`<input type="hidden" name="${name}" value="${value}">`;
})}
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny">Deny</button>
</form>`,
  });
}
