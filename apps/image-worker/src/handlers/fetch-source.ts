import { EgressBlockedError, EgressRedirectError } from '@platform/egress';
import { InputError, isPlatformError } from '@platform/errors';
import type { HandlerDeps } from './deps.js';

const cannotFetch = (detail: string) =>
  new InputError('source_unavailable', `The image at the source URL could not be downloaded: ${detail}.`);

/** http→https, CDN and presigned links redirect; each hop passes the SSRF guard again. */
export const SOURCE_MAX_REDIRECTS = 5;

/**
 * Downloads a `source.url` through the SSRF guard, following up to {@link SOURCE_MAX_REDIRECTS} redirects,
 * bounded in bytes (the final response) and time (the whole chain). Every failure is the client's URL (a 400),
 * never a retry: the same URL would fail the same way.
 */
export async function fetchSource(deps: HandlerDeps, url: string): Promise<Buffer> {
  try {
    const response = await deps.egress.download({
      url,
      timeoutMs: deps.source.timeoutMs,
      maxBodyBytes: deps.source.maxBytes,
      maxRedirects: SOURCE_MAX_REDIRECTS,
    });
    if (response.status < 200 || response.status > 299) throw cannotFetch(`the server answered ${response.status}`);
    return response.body;
  } catch (error) {
    if (error instanceof EgressBlockedError)
      throw new InputError('source_not_allowed', 'The source URL points to a private or reserved address.');
    if (error instanceof EgressRedirectError) throw cannotFetch(error.message);
    if (isPlatformError(error)) throw error;
    const name = error instanceof Error ? error.name : '';
    throw cannotFetch(/timeout|abort/i.test(name) ? 'it took too long' : 'the server could not be reached');
  }
}
