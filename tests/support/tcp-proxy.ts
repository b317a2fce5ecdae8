import net from 'node:net';

export interface TcpProxy {
  /** host:port the clients that must reach the upstream only through this proxy connect to. */
  address: string;
  /** Connections the proxy has accepted so far (a client that never came through proves nothing). */
  readonly accepted: number;
  /** The upstream goes away for those clients: open connections are reset and new ones refused. */
  cut(): Promise<void>;
  /** The upstream is back: connections are accepted and forwarded again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

const hostPort = (address: string) => {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at), port: Number(address.slice(at + 1)) };
};

/**
 * A TCP proxy from `listen` (host:port; port 0 picks a free one) to `upstream`: cutting it takes a shared
 * dependency (a broker, Redis) away from the clients that connect through it alone, while every other client
 * carries on.
 */
export async function startTcpProxy(options: { upstream: string; listen?: string; what?: string }): Promise<TcpProxy> {
  const listen = hostPort(options.listen ?? '127.0.0.1:0');
  const target = hostPort(options.upstream);
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    const upstream = net.connect(target.port, target.host);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const failed = (error: Error) =>
        reject(
          new Error(
            `the ${options.what ?? 'TCP'} test proxy cannot listen on ${listen.host}:${listen.port}: ${error.message}`,
          ),
        );
      server.once('error', failed);
      server.listen(listen.port, listen.host, () => {
        server.off('error', failed);
        // Restored on the same port as first opened.
        listen.port = (server.address() as net.AddressInfo).port;
        resolve();
      });
    });
  const shut = async () => {
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.resetAndDestroy();
    await closed;
  };
  await open();
  return {
    address: `${listen.host}:${listen.port}`,
    get accepted() {
      return accepted;
    },
    cut: shut,
    restore: open,
    async close() {
      if (server.listening) await shut();
    },
  };
}
