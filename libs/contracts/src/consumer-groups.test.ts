import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the generator scripts
import { repoRoot } from '../scripts/schema-files.mjs';
import { TOPIC_CATALOGUE } from './topics.js';

const appsDir = path.join(repoRoot as string, 'apps');

function sourcesOf(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourcesOf(file);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [file] : [];
  });
}

/**
 * The groups each app joins, read from its source: `groupId: '<literal>'`, `groupId: \`<prefix>${replica}\``
 * and a command worker's `name` (libs/kafka uses it as the group id).
 */
function groupsInCode(): string[] {
  const found = new Set<string>();
  for (const app of fs.readdirSync(appsDir)) {
    const src = path.join(appsDir, app, 'src');
    if (!fs.existsSync(src)) continue;
    for (const file of sourcesOf(src)) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/groupId:\s*'([^']+)'/g)) found.add(`${app} ${m[1]}`);
      for (const m of text.matchAll(/groupId:\s*`([^`]+)`/g))
        found.add(`${app} ${m[1]!.replace(/\$\{[^}]+\}/g, '<replica>')}`);
      for (const m of text.matchAll(/createCommandWorker<[^>]*>\(\{[\s\S]*?\bname:\s*'([^']+)'/g))
        found.add(`${app} ${m[1]}`);
    }
  }
  return [...found].sort();
}

describe('the consumer groups of the topic catalogue', () => {
  it('are the groups the apps join, each under the app that joins it', () => {
    const catalogued = new Set(TOPIC_CATALOGUE.flatMap((t) => t.consumerGroups.map((g) => `${g.app} ${g.group}`)));
    expect([...catalogued].sort(), 'libs/contracts/src/topics.ts consumerGroups against apps/*/src').toEqual(
      groupsInCode(),
    );
  });

  it('name the apps that exist', () => {
    for (const topic of TOPIC_CATALOGUE) {
      for (const app of [...topic.producers, ...topic.consumerGroups.map((g) => g.app)]) {
        expect(fs.existsSync(path.join(appsDir, app, 'package.json')), `${topic.name}: ${app}`).toBe(true);
      }
    }
  });
});
