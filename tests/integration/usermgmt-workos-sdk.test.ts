import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotFoundException, UnprocessableEntityException, WorkOS } from '@workos-inc/node';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

let stack: UsermgmtStack;
let workos: WorkOS;

beforeAll(async () => {
  stack = await startUsermgmtStack();
  const { key } = await stack.newKey();
  const url = new URL(stack.url);
  // The official SDK, unmodified: only where it sends its requests differs.
  workos = new WorkOS(key, { apiHostname: url.hostname, port: Number(url.port), https: false });
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
});
