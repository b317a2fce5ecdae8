import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const DEPLOY_LOCAL = resolve(dirname(fileURLToPath(import.meta.url)), '../../deploy/local');

/** The last line a deploy/local tool script prints for `path`/`dir` (its progress goes to stderr). */
function toolPath(script: string, command: string): string {
  const out = execFileSync('bash', [resolve(DEPLOY_LOCAL, script), command], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const path = out.trim().split('\n').pop();
  if (!path) throw new Error(`${script} ${command} printed no path`);
  return path;
}

/**
 * The manifest tests render with the real kustomize and validate custom resources against their CRDs: both are built
 * or fetched once from package registries by deploy/local (cached under ~/.cache/platform), never by the tests.
 */
export function setup(): void {
  process.env['KUSTOMIZE_BIN'] = toolPath('kustomize.sh', 'path');
  process.env['PLATFORM_CRDS_DIR'] = toolPath('crds.sh', 'dir');
}
