import net from 'node:net';
import { resolveInfra } from '@platform/testing';

export interface KafkaProxy {
  /** Bootstrap address for the clients that must reach the broker only through this proxy. */
  brokers: string;
  /** Connections the proxy has accepted so far (a client that never came through proves nothing). */
  readonly accepted: number;
  /** The broker goes away for those clients: open connections are reset and new ones refused. */
  cut(): Promise<void>;
  /** The broker is back: connections are accepted and forwarded again. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

const hostPort = (address: string) => {
  const at = address.lastIndexOf(':');
  return { host: address.slice(0, at), port: Number(address.slice(at + 1)) };
};

/**
 * A TCP proxy on the address the broker's PROXIED listener advertises (deploy/local/kafka.sh), forwarding to
 * that listener. A client bootstrapped here learns from the broker's metadata that the broker is here too, so
 * all its traffic passes through the proxy, and cutting the proxy takes the broker away from that client alone:
 * the shared broker and every other client carry on.
 */
export async function startKafkaProxy(): Promise<KafkaProxy> {
  const { address, upstream } = resolveInfra().kafkaProxy;
  const listen = hostPort(address);
  const target = hostPort(upstream);
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((client) => {
    accepted++;
    const broker = net.connect(target.port, target.host);
    for (const socket of [client, broker]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        broker.destroy();
      });
    }
    client.pipe(broker).pipe(client);
  });
  const open = () =>
    new Promise<void>((resolve, reject) => {
      const failed = (error: Error) =>
        reject(
          new Error(
            `the Kafka test proxy cannot listen on ${address} (is another outage test running?): ${error.message}`,
          ),
        );
      server.once('error', failed);
      server.listen(listen.port, listen.host, () => {
        server.off('error', failed);
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
    brokers: address,
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
