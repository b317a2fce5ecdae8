import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  receivedAt: number;
}

export interface WebhookReceiver {
  url: string;
  requests: ReceivedRequest[];
  /** Chooses the answer per request: status, optional delay and headers. */
  respondWith(
    fn: (
      req: ReceivedRequest,
      index: number,
    ) => { status: number; delayMs?: number; headers?: Record<string, string>; body?: string },
  ): void;
  close(): Promise<void>;
}

/** A real HTTP receiver on loopback that records every request (duplicates included) and answers as told. */
export async function startWebhookReceiver(path = '/webhooks', host = '127.0.0.1'): Promise<WebhookReceiver> {
  const requests: ReceivedRequest[] = [];
  let responder: Parameters<WebhookReceiver['respondWith']>[0] = () => ({ status: 200 });
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const received: ReceivedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        receivedAt: Date.now(),
      };
      const index = requests.push(received) - 1;
      const answer = responder(received, index);
      setTimeout(() => {
        res.writeHead(answer.status, { 'content-type': 'text/plain', ...answer.headers });
        res.end(answer.body ?? (answer.status < 300 ? 'ok' : `status ${answer.status}`));
      }, answer.delayMs ?? 0);
    });
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}${path}`,
    requests,
    respondWith(fn) {
      responder = fn;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
