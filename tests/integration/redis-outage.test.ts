import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveInfra, waitFor } from '@platform/testing';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

let proxy: TcpProxy;
let stack: UsermgmtStack;
let key: string;

beforeAll(async () => {
  const redis = new URL(resolveInfra().redisUrl);
  proxy = await startTcpProxy({ upstream: `${redis.hostname}:${redis.port || 6379}`, what: 'Redis' });
  // The gateway, worker and dispatcher reach Redis only through the proxy: cutting it is their Redis outage.
  stack = await startUsermgmtStack({ extraEnv: { REDIS_URL: `redis://${proxy.address}` } });
  ({ key } = await stack.newKey());
}, 120_000);

afterAll(async () => {
  await proxy?.restore().catch(() => undefined);
  await stack?.close();
  await proxy?.close();
});

const createUser = (email: string) =>
  fetch(`${stack.url}/user_management/users`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': email },
    body: JSON.stringify({ email }),
    signal: AbortSignal.timeout(30_000),
  });

describe('a Redis outage', () => {
  it('is answered 503 with Retry-After, like a store or broker outage, and the service recovers with Redis', async () => {
    expect((await createUser('before@example.com')).status).toBe(201);
    expect(proxy.accepted).toBeGreaterThan(0);

    await proxy.cut();
    const during = await createUser('during@example.com');
    expect(during.status).toBe(503);
    expect(during.headers.get('retry-after')).toBe('1');
    expect(await during.json()).toMatchObject({ code: 'cache_unavailable' });

    await proxy.restore();
    await waitFor(async () => ((await createUser('after@example.com')).status === 201 ? true : undefined), {
      what: 'a user created once Redis is back',
      timeoutMs: 30_000,
    });
  });
});
