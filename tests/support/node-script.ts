import { spawn } from 'node:child_process';

/**
 * Runs an ES module given as text in a plain node process started in `cwd` (which resolves the workspace
 * packages to their built dist/, as an app does), and returns what it wrote to stdout. A failed run throws with
 * its stderr, naming it as `what`.
 */
export async function runNodeScript(script: string, options: { cwd: string; what: string }): Promise<string> {
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: options.cwd,
    env: process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((done) => child.on('close', done));
  if (code !== 0) throw new Error(`${options.what} failed (exit ${code})\n${stderr}`);
  return stdout;
}
