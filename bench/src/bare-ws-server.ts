import { createServer } from 'node:http';
import { WebSocketServer } from 'ws';

/**
 * The baseline of the watch fan-out: a bare WebSocket server that, on POST /send, sends the request body as one
 * text frame to every open socket. No auth, no Kafka, no store: the floor for the same client and frames.
 */
const server = createServer((request, response) => {
  if (request.method !== 'POST' || request.url !== '/send') return void response.writeHead(404).end();
  const chunks: Buffer[] = [];
  request.on('data', (c: Buffer) => chunks.push(c));
  request.on('end', () => {
    const frame = Buffer.concat(chunks).toString('utf8');
    for (const socket of wss.clients) socket.send(frame);
    response.writeHead(204).end();
  });
});
const wss = new WebSocketServer({ server, path: '/watch' });
server.listen(Number(process.env['PORT']), '127.0.0.1');
