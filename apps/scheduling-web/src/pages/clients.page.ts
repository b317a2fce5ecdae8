import type { FieldIssue } from '@platform/errors';
import type { OAuthClientDoc } from '@platform/oauth';
import type { ClientFormValues } from '../client-form.js';
import { html, type SafeHtml } from '../html.js';
import { clientForm } from './client-form.fragment.js';
import { layout, type PageViewer } from './layout.js';

export function clientPath(clientId: string): string {
  return `/settings/developer/oauth/${encodeURIComponent(clientId)}`;
}

export function clientsPage(options: { clients: OAuthClientDoc[]; viewer: PageViewer; isAdmin: boolean }): SafeHtml {
  const { clients, viewer, isAdmin } = options;
  return layout({
    title: 'OAuth clients',
    viewer,
    body: html`<h1>OAuth clients</h1>
<p><a href="/settings/developer/oauth/new">Register a new client</a></p>
${isAdmin && html`<p><a href="/settings/admin/oauth">Review clients</a></p>`}
${
  clients.length === 0
    ? html`<p>You have not registered any OAuth clients yet.</p>`
    : html`<table>
<caption>Your OAuth clients</caption>
<thead><tr><th scope="col">Name</th><th scope="col">Client ID</th><th scope="col">Status</th><th scope="col">Kind</th></tr></thead>
<tbody>
${clients.map(
  (
    c,
  ) => html`<tr><td><a href="${clientPath(c._id)}">${c.name}</a></td><td><code>${c._id}</code></td><td>${c.status}</td><td>${c.kind}</td></tr>
`,
)}</tbody>
</table>`
}`,
  });
}

export function newClientPage(options: {
  values: ClientFormValues;
  issues: FieldIssue[];
  viewer: PageViewer;
}): SafeHtml {
  return layout({
    title: 'Register an OAuth client',
    viewer: options.viewer,
    body: html`<h1>Register an OAuth client</h1>
<p>A new client is reviewed by an administrator before it can be used.</p>
${clientForm({
  action: '/settings/developer/oauth',
  values: options.values,
  issues: options.issues,
  csrf: options.viewer.csrf,
  submitLabel: 'Register client',
  kindEditable: true,
})}
<p><a href="/settings/developer/oauth">Back to your OAuth clients</a></p>`,
  });
}

/** A new secret, shown this once: only its keyed hash is stored. */
export function secretPage(options: { title: string; clientId: string; secret: string; viewer: PageViewer }): SafeHtml {
  const { title, clientId, secret, viewer } = options;
  return layout({
    title,
    viewer,
    body: html`<h1>${title}</h1>
<p>Client ID: <code data-testid="client-id">${clientId}</code></p>
<p class="note" role="status"><strong>Copy this secret now: it will not be shown again.</strong></p>
<p id="secret-label">Client secret:</p>
<p class="secret"><code data-testid="client-secret" aria-labelledby="secret-label">${secret}</code></p>
<p><a href="${clientPath(clientId)}">Go to the client's settings</a></p>`,
  });
}
