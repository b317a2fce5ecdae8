import { spawn, type ChildProcess } from 'node:child_process';

export interface ManagedProcess {
  name: string;
  child: ChildProcess;
  output(): string;
  exited(): boolean;
  /** Resolves with the exit code once the process has ended (null after a signal). */
  exit: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

/**
 * Starts an app's built entry point as a real process, keeping its output for failure messages. `nodeArgs`
 * go to node before the script (`--cpu-prof`, which NODE_OPTIONS refuses).
 */
export function startProcess(
  name: string,
  script: string,
  env: Record<string, string>,
  options: { nodeArgs?: string[] } = {},
): ManagedProcess {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  const keep = (chunk: Buffer) => {
    output += chunk.toString();
    if (output.length > 200_000) output = output.slice(-100_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exit = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      exited = true;
      resolve(code);
    }),
  );
  return {
    name,
    child,
    output: () => output,
    exited: () => exited,
    exit,
    async kill(signal = 'SIGTERM') {
      if (!exited) child.kill(signal);
      return exit;
    },
  };
}
