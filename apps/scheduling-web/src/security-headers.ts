/**
 * A CSP source for where a redirect URI points (its origin, or the private-use scheme of a native app), or
 * null when it cannot be written as one. Browsers apply `form-action` to the redirects that follow a form
 * post, so the consent form's 303 to the client needs its target listed.
 */
export function formActionSource(uri: string): string | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol === 'http:' || url.protocol === 'https:') {
    return /^https?:\/\/[A-Za-z0-9.\-[\]:]+$/.test(url.origin) ? url.origin : null;
  }
  return /^[a-z][a-z0-9+.-]*:$/i.test(url.protocol) ? url.protocol : null;
}

/** `extraFormAction`: further places the page's forms may end up; `null` drops form-action (target unknown). */
export function contentSecurityPolicy(extraFormAction: string[] | null = []): string {
  const directives = [
    "default-src 'none'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' https: data:",
    ...(extraFormAction === null ? [] : [["form-action 'self'", ...extraFormAction].join(' ')]),
    "frame-ancestors 'none'",
    "base-uri 'none'",
  ];
  return directives.join('; ');
}

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'cache-control': 'no-store',
};
