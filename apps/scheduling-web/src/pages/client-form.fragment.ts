import type { FieldIssue } from '@platform/errors';
import { LEGACY_SCOPES, ORG_SCOPES, SCOPE_DESCRIPTIONS, TEAM_SCOPES, USER_SCOPES, type Scope } from '@platform/oauth';
import type { ClientFormValues } from '../client-form.js';
import { html, type SafeHtml } from '../html.js';
import { csrfInput } from './layout.js';

const SCOPE_GROUPS: { legend: string; scopes: readonly Scope[] }[] = [
  { legend: 'User scopes', scopes: USER_SCOPES },
  { legend: 'Team scopes', scopes: TEAM_SCOPES },
  { legend: 'Organization scopes', scopes: ORG_SCOPES },
  { legend: 'Legacy', scopes: LEGACY_SCOPES },
];

function fieldErrors(issues: FieldIssue[], field: string): SafeHtml {
  const mine = issues.filter((i) => i.field === field);
  if (mine.length === 0) return html``;
  return html`<div class="error" id="${field}-error">${mine.map((i) => html`<p>${i.message}</p>`)}</div>`;
}

function described(issues: FieldIssue[], field: string): SafeHtml {
  return issues.some((i) => i.field === field) ? html` aria-describedby="${field}-error" aria-invalid="true"` : html``;
}

export function issueSummary(issues: FieldIssue[]): SafeHtml {
  if (issues.length === 0) return html``;
  return html`<div role="alert"><h2>The client could not be saved</h2><ul>${issues.map((i) => html`<li>${i.message}</li>`)}</ul></div>`;
}

/** Registration and edit share one form; the kind is chosen at registration only. */
export function clientForm(options: {
  action: string;
  values: ClientFormValues;
  issues: FieldIssue[];
  csrf: string;
  submitLabel: string;
  kindEditable: boolean;
}): SafeHtml {
  const { action, values: v, issues, csrf } = options;
  const checked = new Set(v.scopes);
  return html`${issueSummary(issues)}
<form id="client-form" method="post" action="${action}">
${csrfInput(csrf)}
<label for="name">Name</label>
<input type="text" id="name" name="name" required maxlength="100" value="${v.name}"${described(issues, 'name')}>
${fieldErrors(issues, 'name')}
<label for="logo_url">Logo URL (optional)</label>
<input type="url" id="logo_url" name="logo_url" maxlength="2048" value="${v.logoUrl}"${described(issues, 'logo_url')}>
${fieldErrors(issues, 'logo_url')}
<label for="website_url">Website URL (optional)</label>
<input type="url" id="website_url" name="website_url" maxlength="2048" value="${v.websiteUrl}"${described(issues, 'website_url')}>
${fieldErrors(issues, 'website_url')}
<label for="purpose">Purpose: what the client does with the access it asks for</label>
<textarea id="purpose" name="purpose" required maxlength="1000"${described(issues, 'purpose')}>${v.purpose}</textarea>
${fieldErrors(issues, 'purpose')}
<label for="redirect_uris">Redirect URIs (one per line, at most 10)</label>
<textarea id="redirect_uris" name="redirect_uris" required${described(issues, 'redirect_uris')}>${v.redirectUris}</textarea>
${fieldErrors(issues, 'redirect_uris')}
${
  options.kindEditable
    ? html`<fieldset><legend>Client kind</legend>
<div><input type="radio" id="kind-confidential" name="kind" value="confidential"${v.kind === 'confidential' ? ' checked' : ''}>
<label for="kind-confidential">Confidential: a server that keeps a client secret</label></div>
<div><input type="radio" id="kind-public" name="kind" value="public"${v.kind === 'public' ? ' checked' : ''}>
<label for="kind-public">Public: a single-page or mobile app using PKCE, no secret</label></div>
</fieldset>`
    : html`<p>Client kind: <strong>${v.kind}</strong> (cannot be changed)</p>`
}
<fieldset${described(issues, 'scopes')}><legend>Scopes (select at least one)</legend>
${SCOPE_GROUPS.map(
  (group) => html`<fieldset><legend>${group.legend}</legend>
${group.scopes.map(
  (
    scope,
  ) => html`<div><input type="checkbox" id="scope-${scope}" name="scopes" value="${scope}"${checked.has(scope) ? ' checked' : ''}>
<label for="scope-${scope}">${SCOPE_DESCRIPTIONS[scope]} (<code>${scope}</code>)</label></div>`,
)}
</fieldset>`,
)}
</fieldset>
${fieldErrors(issues, 'scopes')}
<button type="submit">${options.submitLabel}</button>
</form>`;
}
