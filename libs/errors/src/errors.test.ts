import { describe, expect, it } from 'vitest';
import {
  ConflictError,
  DeadlineExceededError,
  InputError,
  InternalError,
  deserializeError,
  isUniqueKeyViolation,
  serializeError,
  toPlatformError,
  withDeadline,
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
    const refused = Object.assign(new Error('not authorized on platform'), { name: 'MongoServerError', code: 13 });
    expect(toPlatformError(refused)).toBeInstanceOf(InternalError);
  });

  it("answers a store's unique-key violation as a conflict at once, in MongoDB's form and FerretDB's", () => {
    const mongo = Object.assign(new Error('E11000 duplicate key error collection: db.users index: email_1'), {
      name: 'MongoServerError',
      code: 11000,
    });
    const ferretUpdate = Object.assign(
      new Error(
        '[update.go:165 common.updateOne] ERROR: duplicate key value violates unique constraint "x_idx" (SQLSTATE 23505)',
      ),
      { name: 'MongoServerError', code: 1 },
    );
    for (const error of [mongo, ferretUpdate]) {
      expect(isUniqueKeyViolation(error)).toBe(true);
      const mapped = toPlatformError(error);
      expect(mapped).toMatchObject({ kind: 'conflict', code: 'duplicate_key', retriable: false });
      expect(mapped.message).not.toContain('users');
    }
    expect(isUniqueKeyViolation(Object.assign(new Error('boom'), { code: 1 }))).toBe(false);
  });

  it('answers a Redis it cannot reach as unavailable (503, try again)', () => {
    const outages = [
      Object.assign(new Error('Reached the max retries per request limit (which is 3).'), {
        name: 'MaxRetriesPerRequestError',
      }),
      new Error('Command timed out'),
      new Error('Connection is closed.'),
    ];
    for (const error of outages)
      expect(toPlatformError(error)).toMatchObject({
        kind: 'unavailable',
        code: 'cache_unavailable',
        retriable: true,
        retryAfterSeconds: 1,
      });
  });

  it('keeps domain errors as they are', () => {
    const e = new ConflictError('duplicate', 'exists');
    expect(toPlatformError(e)).toBe(e);
    expect(e.name).toBe('ConflictError');
    expect(e.retriable).toBe(false);
  });
});

describe('withDeadline', () => {
  it('settles as the work does within the deadline, and rejects as a deadline error past it', async () => {
    await expect(withDeadline(Promise.resolve(7), 50)).resolves.toBe(7);
    await expect(withDeadline(Promise.reject(new Error('no')), 50)).rejects.toThrow('no');
    const late = new Promise((resolve) => setTimeout(resolve, 200));
    const error = await withDeadline(late, 20, 'publishing').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DeadlineExceededError);
    expect((error as Error).message).toBe('publishing timed out after 20 ms');
  });
});
