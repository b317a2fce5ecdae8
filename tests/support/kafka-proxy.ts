import { resolveInfra } from '@platform/testing';
import { startTcpProxy } from './tcp-proxy.js';

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

/**
 * A TCP proxy on the address the broker's PROXIED listener advertises (deploy/local/kafka.sh), forwarding to
 * that listener. A client bootstrapped here learns from the broker's metadata that the broker is here too, so
 * all its traffic passes through the proxy, and cutting the proxy takes the broker away from that client alone:
 * the shared broker and every other client carry on.
 */
export async function startKafkaProxy(): Promise<KafkaProxy> {
  const { address, upstream } = resolveInfra().kafkaProxy;
  const proxy = await startTcpProxy({
    listen: address,
    upstream,
    what: `Kafka (is another outage test running?)`,
  });
  return {
    brokers: address,
    get accepted() {
      return proxy.accepted;
    },
    cut: () => proxy.cut(),
    restore: () => proxy.restore(),
    close: () => proxy.close(),
  };
}
