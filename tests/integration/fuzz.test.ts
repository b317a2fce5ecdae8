import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNotificationsStack, type NotificationsStack } from '../support/notifications-stack.js';

/**
 * Schemathesis (deploy/local/schemathesis.sh) against each gateway's /openapi.json, as a gate: with a fixed seed
 * and a bounded budget, its every check must pass: no server error, no status, header or body the document does
 * not name, no schema-violating request accepted, no schema-valid request rejected.
 */

const ROOT = path.resolve(import.meta.dirname, '../..');
const SEED = '20261128';

let st: string;
let notifications: NotificationsStack;

interface Target {
  name: string;
  base: () => string;
  headers: () => Promise<string[]>;
  /** Checks left out on purpose, each with the reason. */
  excluded?: Record<string, string>;
  /** Operations left out on purpose (a path), each with the reason. */
  excludedPaths?: Record<string, string>;
}

const targets: Target[] = [
  {
    name: 'notifications-gateway',
    base: () => notifications.urls[0],
    headers: async () => [`Platform-Session-Token: ${(await notifications.newDeployment()).owner.token}`],
    excludedPaths: {
      '/api/v2/notifications/inbox/watch':
        'a stream, opened as a WebSocket or as Server-Sent Events, that never ends: a plain GET asking for neither is 400 by design; frames, filters, resume and slow readers are tested in notifications-api',
    },
  },
];

function run(args: string[]): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(st, args, { env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_TELEMETRY: 'false' } });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('close', (code) => resolve({ code, output }));
  });
}

// In progress (issue 37): on by PLATFORM_FUZZ=1 until every gateway passes; what it still finds is in the
// closing note of the session that added it.
describe.skipIf(!process.env['PLATFORM_FUZZ'])('fuzzing every gateway from its OpenAPI document', () => {
  beforeAll(async () => {
    st = execFileSync('bash', [path.join(ROOT, 'deploy/local/schemathesis.sh'), 'install'], {
      encoding: 'utf8',
    }).trim();
    notifications = await startNotificationsStack();
  }, 300_000);

  afterAll(async () => {
    await notifications?.close();
  });

  for (const target of targets) {
    it(`${target.name} passes every check`, async () => {
      const reports = mkdtempSync(path.join(tmpdir(), 'fuzz-'));
      const excluded = Object.keys(target.excluded ?? {});
      const { code, output } = await run([
        'run',
        `${target.base()}/openapi.json`,
        '--checks',
        'all',
        ...(excluded.length > 0 ? ['--exclude-checks', excluded.join(',')] : []),
        ...Object.keys(target.excludedPaths ?? {}).flatMap((p) => ['--exclude-path', p]),
        '--seed',
        SEED,
        '--max-examples',
        '20',
        '--workers',
        '1',
        '--request-timeout',
        '30',
        '--report',
        'junit',
        '--report-junit-path',
        path.join(reports, 'junit.xml'),
        ...(await target.headers()).flatMap((header) => ['-H', header]),
      ]);
      const junit = readFileSync(path.join(reports, 'junit.xml'), 'utf8');
      writeFileSync(path.join(reports, 'output.txt'), output);
      expect(code, `schemathesis found failures (all of them: ${reports}/output.txt)\n${output.slice(0, 12_000)}`).toBe(
        0,
      );
      expect(junit).toContain('<testsuite');
    }, 900_000);
  }
});
