import { Agent, request } from 'undici';
import { isIP } from 'node:net';
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

export interface EgressClient {
  send(req: EgressRequest): Promise<EgressResponse>;
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
  return {
    async send(req) {
      const url = new URL(req.url);
      const host = url.hostname.replace(/^\[|\]$/g, '');
      if (isIP(host) !== 0) guard.check(host, host);
      const started = performance.now();
      const response = await request(url, {
        method: req.method ?? 'POST',
        headers: req.headers ?? {},
        body: req.body ?? null,
        dispatcher: agent,
        headersTimeout: req.timeoutMs,
        bodyTimeout: req.timeoutMs,
        signal: AbortSignal.timeout(req.timeoutMs),
      });
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
    close: () => agent.close(),
  };
}
