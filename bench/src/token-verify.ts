import { createHmac } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { createAccessTokens, createBearerCheck, createOAuthCredentials } from '@platform/oauth';
import { hashPassword } from '@platform/secrets';

/**
 * Bearer verification runs on every scheduling API request: its cost per call next to a bare HMAC-SHA256 of
 * the same token (the floor), in the same run. Repeated rounds; the median round is reported.
 */
const root = path.resolve(import.meta.dirname, '../..');
const iterations = Number(process.env['BENCH_TOKEN_ITERATIONS'] ?? 200_000);
const rounds = 7;
const key = 'bench-access-token-key-0123456789abcdef';
const tokens = createAccessTokens({ keys: [key] });
const { token } = tokens.issue({
  sub: 'user_01JABCDEFGHJKMNPQRSTVWXYZ0',
  cid: 'client_01JABCDEFGHJKMNPQRSTVWXYZ',
  gid: 'grant_01JABCDEFGHJKMNPQRSTVWXYZ',
  scp: ['BOOKING_READ', 'BOOKING_WRITE', 'TEAM_PROFILE_READ', 'ORG_SCHEDULE_READ'],
  legacy: false,
});

function microsPerCall(fn: () => unknown): number {
  const started = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - started) / iterations / 1000;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const round3 = (n: number) => Math.round(n * 1000) / 1000;

// The whole bearer check of a request: header parsing, HMAC, claims, expiry and the revocation list.
const revoked = new Map(Array.from({ length: 1000 }, (_, i) => [`grt_${i}`, true]));
const bearer = createBearerCheck({ accessTokens: tokens, revocations: { isRevoked: (id) => revoked.has(id) } });
const header = `Bearer ${token}`;
bearer.verify(header);
microsPerCall(() => bearer.verify(header)); // warm-up
const verify: number[] = [];
const hmac: number[] = [];
for (let r = 0; r < rounds; r++) {
  verify.push(microsPerCall(() => bearer.verify(header)));
  hmac.push(microsPerCall(() => createHmac('sha256', key).update(token).digest()));
}

// Hashing on the token path (a client secret: keyed fast hash) next to a user password (Argon2id).
const credentials = createOAuthCredentials('bench-oauth-pepper-0123456789abcdef-0123456');
const secret = credentials.newClientSecret();
const secretHashUs = median(
  Array.from({ length: rounds }, () => microsPerCall(() => credentials.hashClientSecret(secret))),
);
const passwordMs: number[] = [];
for (let r = 0; r < 5; r++) {
  const started = performance.now();
  await hashPassword('correct horse battery staple');
  passwordMs.push(performance.now() - started);
}
const result = {
  benchmark: 'token-verify',
  description:
    'The bearer check of every API request (header, HMAC, JSON claims, expiry, revocation list) per call, next to a bare HMAC-SHA256 of the same token; median of rounds. Plus the hashes on the token path: a client secret (keyed HMAC) next to a user password (Argon2id).',
  date: new Date().toISOString(),
  machine: { cpus: cpus().length, cpu_model: cpus()[0]?.model, node: process.version },
  settings: { iterations_per_round: iterations, rounds, token_bytes: token.length },
  baseline_bare_hmac_sha256_us: round3(median(hmac)),
  verify_us: round3(median(verify)),
  ratio: round3(median(verify) / median(hmac)),
  target_us: 10,
  hashing: {
    client_secret_hmac_us: round3(secretHashUs),
    user_password_argon2id_ms: round3(median(passwordMs)),
    ratio: Math.round((median(passwordMs) * 1000) / secretHashUs),
  },
};
mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(path.join(root, 'bench/results/token-verify.json'), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));
