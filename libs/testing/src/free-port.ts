import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Where test ports are drawn from: below the kernel's ephemeral range. A port that `listen(0)` hands out (to
 * any process: a server under test elsewhere, a client's own end) comes from that range, so it cannot take a
 * port handed out here between the check and the bind of the process started next, which may take a minute.
 */
const RANGE = (() => {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && low > 12_000) return { from: 10_000, to: Math.min(low, 32_768) };
  } catch {
    // Not Linux: the ephemeral ports then, as before.
  }
  return undefined;
})();

function tryListen(port: number): Promise<number | undefined> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(undefined));
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address() as { port: number };
      server.close(() => resolve(bound));
    });
  });
}

/** Ports that browsers refuse to fetch from (Chromium's and Firefox's restricted list, within the range). */
const BROWSER_UNSAFE = new Set([10080]);

/** A TCP port free on loopback right now, for a process started next. */
export async function freePort(): Promise<number> {
  if (RANGE) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const candidate = RANGE.from + Math.floor(Math.random() * (RANGE.to - RANGE.from));
      if (BROWSER_UNSAFE.has(candidate)) continue;
      const port = await tryListen(candidate);
      if (port !== undefined) return port;
    }
  }
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}
