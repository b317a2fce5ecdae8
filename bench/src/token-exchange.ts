import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { connectMongo } from '@platform/mongo';
import { createOAuthCredentials, createOAuthStore, createOAuthWriter } from '@platform/oauth';
import { createRedis, redisStamps } from '@platform/redis';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { cpuPerRequest, cpuSeconds, machineCpu, machineSpent, sharesPerUnit } from './cpu.js';
import { settledStatements, statementLog, statementsPerRequest } from './statements.js';
import { summarise, type LatencyStats } from './stats.js';
import { benchStores, round2, type Store } from './stores.js';

/**
 * Token exchange (authorization_code) and refresh (refresh_token, rotating) through the scheduling gateway
 * -> Kafka -> oauth-worker (FerretDB) -> Redis reply, next to a bare Fastify handler that only signs a token,
 * same client, same run. Codes are planted in the store beforehand (the consent page's part is not measured).
 */
const root = path.resolve(import.meta.dirname, '../..');
const name = uniqueName('benchtok');
const total = Number(process.env['BENCH_TOKEN_REQUESTS'] ?? 2000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 16);
/** Exchanges made first, not measured: a fresh process compiles its hot paths in its first few hundred requests. */
const warmup = Number(process.env['BENCH_WARMUP'] ?? 1000);
const pepper = 'bench-oauth-pepper-0123456789abcdef-0123456';
const env = isolatedAppEnv(name, {
  SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
  OAUTH_SECRET_PEPPER: pepper,
  OAUTH_ACCESS_TOKEN_KEYS: 'bench-access-token-key-0123456789abcdef-0123',
  TOKEN_FAILURES_PER_IP: '100000',
});
const REDIRECT = 'https://bench.example.com/cb';

type Form = Record<string, string>;

/** Closed loop where each of `concurrency` workers carries state from one answer to its next request. */
async function chains(
  origin: string,
  requests: number,
  first: (i: number) => Form,
  next: (answer: Record<string, unknown>) => Form | null,
): Promise<LatencyStats> {
  const pool = new Pool(origin, { connections: concurrency, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  let started = 0;
  const began = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      let form: Form | null = null;
      while (started < requests) {
        const i = started++;
        form ??= first(i);
        const t0 = performance.now();
        try {
          const response = await pool.request({
            method: 'POST',
            path: '/v2/auth/oauth2/token',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams(form).toString(),
            headersTimeout: 30_000,
            bodyTimeout: 30_000,
          });
          const answer = (await response.body.json()) as Record<string, unknown>;
          if (response.statusCode !== 200) {
            errors++;
            form = null;
            continue;
          }
          latencies.push(performance.now() - t0);
          form = next(answer);
        } catch {
          errors++;
          form = null;
        }
      }
    }),
  );
  const seconds = (performance.now() - began) / 1000;
  await pool.close();
  return summarise(latencies, errors, seconds);
}

const ratio = (platform: LatencyStats, baseline: LatencyStats) => ({
  p50: Math.round((platform.p50_ms / baseline.p50_ms) * 10) / 10,
  p99: Math.round((platform.p99_ms / baseline.p99_ms) * 10) / 10,
  throughput: Math.round((baseline.requests_per_second / platform.requests_per_second) * 10) / 10,
});

/** The platform on one store: exchange, then refresh the tokens it issued; codes planted beforehand. */
/** A phase's latency, with the CPU per request of the gateway and the worker and of the whole machine meanwhile. */
type Phase = LatencyStats & {
  cpu_us_per_request: { gateway: number; worker: number };
  machine_cpu_ms_per_request: Record<string, number>;
  sql_statements_per_request?: ReturnType<typeof statementsPerRequest>;
};

async function withCpu(pids: { gateway?: number; worker?: number }, run: () => Promise<LatencyStats>): Promise<Phase> {
  const statements = await statementLog();
  await statements?.reset();
  const gateway = cpuSeconds(pids.gateway);
  const worker = cpuSeconds(pids.worker);
  const machineBefore = machineCpu();
  const stats = await run();
  const spent = machineSpent(machineBefore, machineCpu());
  const requests = stats.requests + stats.errors;
  const shapes = await settledStatements(statements, name);
  return {
    ...stats,
    cpu_us_per_request: {
      gateway: cpuPerRequest(gateway, cpuSeconds(pids.gateway), requests),
      worker: cpuPerRequest(worker, cpuSeconds(pids.worker), requests),
    },
    machine_cpu_ms_per_request: {
      total: Math.round(([...spent.values()].reduce((a, b) => a + b, 0) / requests) * 1e5) / 100,
      ...sharesPerUnit(spent, requests),
    },
    ...(shapes.length > 0 ? { sql_statements_per_request: statementsPerRequest(shapes, requests) } : {}),
  };
}

