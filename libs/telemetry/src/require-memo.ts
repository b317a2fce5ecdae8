import Module, { isBuiltin } from 'node:module';

interface ModuleInternals {
  _cache: Record<string, Module | undefined>;
  _resolveFilename(request: string, parent: Module): string;
}

type RequireMethod = (this: Module, id: string) => unknown;

interface Loaded {
  filename: string;
  module: Module;
  exports: unknown;
}

/**
 * Answers a CommonJS module's repeated `require(id)` from what its first one returned.
 *
 * The instrumentation's require hook (require-in-the-middle) resolves the file of every `require` call, cached
 * or not, to see whether it should patch it. Libraries that require inside functions then pay a path
 * resolution per call: kafkajs requires its request and response encoders for every request it sends, which
 * was 3.7 % of a gateway's CPU (issue 41). Installed over the hook, this keeps what each (module, id) pair
 * returned once the module has loaded, and serves it while Node's module cache still holds that module, so
 * a module deleted from the cache is loaded again as before. The first call goes through the hook unchanged,
 * so what the hook patches is patched. Returns the function that removes it.
 */
export function memoizeRepeatedRequires(): () => void {
  const internals = Module as unknown as ModuleInternals;
  const proto = Module.prototype as unknown as { require: RequireMethod };
  const hooked = proto.require;
  const known = new WeakMap<Module, Map<string, Loaded>>();

  function remembered(parent: Module, id: string, exports: unknown): void {
    let filename: string;
    try {
      filename = internals._resolveFilename(id, parent);
    } catch {
      return; // resolved by someone else's hook, not by Node: not ours to remember
    }
    const module = internals._cache[filename];
    if (!module?.loaded) return; // still loading (a require cycle): its exports may yet be replaced
    let ids = known.get(parent);
    if (!ids) known.set(parent, (ids = new Map()));
    ids.set(id, { filename, module, exports });
  }

  const memoized: RequireMethod = function (id) {
    const hit = known.get(this)?.get(id);
    if (hit && internals._cache[hit.filename] === hit.module) return hit.exports;
    const exports = hooked.call(this, id);
    if (typeof id === 'string' && !isBuiltin(id) && this instanceof Module) remembered(this, id, exports);
    return exports;
  };
  proto.require = memoized;
  return () => {
    if (proto.require === memoized) proto.require = hooked;
  };
}
