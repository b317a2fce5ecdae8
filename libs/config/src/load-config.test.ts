import { describe, expect, it } from 'vitest';
import { ConfigError, Type, createConfigLoader, kafkaSettings, parseEnv } from './index.js';

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
    const loader = createConfigLoader(
      schema,
      (e) => ({ http: { port: e.PORT } }),
      () => env,
    );
    const first = loader.get();
    expect(first.http.port).toBe(3002);
    expect(Object.isFrozen(first.http)).toBe(true);
    env = { API_SECRET: '12345678', PORT: '4000' };
    expect(loader.get()).toBe(first);
    loader.reset();
    expect(loader.get().http.port).toBe(4000);
  });
});

describe('kafkaSettings', () => {
  it('reads a broker list written with spaces after its commas, and the registry only when one is set', () => {
    expect(kafkaSettings({ KAFKA_BROKERS: 'kafka-0:9092, kafka-1:9092', KAFKA_TOPIC_PREFIX: 'p.' })).toEqual({
      brokers: ['kafka-0:9092', 'kafka-1:9092'],
      topicPrefix: 'p.',
      schemaRegistry: undefined,
    });
    expect(
      kafkaSettings({ KAFKA_BROKERS: 'k:9092', KAFKA_TOPIC_PREFIX: '', SCHEMA_REGISTRY_URL: 'http://registry:8081' })
        .schemaRegistry,
    ).toEqual({ url: 'http://registry:8081', timeoutMs: 5000 });
  });
});