async function measureStore(target: Store): Promise<{ exchange: Phase; refresh: Phase }> {
  const storeEnv = { ...env, MONGO_URL: target.mongoUrl };
  const processes: ManagedProcess[] = [];
  const mongo = await connectMongo({ url: target.mongoUrl, dbName: name, appName: name });
  const redis = createRedis(env['REDIS_URL']!, { name: `${name}-setup` });
  try {
    const gatewayPort = await freePort();
    // BENCH_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' profiles the gateway and the worker
    // (bench/dist/profile-top.js summarizes a profile).
    const nodeArgs = process.env['BENCH_NODE_ARGS']?.split(' ').filter(Boolean) ?? [];
    processes.push(
      startProcess('oauth-worker', path.join(root, 'apps/oauth-worker/dist/main.js'), storeEnv, { nodeArgs }),
    );
    processes.push(
      startProcess(
        'scheduling-gateway',
        path.join(root, 'apps/scheduling-gateway/dist/main.js'),
        { ...storeEnv, PORT: String(gatewayPort) },
        { nodeArgs },
      ),
    );
    await waitFor(async () => (await fetch(`http://127.0.0.1:${gatewayPort}/readyz`)).status < 500, {
      what: `scheduling-gateway on ${target.name}`,
      timeoutMs: 60_000,
      failFast: () =>
        processes
          .find((p) => p.exited())
          ?.output()
          .slice(-2000),
    });
    // Setup, not measured: an accepted confidential client with a secret, and one code per exchange.
    const store = createOAuthStore(mongo);
    await store.ensureIndexes();
    // The oauth-worker's stamps: the client written here is read there.
    const writer = createOAuthWriter(mongo, redisStamps(redis, `oauth:${mongo.name}`));
    const credentials = createOAuthCredentials(pepper);
    const secret = credentials.newClientSecret();
    const clientId = `cl_${name}`;
    const now = new Date();
    await writer.clients.insert(
      {
        _id: clientId,
        owner_user_id: 'usr_bench',
        owner_email: 'bench@example.com',
        name: 'Bench',
        logo_url: null,
        website_url: null,
        purpose: 'Benchmark',
        redirect_uris: [REDIRECT],
        scopes: ['BOOKING_READ'],
        kind: 'confidential',
        status: 'accepted',
        secrets: [
          { id: 'sec_bench', hash: credentials.hashClientSecret(secret), hint: secret.slice(-4), created_at: now },
        ],
        reviewed_by: null,
        reviewed_at: null,
        review_reason: null,
        version: 1,
        created_at: now,
        updated_at: now,
      },
      [],
    );
    const codes = Array.from({ length: warmup + total + 50 }, () => credentials.newCode());
    for (let i = 0; i < codes.length; i += 100) {
      await Promise.all(
        codes.slice(i, i + 100).map((code) =>
          writer.insertAuthorizationCode({
            _id: credentials.hashCode(code),
            client_id: clientId,
            user_id: 'usr_bench',
            redirect_uri: REDIRECT,
            scopes: ['BOOKING_READ'],
            legacy: false,
            code_challenge: null,
            created_at: now,
            expires_at: new Date(Date.now() + 3_600_000),
            used_at: null,
            used_for: null,
            grant_id: null,
          }),
        ),
      );
    }

    const exchangeForm = (code: string): Form => ({
      grant_type: 'authorization_code',
      client_id: clientId,
      client_secret: secret,
      code,
      redirect_uri: REDIRECT,
    });
    let codeIndex = 0;
    const origin = `http://127.0.0.1:${gatewayPort}`;
    const pids = { worker: processes[0]!.child.pid, gateway: processes[1]!.child.pid };
    if (warmup > 0)
      await chains(
        origin,
        warmup,
        () => exchangeForm(codes[codeIndex++]!),
        () => null,
      );
    const refreshTokens: string[] = [];
    const exchange = await withCpu(pids, () =>
      chains(
        origin,
        total,
        () => exchangeForm(codes[codeIndex++]!),
        (answer) => {
          refreshTokens.push(answer['refresh_token'] as string);
          return null;
        },
      ),
    );
    let chainIndex = 0;
    const refresh = await withCpu(pids, () =>
      chains(
        origin,
        total,
        () => refreshForm(clientId, secret, refreshTokens[chainIndex++]!),
        (answer) => refreshForm(clientId, secret, answer['refresh_token'] as string),
      ),
    );
    return { exchange, refresh };
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await mongo.dropDatabase().catch(() => undefined);
    await mongo.close();
    redis.disconnect();
  }
}

