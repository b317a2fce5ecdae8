import type { FastifyHelmetOptions } from '@fastify/helmet';
import type { FastifyReply, FastifyRequest } from '@platform/http';

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

type ContentSecurityPolicy = Exclude<FastifyHelmetOptions['contentSecurityPolicy'], boolean | undefined>;

/**
 * The pages' Content-Security-Policy (no script at all). `formAction`: further places the page's forms may end
 * up; `null` drops form-action (the target is unknown).
 */
export function pageCsp(formAction: string[] | null = []): ContentSecurityPolicy {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'https:', 'data:'],
      ...(formAction === null ? {} : { formAction: ["'self'", ...formAction] }),
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
    },
  };
}

/**
 * @fastify/helmet sends the headers the pages always had, and only those: its other defaults are off (HSTS is
 * the TLS proxy's to send for the whole host, and Cross-Origin-Opener-Policy would cut the link between an
 * OAuth client's pop-up and its opener; see ADR 0032). X-Content-Type-Options: nosniff is on by default.
 */
export const HELMET_OPTIONS: FastifyHelmetOptions = {
  contentSecurityPolicy: pageCsp(),
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  strictTransportSecurity: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/** A page's own form-action (the consent page's redirect target), on top of the headers helmet already set. */
export function widenFormAction(reply: FastifyReply, formAction: string[] | null): void {
  if (formAction === null || formAction.length > 0) reply.helmet({ contentSecurityPolicy: pageCsp(formAction) });
}

/** onSend: pages and redirects carry sessions' tokens and users' data, so nothing is cached (unless a route says). */
export function noStore(
  _request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
) {
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
  done(null, payload);
}
