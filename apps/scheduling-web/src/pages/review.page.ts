import { SCOPE_DESCRIPTIONS, isScope, type OAuthClientDoc } from '@platform/oauth';
import { html, type SafeHtml } from '../html.js';
import { csrfInput, layout, type PageViewer } from './layout.js';

export function scopeLabel(scope: string): SafeHtml {
  return isScope(scope) ? html`${SCOPE_DESCRIPTIONS[scope]} (<code>${scope}</code>)` : html`<code>${scope}</code>`;
}

/** Only http(s) URLs become links: anything else stays text. */
export function externalLink(url: string | null): SafeHtml {
  if (!url) return html`none`;
  return /^https?:\/\//i.test(url) ? html`<a href="${url}" rel="noopener noreferrer">${url}</a>` : html`${url}`;
}

function reviewItem(client: OAuthClientDoc, csrf: string): SafeHtml {
  const id = client._id;
  const reasonId = `reason-${id}`;
  return html`<section class="review" data-testid="review-${id}" aria-labelledby="title-${id}">
<h2 id="title-${id}">${client.name}</h2>
<dl>
<dt>Client ID</dt><dd><code>${id}</code></dd>
<dt>Owner</dt><dd>${client.owner_email}</dd>
<dt>Kind</dt><dd>${client.kind}</dd>
<dt>Purpose</dt><dd>${client.purpose}</dd>
<dt>Website</dt><dd>${externalLink(client.website_url)}</dd>
<dt>Logo</dt><dd>${externalLink(client.logo_url)}</dd>
<dt>Redirect URIs</dt><dd><ul>${client.redirect_uris.map((u) => html`<li><code>${u}</code></li>`)}</ul></dd>
<dt>Scopes</dt><dd>${
    client.scopes.length === 0
      ? html`none (legacy client)`
      : html`<ul>${client.scopes.map((s) => html`<li>${scopeLabel(s)}</li>`)}</ul>`
  }</dd>
</dl>
<form method="post" action="/settings/admin/oauth/${encodeURIComponent(id)}/review">
${csrfInput(csrf)}
<label for="${reasonId}">Reason (optional; sent to the owner)</label>
<textarea id="${reasonId}" name="reason" maxlength="1000"></textarea>
<button type="submit" name="decision" value="accepted">Accept</button>
<button type="submit" name="decision" value="rejected">Reject</button>
</form>
</section>`;
}

export function reviewPage(options: { clients: OAuthClientDoc[]; viewer: PageViewer }): SafeHtml {
  return layout({
    title: 'Review OAuth clients',
    viewer: options.viewer,
    body: html`<h1>Review OAuth clients</h1>
${
  options.clients.length === 0
    ? html`<p>No client is waiting for review.</p>`
    : html`<p>${options.clients.length} client(s) waiting for review, oldest change first.</p>${options.clients.map((c) => reviewItem(c, options.viewer.csrf))}`
}`,
  });
}
