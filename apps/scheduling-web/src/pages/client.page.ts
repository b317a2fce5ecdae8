import type { FieldIssue } from '@platform/errors';
import { isLegacyScopeSet, type OAuthClientDoc } from '@platform/oauth';
import type { ClientFormValues } from '../client-form.js';
import { html, type SafeHtml } from '../html.js';
import { clientForm } from './client-form.fragment.js';
import { clientPath } from './clients.page.js';
import { csrfInput, layout, type PageViewer } from './layout.js';

function secretsSection(client: OAuthClientDoc, csrf: string): SafeHtml {
  const base = clientPath(client._id);
  return html`<section aria-labelledby="secrets-heading">
<h2 id="secrets-heading">Secrets</h2>
<p>A client has at most 2 active secrets. Both work at the same time, so you can rotate without downtime: generate a new one, deploy it, then revoke the old one. Revocation is immediate.</p>
${
  client.secrets.length === 0
    ? html`<p>This client has no active secret.</p>`
    : html`<ul>
${client.secrets.map(
  (s) => html`<li><code>…${s.hint}</code> created ${new Date(s.created_at).toISOString()}
<form method="post" action="${base}/secrets/${encodeURIComponent(s.id)}/revoke">${csrfInput(csrf)}<button type="submit">Revoke</button></form></li>
`,
)}</ul>`
}
<form method="post" action="${base}/secrets">${csrfInput(csrf)}<button type="submit">Generate a new secret</button></form>
</section>`;
}

export function clientPage(options: {
  client: OAuthClientDoc;
  values: ClientFormValues;
  issues: FieldIssue[];
  viewer: PageViewer;
}): SafeHtml {
  const { client, values, issues, viewer } = options;
  const legacy = isLegacyScopeSet(client.scopes);
  return layout({
    title: client.name,
    viewer,
    body: html`<h1>${client.name}</h1>
<dl>
<dt>Client ID</dt><dd><code data-testid="client-id">${client._id}</code></dd>
<dt>Status</dt><dd><span data-testid="client-status">${client.status}</span></dd>
${client.status === 'rejected' && client.review_reason && html`<dt>Reason given by the reviewer</dt><dd>${client.review_reason}</dd>`}
<dt>Kind</dt><dd>${client.kind}</dd>
<dt>Legacy client</dt><dd data-testid="client-legacy">${legacy ? 'yes: no scopes, or only READ_BOOKING and READ_PROFILE; scopes are not enforced' : 'no'}</dd>
</dl>
${
  legacy &&
  html`<p class="note">To migrate a legacy client: first add <code>scope</code> to your authorization URL (it already works), then select the matching scopes below and save.</p>`
}
<h2>Settings</h2>
<p class="note">Changing the name, logo, website, purpose, redirect URIs or scopes of an accepted client sends it back to review; it cannot be used until it is accepted again. Adding only user-level scopes to a legacy client does not.</p>
${clientForm({ action: clientPath(client._id), values, issues, csrf: viewer.csrf, submitLabel: 'Save changes', kindEditable: false })}
${client.kind === 'confidential' && secretsSection(client, viewer.csrf)}
<p><a href="/settings/developer/oauth">Back to your OAuth clients</a></p>`,
  });
}
