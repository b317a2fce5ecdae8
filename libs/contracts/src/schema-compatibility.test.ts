import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import avro from 'avsc';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain ESM helper shared with the generator scripts
import { historyDir, listCurrentSchemaFiles, readSchema, repoRoot } from '../scripts/schema-files.mjs';
import { TOPIC_CATALOGUE } from './topics.js';

type SchemaFile = { file: string };
const current = (listCurrentSchemaFiles() as SchemaFile[]).map(({ file }) => ({
  file: path.relative(repoRoot, file),
  type: avro.Type.forSchema(readSchema(file)),
}));
const released = fs.readdirSync(historyDir).map((name) => ({
  name,
  type: avro.Type.forSchema(readSchema(path.join(historyDir, name))),
}));
// The id a producer puts in the `ce_schema` header (libs/contracts codec.ts `schemaIdOf`).
const schemaId = (type: avro.Type) => type.fingerprint('sha256').toString('hex').slice(0, 16);

function fullyCompatible(next: avro.Type, previous: avro.Type): string | undefined {
  try {
    next.createResolver(previous); // new readers read old data (backward)
    previous.createResolver(next); // old readers read new data (forward)
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe('schema compatibility', () => {
  it.each(current)('$file reads and is read by every released version', ({ type }) => {
    const versions = released.filter((r) => r.type.name === type.name);
    expect(versions.length, `${type.name} is not released: run npm run schemas:release`).toBeGreaterThan(0);
    for (const version of versions) expect(fullyCompatible(type, version.type), version.name).toBeUndefined();
  });

  it.each(current)('$file is released as it is, so every id a producer writes names a published file', ({ type }) => {
    expect(
      released.map((r) => r.name),
      'run npm run schemas:release',
    ).toContain(`${type.name}@${schemaId(type)}.avsc`);
  });

  it('covers every record of every topic of the catalogue', () => {
    const tested = new Set(current.map((c) => c.type.name));
    for (const topic of TOPIC_CATALOGUE) {
      for (const record of topic.records) expect(tested.has(record), `${topic.name}: ${record}`).toBe(true);
    }
  });

  it('never changes a released file: each is named by the id of its content', () => {
    for (const version of released) expect(version.name).toBe(`${version.type.name}@${schemaId(version.type)}.avsc`);
  });

  it('matches the version on main, where git knows main', () => {
    let files: string[];
    try {
      files = execFileSync('git', ['ls-tree', '-r', '--name-only', 'main', 'schemas'], {
        cwd: repoRoot,
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      })
        .split('\n')
        .filter((f) => f.endsWith('.avsc') && !f.startsWith('schemas/history/'));
    } catch {
      return; // not a git checkout, or no main branch: the released history above is the contract
    }
    for (const file of files) {
      const onMain = execFileSync('git', ['show', `main:${file}`], { cwd: repoRoot, encoding: 'utf8' });
      const mainType = avro.Type.forSchema(JSON.parse(onMain));
      const now = current.find((c) => c.type.name === mainType.name);
      expect(now, `${mainType.name} was removed: publish a new major version beside it`).toBeDefined();
      expect(fullyCompatible(now!.type, mainType), file).toBeUndefined();
    }
  });

  it('rejects a breaking change (the check itself can fail)', () => {
    const v1 = avro.Type.forSchema({ type: 'record', name: 'x.R', fields: [{ name: 'a', type: 'string' }] });
    const retyped = avro.Type.forSchema({ type: 'record', name: 'x.R', fields: [{ name: 'a', type: 'int' }] });
    const added = avro.Type.forSchema({
      type: 'record',
      name: 'x.R',
      fields: [
        { name: 'a', type: 'string' },
        { name: 'b', type: 'string' },
      ],
    });
    const addedWithDefault = avro.Type.forSchema({
      type: 'record',
      name: 'x.R',
      fields: [
        { name: 'a', type: 'string' },
        { name: 'b', type: 'string', default: '' },
      ],
    });
    expect(fullyCompatible(retyped, v1)).toBeDefined();
    expect(fullyCompatible(added, v1)).toBeDefined();
    expect(fullyCompatible(addedWithDefault, v1)).toBeUndefined();
  });

  it('keeps the generated types in step with schemas/', () => {
    execFileSync('node', ['libs/contracts/scripts/generate-types.mjs', '--check'], { cwd: repoRoot });
  });
});
