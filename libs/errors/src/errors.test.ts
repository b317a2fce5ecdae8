import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  InputError,
  InternalError,
  deserializeError,
  serializeError,
  toPlatformError,
} from './index.js';

describe('errors', () => {
  it('round-trips through serialization with kind, code and issues', () => {
    const original = new InputError('invalid_request', 'Bad field', {
      issues: [{ field: 'origin', code: 'invalid_url', message: 'origin must be a URL' }],
    });
    const copy = deserializeError(serializeError(original));
    expect(copy).toBeInstanceOf(InputError);
    expect(copy.code).toBe('invalid_request');
    expect(copy.issues).toEqual(original.issues);
  });

  it('hides unknown errors behind an internal error', () => {
    const wrapped = toPlatformError(new Error('db password is hunter2'));
    expect(wrapped).toBeInstanceOf(InternalError);
    expect(wrapped.message).not.toContain('hunter2');
    expect(wrapped.cause).toBeInstanceOf(Error);
  });

  it('tells a store that dropped the connection (503, try again) from a fault (500)', () => {
    const dropped = Object.assign(new Error('connection 9 to 127.0.0.1:27017 closed'), { name: 'MongoNetworkError' });
    const wrapped = toPlatformError(dropped);
    expect(wrapped).toMatchObject({ kind: 'unavailable', retriable: true, retryAfterSeconds: 1 });
    expect(wrapped.message).not.toContain('27017');
    const refused = Object.assign(new Error('E11000 duplicate key'), { name: 'MongoServerError' });
    expect(toPlatformError(refused)).toBeInstanceOf(InternalError);
  });

  it('keeps domain errors as they are', () => {
    const e = new ConflictError('duplicate', 'exists');
    expect(toPlatformError(e)).toBe(e);
    expect(e.name).toBe('ConflictError');
    expect(e.retriable).toBe(false);
  });
});
