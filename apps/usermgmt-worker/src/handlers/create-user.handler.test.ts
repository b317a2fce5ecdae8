import { describe, expect, it } from 'vitest';
import { MessageTypeNames, type CreateUser } from '@platform/contracts';
import { fake, fakeMessage } from '@platform/testing';
import type { UserDoc, UsermgmtStore, UsermgmtWriter } from '@platform/usermgmt';
import type { Sealer } from '@platform/secrets';
import { createUser } from './create-user.handler.js';

const command: CreateUser = {
  environment_id: 'environment_1',
  user_id: 'user_1',
  email: 'ada@example.com',
  first_name: 'Ada',
  last_name: null,
  email_verified: true,
  external_id: null,
  metadata: { plan: 'pro' },
  password_hash: 'scrypt$hash',
};

describe('createUser handler', () => {
  it('stores the user in its environment, names the document for the relay, and replies with the API object', async () => {
    const createdAt = new Date('2030-01-07T09:00:00Z');
    const users = fake<UsermgmtWriter['users']>({
      create: async (input): Promise<UserDoc> => ({
        _id: input.id,
        environment_id: input.environmentId,
        email: input.email,
        first_name: input.firstName,
        last_name: input.lastName,
        email_verified: input.emailVerified,
        external_id: input.externalId,
        external_key: `id:${input.id}`,
        metadata: input.metadata,
        password_hash: input.passwordHash,
        created_at: createdAt,
        updated_at: createdAt,
        has_outbox: true,
        outbox: [],
      }),
    });
    const reply = await createUser(
      {
        store: fake<UsermgmtStore>(),
        writer: fake<UsermgmtWriter>({ users, sources: { users: 'um_users' } as UsermgmtWriter['sources'] }),
        sealer: fake<Sealer>(),
      },
      fakeMessage(MessageTypeNames.CreateUser, command),
    );
    expect(users.calls[0]!.args[0]).toMatchObject({
      environmentId: 'environment_1',
      id: 'user_1',
      email: 'ada@example.com',
      passwordHash: 'scrypt$hash',
    });
    expect(reply).toMatchObject({
      object: 'user',
      id: 'user_1',
      email: 'ada@example.com',
      first_name: 'Ada',
      email_verified: true,
      metadata: { plan: 'pro' },
    });
    expect(JSON.stringify(reply)).not.toContain('scrypt');
  });
});
