import { Agent, request } from 'undici';
import { isIP } from 'node:net';
import { InputError, PayloadTooLargeError } from '@platform/errors';
import type { EgressGuard } from './guard.js';

/** A redirect chain that cannot be followed: a loop, more hops than allowed, or a Location that is no http(s) URL. */
export class EgressRedirectError extends InputError {
  constructor(code: 'redirect_loop' | 'too_many_redirects' | 'bad_redirect', message: string) {
    super(code, message);
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Drops a body unread; the abort that destroying it causes is expected, not an error to surface. */
function discard(body: { on(event: 'error', listener: () => void): unknown; destroy(): unknown }): void {
  body.on('error', () => undefined);
  body.destroy();
}

export interface EgressRequest {
  url: string;
  method?: 'POST' | 'GET' | 'PUT';
  headers?: Record<string, string>;
  body?: string | Buffer;
  timeoutMs: number;
  /** How much of the response body to keep (the rest is discarded unread). */
  maxBodyBytes?: number;
}

export interface EgressResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  latencyMs: number;
}

export interface EgressDownload {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

export interface EgressClient {
  send(req: EgressRequest): Promise<EgressResponse>;
  /**
   * GET of a user-given URL whose body is the point (an image to fetch): the whole body, or
   * PayloadTooLargeError as soon as it passes `maxBodyBytes` (the rest is never read). With `maxRedirects`,
   * 301/302/303/307/308 are followed that many times, each hop through the guard and within the one
   * `timeoutMs`; a loop or one hop more is EgressRedirectError. Headers are sent to the first origin only.
   */
  download(req: {
    url: string;
    timeoutMs: number;
    maxBodyBytes: number;
    headers?: Record<string, string>;
    maxRedirects?: number;
  }): Promise<EgressDownload>;
  close(): Promise<void>;
}

/**
 * Outbound HTTP for user-given URLs: a pooled keep-alive undici agent whose sockets resolve names
 * through the guard, literal addresses checked before connecting, redirects followed only by `download`, and only when asked (each hop a new guarded request).
 */
export function createEgressClient(guard: EgressGuard, options: { connections?: number } = {}): EgressClient {
  const agent = new Agent({
    connections: options.connections ?? 64,
    keepAliveTimeout: 10_000,
    connect: { lookup: guard.lookup, timeout: 10_000 },
  });
  /** One guarded request: literal addresses checked here, names at connect time (the agent's lookup). */
  function open(
    target: string | URL,
    method: 'GET' | 'POST' | 'PUT',
    headers: Record<string, string> | undefined,
    body: string | Buffer | undefined,
    timeoutMs: number,
    signal: AbortSignal = AbortSignal.timeout(timeoutMs),
  ) {
    const url = new URL(target);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) !== 0) guard.check(host, host);
    return request(url, {
      method,
      headers: headers ?? {},
      body: body ?? null,
      dispatcher: agent,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal,
    });
  }

  /** A GET that follows up to `maxRedirects` redirects; every hop is a new guarded request. */
  async function follow(req: Parameters<EgressClient['download']>[0]) {
    const signal = AbortSignal.timeout(req.timeoutMs);
    const first = new URL(req.url);
    const seen = new Set<string>();
    let url = first;
    for (let hop = 0; ; hop++) {
      seen.add(url.href);
      const headers = url.origin === first.origin ? req.headers : undefined;
      const response = await open(url, 'GET', headers, undefined, req.timeoutMs, signal);
      if (!REDIRECTS.has(response.statusCode) || !req.maxRedirects) return response;
      discard(response.body);
      const location = response.headers['location'];
      const next =
        typeof location === 'string' && URL.canParse(location, url.href) ? new URL(location, url) : undefined;
      if (!next || (next.protocol !== 'http:' && next.protocol !== 'https:') || next.username || next.password)
        throw new EgressRedirectError('bad_redirect', 'a redirect does not point to an http or https URL');
      if (seen.has(next.href)) throw new EgressRedirectError('redirect_loop', 'its redirects go round in a loop');
      if (hop + 1 > req.maxRedirects)
        throw new EgressRedirectError('too_many_redirects', `it redirects more than ${req.maxRedirects} times`);
      url = next;
    }
  }

  return {
    async send(req) {
      const started = performance.now();
      const response = await open(req.url, req.method ?? 'POST', req.headers, req.body, req.timeoutMs);
      const limit = req.maxBodyBytes ?? 1024;
      const chunks: Buffer[] = [];
      let kept = 0;
      for await (const chunk of response.body) {
        if (kept < limit) {
          const buf = chunk as Buffer;
          chunks.push(buf.subarray(0, limit - kept));
          kept += Math.min(buf.length, limit - kept);
        } else {
          response.body.destroy();
          break;
        }
      }
      return {
        status: response.statusCode,
        headers: response.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        latencyMs: Math.round(performance.now() - started),
      };
    },
    async download(req) {
      const response = await follow(req);
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > req.maxBodyBytes) {
        discard(response.body);
        throw new PayloadTooLargeError(
          'download_too_large',
          `The file at the URL is larger than ${req.maxBodyBytes} bytes.`,
        );
      }
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of response.body) {
        size += (chunk as Buffer).length;
        if (size > req.maxBodyBytes) {
          response.body.destroy();
          throw new PayloadTooLargeError(
            'download_too_large',
            `The file at the URL is larger than ${req.maxBodyBytes} bytes.`,
          );
        }
        chunks.push(chunk as Buffer);
      }
      return { status: response.statusCode, headers: response.headers, body: Buffer.concat(chunks) };
    },
    close: () => agent.close(),
  };
}
