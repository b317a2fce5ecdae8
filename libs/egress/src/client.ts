import { Agent, request } from 'undici';
import { isIP } from 'node:net';
import { PayloadTooLargeError } from '@platform/errors';
import type { EgressGuard } from './guard.js';

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
   * PayloadTooLargeError as soon as it passes `maxBodyBytes` (the rest is never read).
   */
  download(req: {
    url: string;
    timeoutMs: number;
    maxBodyBytes: number;
    headers?: Record<string, string>;
  }): Promise<EgressDownload>;
  close(): Promise<void>;
}

/**
 * Outbound HTTP for user-given URLs: a pooled keep-alive undici agent whose sockets resolve names
 * through the guard, literal addresses checked before connecting, redirects never followed (undici 7 `request` does not follow them).
 */
export function createEgressClient(guard: EgressGuard, options: { connections?: number } = {}): EgressClient {
  const agent = new Agent({
    connections: options.connections ?? 64,
    keepAliveTimeout: 10_000,
    connect: { lookup: guard.lookup, timeout: 10_000 },
  });
  /** One guarded request: literal addresses checked here, names at connect time (the agent's lookup). */
  function open(
    target: string,
    method: 'GET' | 'POST' | 'PUT',
    headers: Record<string, string> | undefined,
    body: string | Buffer | undefined,
    timeoutMs: number,
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
      signal: AbortSignal.timeout(timeoutMs),
    });
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
      const response = await open(req.url, 'GET', req.headers, undefined, req.timeoutMs);
      const declared = Number(response.headers['content-length']);
      if (Number.isFinite(declared) && declared > req.maxBodyBytes) {
        response.body.destroy();
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
