import { once } from 'node:events';
import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RawHttpPool } from './raw-http.js';

/** A TCP server answering each request (one per blank line received) with what `answer` writes. */
async function serve(
  answer: (socket: Socket, n: number, request: string) => void,
): Promise<{ server: Server; origin: string; requests: string[] }> {
  const requests: string[] = [];
  const server = createServer((socket) => {
    let pending = '';
    socket.on('data', (chunk) => {
      pending += chunk.toString('latin1');
      for (let end = pending.indexOf('\r\n\r\n'); end !== -1; end = pending.indexOf('\r\n\r\n')) {
        const request = pending.slice(0, end + 4);
        pending = pending.slice(end + 4);
        requests.push(request);
        answer(socket, requests.length, request);
      }
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

/** Sends `count` requests through a pool of `size` connections and resolves with each token's status. */
async function send(origin: string, count: number, size = 1): Promise<Map<number, number>> {
  const statuses = new Map<number, number>();
  let done: () => void = () => undefined;
  const all = new Promise<void>((resolve) => (done = resolve));
  const pool = new RawHttpPool(origin, size, (token, status) => {
    statuses.set(token, status);
    if (statuses.size === count) done();
  });
  for (let i = 0; i < count; i++)
    pool.send(i, pool.text({ method: 'GET', path: `/h${i}`, headers: { host: 'sho.rt', 'user-agent': 'test' } }));
  await all;
  pool.close();
  return statuses;
}

describe('RawHttpPool', () => {
  it('sends each request with its headers and reads each status, one at a time per connection', async () => {
    const { server, origin, requests } = await serve((socket, n) => {
      socket.write(`HTTP/1.1 ${n % 2 === 0 ? 404 : 301} X\r\nLocation: /x\r\nContent-Length: 5\r\n\r\nhello`);
    });
    servers.push(server);
    const statuses = await send(origin, 6);
    expect([...statuses.values()].sort()).toEqual([301, 301, 301, 404, 404, 404]);
    expect(requests[0]).toBe('GET /h0 HTTP/1.1\r\nhost: sho.rt\r\nuser-agent: test\r\n\r\n');
  });

  it('reads answers whose head and body arrive a byte at a time', async () => {
    const answer = 'HTTP/1.1 302 Found\r\ncontent-length: 12\r\ncache-control: no-store\r\n\r\nhello, world';
    const { server, origin } = await serve((socket) => {
      let i = 0;
      const next = () => {
        if (i < answer.length) socket.write(answer[i++]!, () => setImmediate(next));
      };
      next();
    });
    servers.push(server);
    expect([...(await send(origin, 3)).values()]).toEqual([302, 302, 302]);
  });

  it('reads an empty body, and queues requests beyond its connections', async () => {
    const { server, origin } = await serve((socket) => socket.write('HTTP/1.1 301 Moved\r\nContent-Length: 0\r\n\r\n'));
    servers.push(server);
    const statuses = await send(origin, 50, 4);
    expect(statuses.size).toBe(50);
    expect(new Set(statuses.values())).toEqual(new Set([301]));
  });

  it('fails an answer without content-length (chunked) with status 0, and goes on with a new connection', async () => {
    const { server, origin } = await serve((socket, n) =>
      socket.write(
        n === 1
          ? 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n'
          : 'HTTP/1.1 301 M\r\nContent-Length: 0\r\n\r\n',
      ),
    );
    servers.push(server);
    expect([...(await send(origin, 3)).entries()]).toEqual([
      [0, 0],
      [1, 301],
      [2, 301],
    ]);
  });

  it('fails the request in flight when the server closes the connection', async () => {
    const { server, origin } = await serve((socket, n) =>
      n === 2 ? socket.destroy() : socket.write('HTTP/1.1 301 M\r\nContent-Length: 0\r\n\r\n'),
    );
    servers.push(server);
    expect([...(await send(origin, 3)).entries()]).toEqual([
      [0, 301],
      [1, 0],
      [2, 301],
    ]);
  });
});