const refreshForm = (clientId: string, secret: string, token: string): Form => ({
  grant_type: 'refresh_token',
  client_id: clientId,
  client_secret: secret,
  refresh_token: token,
});

async function main() {
  const stores = benchStores();
  const barePort = await freePort();
  const bare = startProcess('bare-token-server', path.join(root, 'bench/dist/bare-token-server.js'), {
    PORT: String(barePort),
  });
  let baselineExchange: LatencyStats;
  let baselineRefresh: LatencyStats;
  try {
    await waitFor(async () => (await fetch(`http://127.0.0.1:${barePort}/x`)).status < 500, {
      what: 'bare token server',
      timeoutMs: 30_000,
    });
    const bareForm = (): Form => ({
      grant_type: 'authorization_code',
      client_id: 'x',
      client_secret: 'x',
      code: 'x',
      redirect_uri: REDIRECT,
    });
    baselineExchange = await chains(`http://127.0.0.1:${barePort}`, total, bareForm, () => null);
    baselineRefresh = await chains(
      `http://127.0.0.1:${barePort}`,
      total,
      () => refreshForm('x', 'x', 'x'),
      () => refreshForm('x', 'x', 'x'),
    );
  } finally {
    await bare.kill('SIGTERM');
  }
  const byStore: Record<string, { exchange: Phase; refresh: Phase }> = {};
  for (const store of stores) byStore[store.name] = await measureStore(store);
  const first = byStore[stores[0]!.name]!;
  const second = stores[1] ? byStore[stores[1].name] : undefined;
  const result = {
    benchmark: 'token-exchange',
    description:
      'POST /v2/auth/oauth2/token (form, client_secret_post): authorization_code exchange and rotating refresh through gateway -> Kafka -> oauth-worker (FerretDB) -> Redis reply, next to a bare Fastify handler that only signs a token; same client, same run; ' +
      `on each store of the run (${stores.map((s) => s.name).join(', ')}); store_ratio: the first store's throughput over the second's; ` +
      "sql_statements_per_request: what FerretDB ran on PostgreSQL (pg_stat_statements) per token request, the relay's acknowledgements included.",
    date: new Date().toISOString(),
    machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
    load: { concurrency, requests: total, warmup_requests: warmup },
    targets: { exchange_requests_per_second: 250 },
    authorization_code: {
      baseline_bare_fastify: baselineExchange,
      platform: first.exchange,
      ratio: ratio(first.exchange, baselineExchange),
    },
    refresh_token: {
      baseline_bare_fastify: baselineRefresh,
      platform: first.refresh,
      ratio: ratio(first.refresh, baselineRefresh),
    },
    by_store: Object.fromEntries(
      Object.entries(byStore).map(([k, v]) => [
        k,
        {
          authorization_code: { platform: v.exchange, ratio: ratio(v.exchange, baselineExchange) },
          refresh_token: { platform: v.refresh, ratio: ratio(v.refresh, baselineRefresh) },
        },
      ]),
    ),
    store_ratio: second
      ? {
          authorization_code_throughput: round2(
            first.exchange.requests_per_second / second.exchange.requests_per_second,
          ),
          refresh_token_throughput: round2(first.refresh.requests_per_second / second.refresh.requests_per_second),
        }
      : undefined,
  };
  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/token-exchange.json'), `${JSON.stringify(result, null, 2)}\n`);
  console.log(JSON.stringify(result, null, 2));
}

await main();
