import { describe, expect, it } from 'vitest';
import { InputError } from '@platform/errors';
import { orderingKeyOf, validateRateLimit } from './delivery-options.js';

describe('orderingKeyOf', () => {
  it('keys user and organization events by the object itself', () => {
    expect(orderingKeyOf('user.updated', { object: 'user', id: 'user_1' })).toBe('user_1');
    expect(orderingKeyOf('organization.deleted', { object: 'organization', id: 'org_1' })).toBe('org_1');
  });

  it("keys membership, session and authentication events by their user, beside that user's own events", () => {
    const membership = { object: 'organization_membership', id: 'om_1', user_id: 'user_1', organization_id: 'org_1' };
    expect(orderingKeyOf('organization_membership.created', membership)).toBe('user_1');
    expect(orderingKeyOf('session.revoked', { id: 'session_1', user_id: 'user_1' })).toBe('user_1');
    expect(orderingKeyOf('authentication.password_succeeded', { type: 'password', user_id: 'user_1' })).toBe('user_1');
  });

  it('keys directory sync events by their directory', () => {
    expect(orderingKeyOf('dsync.user.updated', { id: 'directory_user_1', directory_id: 'directory_1' })).toBe(
      'directory_1',
    );
    const added = { directory_id: 'directory_1', user: { id: 'directory_user_1' }, group: { id: 'directory_group_1' } };
    expect(orderingKeyOf('dsync.group.user_added', added)).toBe('directory_1');
    expect(orderingKeyOf('dsync.activated', { object: 'directory', id: 'directory_1' })).toBe('directory_1');
  });

  it('gives no key when the event names no aggregate', () => {
    expect(orderingKeyOf('authentication.password_failed', { type: 'password', user_id: null })).toBeNull();
    expect(orderingKeyOf('user.created', {})).toBeNull();
    expect(orderingKeyOf('unknown.thing', { id: 'x_1' })).toBeNull();
  });
});

describe('validateRateLimit', () => {
  it('accepts null and whole numbers from 1 to 10000', () => {
    expect(validateRateLimit(null)).toBeNull();
    expect(validateRateLimit(1)).toBe(1);
    expect(validateRateLimit(10_000)).toBe(10_000);
  });

  it('refuses anything else as invalid input naming rate_limit', () => {
    for (const bad of [0, -1, 10_001, 2.5]) {
      let thrown: unknown;
      try {
        validateRateLimit(bad);
      } catch (error) {
        thrown = error;
      }
      expect(thrown, String(bad)).toBeInstanceOf(InputError);
      expect((thrown as InputError).issues[0]?.field).toBe('rate_limit');
    }
  });
});
