import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** pngquant's exit status when the image cannot be quantized within --quality's minimum: its user keeps the input. */
const PNGQUANT_QUALITY_TOO_LOW = 99;

export function pipeThrough(command: string, args: string[], input: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out));
      else if (command === 'pngquant' && code === PNGQUANT_QUALITY_TOO_LOW) resolve(input);
      else reject(new Error(`${command} exited ${code}: ${err}`));
    });
    child.stdin.end(input);
  });
}

/** CPU time of this process's threads plus that of its waited-for children (Linux /proc, 10 ms ticks), in ms. */
function cpuMs(): number {
  const own = process.cpuUsage();
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  const childTicks = Number(fields[13]) + Number(fields[14]);
  return (own.user + own.system) / 1000 + childTicks * 10;
}

export async function timed<T>(work: () => Promise<T>): Promise<{ value: T; ms: number; cpuMs: number }> {
  const started = performance.now();
  const cpuStarted = cpuMs();
  const value = await work();
  return { value, ms: performance.now() - started, cpuMs: cpuMs() - cpuStarted };
}
