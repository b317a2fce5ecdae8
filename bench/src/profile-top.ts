import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The frames that hold a V8 CPU profile's time (`node --cpu-prof`): self time by function and by package.
 *   node bench/dist/profile-top.js <file.cpuprofile> [top=25]
 */
interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code comes from: a package, one of ours (apps/…, libs/…), node itself, or V8. */
function origin(url: string): string {
  if (url === '') return '(v8/native)';
  if (url.startsWith('node:')) return 'node';
  const packageAt = url.lastIndexOf('node_modules/');
  if (packageAt >= 0) {
    const [scope, name] = url.slice(packageAt + 'node_modules/'.length).split('/');
    return scope?.startsWith('@') ? `${scope}/${name}` : (scope ?? url);
  }
  const ours = /\/(apps|libs)\/([^/]+)\//.exec(url);
  return ours ? `${ours[1]}/${ours[2]}` : path.basename(url);
}

function summarize(file: string, top: number) {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const total = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const byFunction = new Map<string, number>();
  const byOrigin = new Map<string, number>();
  for (const [id, us] of selfUs) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    const where = url ? `${origin(url)} ${path.basename(url)}:${lineNumber + 1}` : '';
    const key = `${functionName || '(anonymous)'} ${where}`.trim();
    byFunction.set(key, (byFunction.get(key) ?? 0) + us);
    byOrigin.set(origin(url), (byOrigin.get(origin(url)) ?? 0) + us);
  }
  const share = (us: number) => `${((100 * us) / total).toFixed(1).padStart(5)} %`;
  const print = (title: string, entries: Map<string, number>) => {
    console.log(`\n${title}`);
    for (const [key, us] of [...entries].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${share(us)}  ${key}`);
  };
  console.log(`${file}: ${(total / 1e6).toFixed(2)} s sampled`);
  print('self time by origin', byOrigin);
  print('self time by function', byFunction);
}

const [file, top] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-top <file.cpuprofile> [top]');
  process.exit(2);
}
summarize(file, Number(top ?? 25));
