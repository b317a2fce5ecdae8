import { describe, expect, it } from 'vitest';
import { InputError } from '@platform/errors';
import { MessageTypeNames, decodeMessage, encodeMessage, validateMessage } from './index.js';

const user = {
  environment_id: 'environment_1',
  user_id: 'user_1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: null,
  email_verified: true,
  external_id: null,
  metadata: { plan: 'pro' },
  created_at: 1_700_000_000_000,
};

describe('codec', () => {
  it('round-trips a message with its schema id', () => {
    const encoded = encodeMessage(MessageTypeNames.UserCreated, user);
    expect(encoded.schemaId).toMatch(/^[0-9a-f]{16}$/);
    expect(decodeMessage(MessageTypeNames.UserCreated, encoded.schemaId, encoded.value)).toEqual(user);
  });

  it('names the bad field when a value does not fit', () => {
    const bad = { ...user, email: 42 } as unknown as typeof user;
    expect(validateMessage(MessageTypeNames.UserCreated, bad)[0]).toContain('email');
    expect(() => encodeMessage(MessageTypeNames.UserCreated, bad)).toThrow(InputError);
  });

  it('refuses unknown schema ids and garbage bytes', () => {
    const encoded = encodeMessage(MessageTypeNames.UserCreated, user);
    expect(() => decodeMessage(MessageTypeNames.UserCreated, 'ffffffffffffffff', encoded.value)).toThrow(/No schema/);
    expect(() => decodeMessage(MessageTypeNames.UserCreated, encoded.schemaId, Buffer.from([0xff, 0xff]))).toThrow(
      InputError,
    );
  });
});
