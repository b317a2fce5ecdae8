import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { freePort, isolatedAppEnv, startProcess, uniqueName, waitFor, type ManagedProcess } from '@platform/testing';
import { cleanUpStack } from './cleanup.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');

export interface ImagesPlatform {
  baseUrl: string;
  /** A new account's API key, as `Authorization` header value (the CLI's `keys create images`). */
  newAccount(): Promise<string>;
}

/**
 * The images API as it runs in production: `workers` image-worker processes and one images-gateway, on a fresh
 * topic prefix and database, removed again when `use` returns. `use` is called once a first /shrink is answered.
 */
export async function withImagesPlatform<T>(workers: number, use: (platform: ImagesPlatform) => Promise<T>) {
  const env = isolatedAppEnv(uniqueName('benchimg'), {
    API_KEY_PEPPER: 'bench-pepper-0123456789abcdef',
    SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
  });
  const processes: ManagedProcess[] = [];
  try {
    const port = await freePort();
    for (let i = 0; i < workers; i++) {
      processes.push(startProcess(`image-worker-${i}`, path.join(root, 'apps/image-worker/dist/main.js'), env));
    }
    const baseUrl = `http://127.0.0.1:${port}`;
    processes.push(
      startProcess('images-gateway', path.join(root, 'apps/images-gateway/dist/main.js'), {
        ...env,
        PORT: String(port),
        PUBLIC_BASE_URL: baseUrl,
      }),
    );
    const crashed = () =>
      processes
        .find((p) => p.exited())
        ?.output()
        .slice(-2000);
    await waitFor(async () => (await fetch(`${baseUrl}/readyz`)).status === 200, {
      what: 'images-gateway ready',
      timeoutMs: 60_000,
      failFast: crashed,
    });
    const newAccount = async () => {
      const { stdout } = await run(
        process.execPath,
        [path.join(root, 'apps/cli/dist/main.js'), 'keys', 'create', 'images'],
        { env: { ...process.env, ...env } },
      );
      return `Basic ${Buffer.from(`api:${stdout.trim()}`).toString('base64')}`;
    };
    // The first /shrink waits for the workers' consumer group to form: answered before anything is measured.
    const warmUpAccount = await newAccount();
    const tiny = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3a6' } })
      .png()
      .toBuffer();
    await waitFor(
      async () =>
        (
          await fetch(`${baseUrl}/shrink`, {
            method: 'POST',
            headers: { authorization: warmUpAccount, 'content-type': 'image/png' },
            body: tiny,
            signal: AbortSignal.timeout(30_000),
          })
        ).status === 201,
      { what: 'a first /shrink answered 201', timeoutMs: 90_000, intervalMs: 500, failFast: crashed },
    );
    return await use({ baseUrl, newAccount });
  } finally {
    await Promise.all(processes.map((p) => p.kill('SIGTERM')));
    await cleanUpStack(env).catch((error: unknown) => console.warn(`cleaning up the run failed: ${String(error)}`));
  }
}
