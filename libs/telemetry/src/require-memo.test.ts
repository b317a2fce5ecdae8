import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { memoizeRepeatedRequires } from './require-memo.js';

type RequireMethod = (this: Module, id: string) => unknown;
const proto = Module.prototype as unknown as { require: RequireMethod };

const dir = mkdtempSync(join(tmpdir(), 'require-memo-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
writeFileSync(join(dir, 'encoder.js'), 'module.exports = { made: Math.random() };\n');
// What kafkajs does: a require inside a function, run on every call.
writeFileSync(
  join(dir, 'caller.js'),
  "exports.encoder = () => require('./encoder');\nexports.path = () => require('node:path');\n",
);
// A cycle: a.js is still loading when b.js requires it, and replaces its exports afterwards.
writeFileSync(join(dir, 'a.js'), "const b = require('./b');\nmodule.exports = { b, final: true };\n");
writeFileSync(join(dir, 'b.js'), "exports.atLoad = require('./a');\nexports.later = () => require('./a');\n");

/** A stand-in for the instrumentation's hook: counts the calls that reach it. */
let reached: string[] = [];
let original: RequireMethod;
let unmemoize: () => void;
beforeEach(() => {
  original = proto.require;
  proto.require = function (id) {
    reached.push(id);
    return original.call(this, id);
  };
  unmemoize = memoizeRepeatedRequires();
  reached = [];
});
afterEach(() => {
  unmemoize();
  proto.require = original;
  const require = createRequire(join(dir, 'x.js'));
  for (const file of ['caller.js', 'encoder.js', 'a.js', 'b.js']) delete require.cache[join(dir, file)];
});

describe('memoizeRepeatedRequires', () => {
  it('serves a repeated require without reaching the hook, with the same exports', () => {
    const caller = createRequire(join(dir, 'x.js'))('./caller.js') as { encoder(): unknown };
    const first = caller.encoder();
    reached = [];
    for (let i = 0; i < 5; i++) expect(caller.encoder()).toBe(first);
    expect(reached).toEqual([]);
  });

  it('loads a module again once it is deleted from the cache, as Node does', () => {
    const require = createRequire(join(dir, 'x.js'));
    const caller = require('./caller.js') as { encoder(): { made: number } };
    const first = caller.encoder();
    delete require.cache[join(dir, 'encoder.js')];
    reached = [];
    const second = caller.encoder();
    expect(second).not.toBe(first);
    expect(reached).toEqual(['./encoder']);
  });

  it('leaves built-in modules and modules still loading to the hook', () => {
    const require = createRequire(join(dir, 'x.js'));
    const caller = require('./caller.js') as { path(): unknown };
    const a = require('./a.js') as { b: { atLoad: unknown; later(): unknown } };
    reached = [];
    caller.path();
    caller.path();
    expect(reached).toEqual(['node:path', 'node:path']);
    // b.js required './a' while a.js was loading, and got the exports a.js then replaced: not remembered,
    // so a later require sees the final ones.
    expect(a.b.atLoad).not.toBe(a);
    expect(a.b.later()).toBe(a);
  });

  it('is removed by the function it returns', () => {
    const caller = createRequire(join(dir, 'x.js'))('./caller.js') as { encoder(): unknown };
    caller.encoder();
    unmemoize();
    reached = [];
    caller.encoder();
    expect(reached).toEqual(['./encoder']);
  });
});
