import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictException, NotFoundException, UnprocessableEntityException, WorkOS } from '@workos-inc/node';
import { waitFor } from '@platform/testing';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

let stack: UsermgmtStack;
let workos: WorkOS;

/** The official SDK, unmodified: only where it sends its requests differs. */
function sdkFor(key: string) {
  const url = new URL(stack.url);
  return new WorkOS(key, { apiHostname: url.hostname, port: Number(url.port), https: false });
}

beforeAll(async () => {
  stack = await startUsermgmtStack();
  workos = sdkFor((await stack.newKey()).key);
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('the WorkOS Node SDK', () => {
  it('lists users page by page (limit, before, after, order), by e-mail, and gets one by its external id', async () => {
    const made = [];
    for (let i = 0; i < 5; i++)
      made.push(
        await workos.userManagement.createUser({
          email: `sdk-${i}@example.com`,
          firstName: `User ${i}`,
          externalId: `crm-${i}`,
          metadata: { plan: i % 2 === 0 ? 'pro' : 'free' },
        }),
      );
    const newestFirst = [...made].reverse().map((u) => u.id);

    const first = await workos.userManagement.listUsers({ limit: 2 });
    expect(first.data.map((u) => u.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.listMetadata.after).toBe(newestFirst[1]);
    const second = await workos.userManagement.listUsers({ limit: 2, after: first.listMetadata.after! });
    expect(second.data.map((u) => u.id)).toEqual(newestFirst.slice(2, 4));
    const back = await workos.userManagement.listUsers({ limit: 2, before: second.data[0]!.id });
    expect(back.data.map((u) => u.id)).toEqual(newestFirst.slice(0, 2));
    const all = await (await workos.userManagement.listUsers({ order: 'asc' })).autoPagination();
    expect(all.map((u) => u.id)).toEqual(made.map((u) => u.id));

    const byEmail = await workos.userManagement.listUsers({ email: 'SDK-3@example.com' });
    expect(byEmail.data.map((u) => u.id)).toEqual([made[3]!.id]);
    expect((await workos.userManagement.listUsers({ organizationId: 'org_01NOPE' })).data).toEqual([]);

    const found = await workos.userManagement.getUserByExternalId('crm-2');
    expect(found).toMatchObject({ id: made[2]!.id, externalId: 'crm-2', metadata: { plan: 'pro' } });
    await expect(workos.userManagement.getUserByExternalId('crm-none')).rejects.toBeInstanceOf(NotFoundException);
  });

  it("refuses WorkOS's limits: an external id over 64 characters, long metadata names, non-ASCII values", async () => {
    for (const bad of [
      { externalId: 'x'.repeat(65) },
      { metadata: { ['k'.repeat(41)]: 'v' } },
      { metadata: { plan: 'prö' } },
    ]) {
      await expect(
        workos.userManagement.createUser({ email: `bad-${Date.now()}@example.com`, ...bad }),
        JSON.stringify(bad),
      ).rejects.toBeInstanceOf(UnprocessableEntityException);
    }
  });

  it('updates and deletes users, and a reader catches up on their events through events.listEvents', async () => {
    const sdk = sdkFor((await stack.newKey()).key);
    const user = await sdk.userManagement.createUser({
      email: 'events@example.com',
      externalId: 'crm-ev',
      metadata: { a: '1', b: '2' },
    });
    const updated = await sdk.userManagement.updateUser({
      userId: user.id,
      firstName: 'Eve',
      metadata: { a: '9', b: null } as never,
    });
    expect(updated).toMatchObject({ id: user.id, firstName: 'Eve', externalId: 'crm-ev', metadata: { a: '9' } });
    const other = await sdk.userManagement.createUser({ email: 'other@example.com' });
    await expect(sdk.userManagement.updateUser({ userId: other.id, externalId: 'crm-ev' })).rejects.toBeInstanceOf(
      ConflictException,
    );
    await sdk.userManagement.deleteUser(user.id);
    await expect(sdk.userManagement.getUser(user.id)).rejects.toBeInstanceOf(NotFoundException);
    await expect(sdk.userManagement.deleteUser(user.id)).rejects.toBeInstanceOf(NotFoundException);

    const seen = await waitFor(
      async () => {
        const page = await sdk.events.listEvents({ events: ['user.created', 'user.updated', 'user.deleted'] });
        return page.data.length === 4 ? page : undefined;
      },
      { what: 'four events through the SDK', timeoutMs: 20_000 },
    );
    expect(seen.data.map((e) => e.event)).toEqual(['user.created', 'user.updated', 'user.created', 'user.deleted']);
    expect(seen.data[1]).toMatchObject({ event: 'user.updated', data: { id: user.id, firstName: 'Eve' } });
    expect(seen.data[3]).toMatchObject({ event: 'user.deleted', data: { id: user.id, email: 'events@example.com' } });

    // Page by page from a stored cursor, as WorkOS's data-syncing guide does.
    const first = await sdk.events.listEvents({ events: ['user.created', 'user.updated', 'user.deleted'], limit: 3 });
    const rest = await sdk.events.listEvents({
      events: ['user.created', 'user.updated', 'user.deleted'],
      after: first.listMetadata.after!,
    });
    expect([...first.data, ...rest.data].map((e) => e.id)).toEqual(seen.data.map((e) => e.id));
    const deletions = await sdk.events.listEvents({ events: ['user.deleted'] });
    expect(deletions.data.map((e) => e.id)).toEqual([seen.data[3]!.id]);
    await expect(sdk.events.listEvents({ events: ['user.created'], limit: 101 })).rejects.toBeInstanceOf(
      UnprocessableEntityException,
    );
  });

  it("manages webhook endpoints through its webhooks methods, each endpoint with the secret WorkOS's type requires", async () => {
    const sdk = sdkFor((await stack.newKey()).key);
    const created = await sdk.webhooks.createWebhookEndpoint({
      endpointUrl: 'https://hooks.example.com/sdk',
      events: ['user.created', 'user.deleted'],
    });
    expect(created).toMatchObject({ endpointUrl: 'https://hooks.example.com/sdk', status: 'enabled' });
    expect(created.secret).toMatch(/^whsec_/);
    const listed = await sdk.webhooks.listWebhookEndpoints();
    expect(listed.data).toEqual([created]);
    const updated = await sdk.webhooks.updateWebhookEndpoint({ id: created.id, status: 'disabled' });
    expect(updated).toMatchObject({ id: created.id, status: 'disabled', secret: created.secret });
    await sdk.webhooks.deleteWebhookEndpoint({ id: created.id });
    expect((await sdk.webhooks.listWebhookEndpoints()).data).toEqual([]);
  });
});
