import { describe, expect, it } from 'vitest';
import { ConfigError, Type, createConfigLoader, parseEnv } from './index.js';

const schema = Type.Object({
  PORT: Type.Integer({ default: 3002, minimum: 1, maximum: 65535 }),
  API_SECRET: Type.String({ minLength: 8 }),
  DEBUG: Type.Boolean({ default: false }),
});

describe('parseEnv', () => {
  it('applies defaults and converts strings', () => {
    expect(parseEnv(schema, { API_SECRET: 'abcdefgh', DEBUG: 'true' })).toEqual({
      PORT: 3002,
      API_SECRET: 'abcdefgh',
      DEBUG: true,
    });
  });

  it('names every bad variable in one error', () => {
    try {
      parseEnv(schema, { PORT: 'eighty' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toContain('PORT is invalid');
      expect(message).toContain('API_SECRET is required');
    }
  });

  it('caches a frozen shape and can be reset', () => {
    let env: Record<string, string> = { API_SECRET: '12345678' };
    const loader = createConfigLoader(schema, (e) => ({ http: { port: e.PORT } }), () => env);
    const first = loader.get();
    expect(first.http.port).toBe(3002);
    expect(Object.isFrozen(first.http)).toBe(true);
    env = { API_SECRET: '12345678', PORT: '4000' };
    expect(loader.get()).toBe(first);
    loader.reset();
    expect(loader.get().http.port).toBe(4000);
  });
});
