import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { testWorkerConfig } from './config.js';

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

/**
 * This test process's share of the range. Suites run side by side in vitest's workers, each drawing ports that
 * its processes bind only later: with one range for all, two workers could be handed the same port before
 * either bound it (seen in CI as EADDRINUSE). Each worker (VITEST_POOL_ID, 1..maxWorkers) draws from its own
 * slice; outside vitest, the whole range.
 */
const SLICES = 16;
const OWN = (() => {
  if (!RANGE) return undefined;
  const { pool } = testWorkerConfig.get();
  if (pool === undefined) return RANGE;
  const size = Math.floor((RANGE.to - RANGE.from) / SLICES);
  const from = RANGE.from + ((pool - 1) % SLICES) * size;
  return { from, to: from + size };
})();

/** Ports handed out by this process: never handed out twice, though the process given one may not have bound it yet. */
const handedOut = new Set<number>();

/** A TCP port free on loopback right now, for a process started next. */
export async function freePort(): Promise<number> {
  if (OWN) {
    for (let attempt = 0; attempt < 50; attempt++) {
      const candidate = OWN.from + Math.floor(Math.random() * (OWN.to - OWN.from));
      if (BROWSER_UNSAFE.has(candidate) || handedOut.has(candidate)) continue;
      const port = await tryListen(candidate);
      if (port === undefined) continue;
      handedOut.add(port);
      return port;
    }
  }
  const port = await tryListen(0);
  if (port === undefined) throw new Error('no free port on 127.0.0.1');
  return port;
}
