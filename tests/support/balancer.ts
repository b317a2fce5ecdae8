import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';

/** Hop-by-hop headers (RFC 9110 §7.6.1): they describe one connection and are never forwarded. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
]);

export interface Balancer {
  url: string;
  /** Puts a replica into rotation (the endpoints controller adds a pod once its readiness probe passes). */
  add(upstream: string): void;
  /** Takes a replica out of rotation (a terminating pod); the requests it is already serving go on. */
  remove(upstream: string): void;
  /** Requests sent to this replica and not yet answered in full. */
  inFlight(upstream: string): number;
  /** The replica each request with an `x-request-id` was sent to. */
  routed: Map<string, string>;
  /** Requests the balancer could not complete: no replica in rotation, or a replica that cut one off. */
  failures: string[];
  close(): Promise<void>;
}

/**
 * A round-robin HTTP reverse proxy over loopback replicas, as an ingress or a Service in front of a
 * Deployment: keep-alive pools to each replica, request and response bodies streamed, no retries (a request
 * a replica drops is a 502 here, and is recorded), so that what a draining process does is what the client sees.
 */
export async function startBalancer(): Promise<Balancer> {
  const rotation: string[] = [];
  const pools = new Map<string, Pool>();
  const inFlight = new Map<string, number>();
  const failures: string[] = [];
  const routed = new Map<string, string>();
  let next = 0;

  const server = http.createServer((req, res) => {
    const upstream = rotation.length > 0 ? rotation[next++ % rotation.length]! : undefined;
    if (!upstream) {
      failures.push(`${req.method} ${req.url}: no replica in rotation`);
      res.writeHead(503).end();
      return;
    }
    const requestId = req.headers['x-request-id'];
    if (typeof requestId === 'string') routed.set(requestId, upstream);
    let pool = pools.get(upstream);
    if (!pool) pools.set(upstream, (pool = new Pool(upstream, { connections: 32 })));
    inFlight.set(upstream, (inFlight.get(upstream) ?? 0) + 1);
    const done = () => inFlight.set(upstream, inFlight.get(upstream)! - 1);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !HOP_BY_HOP.has(name))) as Record<
      string,
      string | string[]
    >;
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    pool
      .request({ method: req.method as 'GET', path: req.url ?? '/', headers, body: hasBody ? req : null })
      .then(async (answer) => {
        const forwarded = Object.fromEntries(
          Object.entries(answer.headers).filter(([name]) => !HOP_BY_HOP.has(name)),
        ) as http.OutgoingHttpHeaders;
        res.writeHead(answer.statusCode, forwarded);
        try {
          for await (const chunk of answer.body) res.write(chunk);
          res.end();
        } catch (error) {
          failures.push(`${req.method} ${req.url} via ${upstream}: response body cut off: ${(error as Error).message}`);
          res.destroy();
        }
      })
      .catch((error: Error & { code?: string }) => {
        failures.push(`${req.method} ${req.url} via ${upstream}: ${error.code ?? ''} ${error.message}`);
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      })
      .finally(done);
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    failures,
    routed,
    add(upstream) {
      if (!rotation.includes(upstream)) rotation.push(upstream);
    },
    remove(upstream) {
      const at = rotation.indexOf(upstream);
      if (at >= 0) rotation.splice(at, 1);
    },
    inFlight: (upstream) => inFlight.get(upstream) ?? 0,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.all([...pools.values()].map((pool) => pool.destroy()));
    },
  };
}
