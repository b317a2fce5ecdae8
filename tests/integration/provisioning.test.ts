import { execFile } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const deployLocal = join(root, 'deploy', 'local');
const shellScripts = [
  ...readdirSync(deployLocal)
    .filter((f) => f.endsWith('.sh'))
    .map((f) => join(deployLocal, f)),
  ...readdirSync(join(root, 'scripts'))
    .filter((f) => f.endsWith('.sh'))
    .map((f) => join(root, 'scripts', f)),
  join(root, '.ci', 'run'),
];

// A check that fails now and then fails `npm start` on a fresh machine by chance: `cmd | grep -q` under
// pipefail is one (grep exits at the first match, the writer gets SIGPIPE, the pipeline fails).
describe('the provisioning scripts', () => {
  it('never end a pipeline with a reader that may stop early', () => {
    const early = /\|\s*(grep\s+(-\w*[qm]\w*\b|--quiet|--max-count)|head\b|sed\s+(-\w+\s+)*'?\d*q)/;
    const offenders = shellScripts.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ where: `${file.slice(root.length + 1)}:${i + 1}`, line: line.trim() }))
        .filter(({ line }) => !line.startsWith('#') && early.test(line)),
    );
    expect(offenders).toEqual([]);
  });

  // Each check of each running component, many times over: one spurious failure is a failed test.
  const checks: Array<[string, string]> = [
    ...['kafka', 'ferretdb', 'postgres', 'redis', 'smtp', 's3', 'gcs'].map((c): [string, string] => [c, 'ready']),
    ...['ferretdb', 'postgres', 'smtp', 'gcs'].map((c): [string, string] => [c, 'installed']),
  ];
  const rounds = 25;

  it.concurrent.each(checks)(
    `%s.sh %s succeeds ${rounds} times in a row`,
    async (component, check) => {
      const script = join(deployLocal, `${component}.sh`);
      const loop = `for i in $(seq ${rounds}); do bash "$1" "$2" || { echo "failed in round $i"; exit 1; }; done`;
      const { stdout } = await run('bash', ['-c', loop, '_', script, check], { timeout: 120_000 });
      expect(stdout).toBe('');
    },
    130_000,
  );
});
