import { CSRF_FIELD } from '../form-protection.js';
import { html, type SafeHtml } from '../html.js';

/** Who is looking at a page: enough for the header's e-mail and its log-out form. */
export interface PageViewer {
  email: string;
  csrf: string;
}

const STYLE = `
body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#1a1a1a;background:#fafafa}
header{display:flex;gap:1rem;align-items:center;justify-content:space-between;padding:.5rem 1.5rem;background:#1f2937;color:#fff}
header a{color:#fff}header form{display:inline}
main{max-width:60rem;margin:0 auto;padding:1rem 1.5rem 3rem}
label{display:block;font-weight:600;margin-top:1rem}
fieldset label,label.inline{display:inline;font-weight:normal;margin:0}
input[type=text],input[type=url],input[type=email],input[type=password],textarea{width:100%;max-width:40rem;padding:.4rem;box-sizing:border-box;font:inherit}
textarea{min-height:5rem}
fieldset{margin-top:1rem;border:1px solid #ccc}
fieldset div{margin:.2rem 0}
button{font:inherit;padding:.4rem 1rem;margin-top:1rem;cursor:pointer}
table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:.4rem;border-bottom:1px solid #ddd}
.error,[role=alert]{color:#a30000}
.note{background:#fff7d6;padding:.5rem 1rem;border-left:4px solid #e0b000}
.secret{font-size:1.1rem;background:#eef;padding:.5rem;word-break:break-all}
section.review{border:1px solid #ccc;padding:0 1rem 1rem;margin:1rem 0;background:#fff}
img.logo{max-width:64px;max-height:64px}
`;

export function layout(options: { title: string; viewer: PageViewer | null; body: SafeHtml }): SafeHtml {
  const { title, viewer, body } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Scheduling</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<a href="/settings/developer/oauth">Scheduling</a>
${
  viewer &&
  html`<div><span>${viewer.email}</span>
<form method="post" action="/logout"><input type="hidden" name="${CSRF_FIELD}" value="${viewer.csrf}"><button type="submit">Log out</button></form></div>`
}
</header>
<main>
${body}
</main>
</body>
</html>
`;
}

export function csrfInput(token: string): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${token}">`;
}
