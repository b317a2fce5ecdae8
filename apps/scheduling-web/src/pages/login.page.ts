import { html, type SafeHtml } from '../html.js';
import { csrfInput, layout } from './layout.js';

export function loginPage(options: { csrf: string; returnTo: string; email: string; error: string | null }): SafeHtml {
  const { csrf, returnTo, email, error } = options;
  // No account header: the login form's token is the login cookie's, not a session's (see Viewer.csrf).
  return layout({
    title: 'Log in',
    viewer: null,
    body: html`<h1>Log in</h1>
${error && html`<p role="alert" id="login-error">${error}</p>`}
<form id="login" method="post" action="/login">
${csrfInput(csrf)}
<input type="hidden" name="return_to" value="${returnTo}">
<label for="email">E-mail</label>
<input type="email" id="email" name="email" autocomplete="username" required maxlength="320" value="${email}"${error ? html` aria-describedby="login-error"` : ''}>
<label for="password">Password</label>
<input type="password" id="password" name="password" autocomplete="current-password" required maxlength="1024">
<button type="submit">Log in</button>
</form>`,
  });
}
