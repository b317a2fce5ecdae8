import type { Static, TObject } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/** Validates the environment against a schema; one error lists every bad variable by name. */
export function parseEnv<S extends TObject>(schema: S, env: Env): Static<S> {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(schema.properties)) {
    const value = env[key];
    if (value !== undefined && value !== '') raw[key] = value;
  }
  const withDefaults = Value.Default(schema, raw);
  const converted = Value.Convert(schema, withDefaults);
  const problems = [...Value.Errors(schema, converted)].map((issue) => {
    const variable = issue.path.replace(/^\//, '') || '(root)';
    const shown = env[variable];
    const hint = shown === undefined || shown === '' ? 'is required' : `is invalid (${issue.message})`;
    return `${variable} ${hint}`;
  });
  if (problems.length > 0) throw new ConfigError([...new Set(problems)]);
  return converted as Static<S>;
}

export interface ConfigLoader<T> {
  /** The validated, frozen config; computed once per process. */
  get(): T;
  /** Forget the cached value (tests). */
  reset(): void;
  /** The config of an explicit environment (a test composing several services in one process). */
  read(env: Env): T;
}

export function createConfigLoader<S extends TObject, T extends object>(
  schema: S,
  shape: (env: Static<S>) => T,
  source: () => Env = () => process.env,
): ConfigLoader<T> {
  let cached: T | undefined;
  return {
    get() {
      cached ??= deepFreeze(shape(parseEnv(schema, source())));
      return cached;
    },
    reset() {
      cached = undefined;
    },
    read(env) {
      return deepFreeze(shape(parseEnv(schema, env)));
    },
  };
}

/**
 * The config of a process, or exit 78 (EX_CONFIG) with every bad variable named: a service must not start
 * half-configured.
 */
export function configOrExit<T>(loader: ConfigLoader<T>): T {
  try {
    return loader.get();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78);
    }
    throw error;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
