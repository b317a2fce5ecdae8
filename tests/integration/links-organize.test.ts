import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinksStack, DEFAULT_DOMAIN, type LinksStack, type LinksUser } from '../support/links-stack.js';

// Groups, bulk edits, campaigns, channels, the user, usage counters and platform limits, through the gateway,
// Kafka and the worker. The stack allows /v4/expand 30 calls an hour (3 a minute) to reach its limit quickly.
let stack: LinksStack;
let organizationId: string;
let groupGuid: string;
let admin: LinksUser;

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

async function call(who: LinksUser, method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${who.token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    body: (text ? JSON.parse(text) : null) as Record<string, unknown>,
  };
}

async function shorten(who: LinksUser, longUrl: string, extra: Record<string, unknown> = {}) {
  const r = await call(who, 'POST', '/v4/shortlinks', { long_url: longUrl, ...extra });
  expect(r.status).toBe(201);
  return r.body['id'] as string;
}

beforeAll(async () => {
  stack = await startLinksStack({ LINKS_PLATFORM_LIMITS: JSON.stringify({ '/expand': { POST: 30 } }) });
  ({ organizationId, groupGuid, admin } = await stack.newOrganization());
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('groups', () => {
  it('renames a group, sets its branded domains and preferred domain (admins only), and lists its tags', async () => {
    await stack.addDomain(organizationId, 'go.acme.test', []);
    const renamed = await call(admin, 'PATCH', `/v4/groups/${groupGuid}`, {
      name: 'Marketing',
      bsds: ['go.acme.test'],
      organization_guid: organizationId,
      unknown: 1,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({
      guid: groupGuid,
      name: 'Marketing',
      bsds: ['go.acme.test'],
      organization_guid: organizationId,
      role: 'GROUP_ADMIN',
      is_active: true,
    });
    expect(renamed.body['modified']).toMatch(TIME);

    expect((await call(admin, 'GET', `/v4/groups/${groupGuid}/preferences`)).body).toEqual({
      group_guid: groupGuid,
      domain_preference: DEFAULT_DOMAIN,
    });
    const pref = await call(admin, 'PATCH', `/v4/groups/${groupGuid}/preferences`, {
      group_guid: groupGuid,
      domain_preference: 'go.acme.test',
    });
    expect(pref).toMatchObject({ status: 200, body: { group_guid: groupGuid, domain_preference: 'go.acme.test' } });
    // A shorten without a domain now uses the preferred one.
    const link = await call(admin, 'POST', '/v4/shorten', { long_url: 'https://example.com/preferred' });
    expect(link.body['id']).toMatch(/^go\.acme\.test\//);

    const foreign = await call(admin, 'PATCH', `/v4/groups/${groupGuid}/preferences`, {
      domain_preference: 'not.ours.test',
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body).toMatchObject({ message: 'INVALID_ARG_DOMAIN_PREFERENCE', resource: 'groups' });
    const badBsd = await call(admin, 'PATCH', `/v4/groups/${groupGuid}`, { bsds: ['not.ours.test'] });
    expect(badBsd).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_BSDS' } });
    expect((await call(admin, 'GET', `/v4/groups/${groupGuid}`)).body['bsds']).toEqual(['go.acme.test']);
    const move = await call(admin, 'PATCH', `/v4/groups/${groupGuid}`, { organization_guid: 'Oelsewhere' });
    expect(move).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_ORGANIZATION_GUID' } });

    const editor = await stack.addUser(organizationId, groupGuid, 'GROUP_EDITOR');
    expect((await call(editor, 'PATCH', `/v4/groups/${groupGuid}`, { name: 'Mine' })).status).toBe(403);
    expect((await call(admin, 'GET', `/v4/groups/${groupGuid}`)).body['name']).toBe('Marketing');
    await call(admin, 'PATCH', `/v4/groups/${groupGuid}/preferences`, { domain_preference: DEFAULT_DOMAIN });

    await shorten(admin, 'https://example.com/tagged-1', { tags: ['spring', 'email'] });
    await shorten(admin, 'https://example.com/tagged-2', { tags: ['autumn'] });
    expect((await call(admin, 'GET', `/v4/groups/${groupGuid}/tags`)).body).toEqual({
      tags: ['autumn', 'email', 'spring'],
    });
    expect((await call(admin, 'GET', `/v4/groups/${groupGuid}/tags?type=qr_code`)).body).toEqual({ tags: [] });
    expect((await call(admin, 'GET', `/v4/groups/${groupGuid}/tags?type=other`)).status).toBe(400);
  });
});

describe('bulk edits', () => {
  it('keeps a group at 1 000 distinct tags: a link, an edit or a bulk retag adding more is TOO_MANY_TAGS_PER_GROUP', async () => {
    const { groupGuid: group, admin: owner } = await stack.newOrganization();
    const tagsOf = (from: number) => Array.from({ length: 100 }, (_, i) => `t${from + i}`);
    for (let i = 0; i < 10; i++) await shorten(owner, `https://example.com/tags-${i}`, { tags: tagsOf(i * 100) });
    const refused = {
      status: 400,
      body: { message: 'TOO_MANY_TAGS_PER_GROUP', errors: [{ field: 'tags', error_code: 'invalid' }] },
    };
    expect(
      await call(owner, 'POST', '/v4/shortlinks', { long_url: 'https://example.com/t', tags: ['new'] }),
    ).toMatchObject(refused);
    // Tags the group already has still go anywhere.
    const id = await shorten(owner, 'https://example.com/tags-again', { tags: ['t1', 't999'] });
    expect(await call(owner, 'PATCH', `/v4/shortlinks/${id}`, { tags: ['t1', 'new'] })).toMatchObject(refused);
    expect(
      await call(owner, 'PATCH', `/v4/groups/${group}/shortlinks`, {
        action: 'edit_tags',
        add_tags: ['new'],
        links: [id],
      }),
    ).toMatchObject(refused);
    expect((await call(owner, 'GET', `/v4/groups/${group}/tags`)).body['tags']).toHaveLength(1000);
    expect((await call(owner, 'GET', `/v4/shortlinks/${id}`)).body['tags']).toEqual(['t1', 't999']);
  });

  it('archives and retags up to 100 links, answering the ids updated; archived links leave the list and stop redirecting', async () => {
    const ids = [
      await shorten(admin, 'https://example.com/bulk-1'),
      await shorten(admin, 'https://example.com/bulk-2'),
    ];
    const archived = await call(admin, 'PATCH', `/v4/groups/${groupGuid}/shortlinks`, {
      action: 'archive',
      archive: true,
      links: [...ids, `${DEFAULT_DOMAIN}/nosuch1`],
    });
    expect(archived).toMatchObject({ status: 200, body: { links: ids } });
    const listed = (await call(admin, 'GET', `/v4/groups/${groupGuid}/shortlinks?size=100`)).body['links'] as Array<{
      id: string;
    }>;
    expect(listed.map((l) => l.id)).not.toContain(ids[0]);
    const withArchived = (await call(admin, 'GET', `/v4/groups/${groupGuid}/shortlinks?size=100&archived=on`)).body[
      'links'
    ] as Array<{ id: string; archived: boolean }>;
    expect(withArchived.map((l) => l.id).sort()).toEqual([...ids].sort());
    await expect
      .poll(
        async () =>
          (
            await fetch(`${stack.redirectors[1]}/${ids[0]!.split('/')[1]}`, {
              redirect: 'manual',
              headers: { host: DEFAULT_DOMAIN },
            })
          ).status,
        { timeout: 5_000 },
      )
      .toBe(404);

    const retag = await call(admin, 'PATCH', `/v4/groups/${groupGuid}/shortlinks`, {
      action: 'edit_tags',
      add_tags: ['q4'],
      remove_tags: ['none'],
      links: [ids[1]],
    });
    expect(retag).toMatchObject({ status: 200, body: { links: [ids[1]] } });
    expect((await call(admin, 'GET', `/v4/shortlinks/${ids[1]}`)).body['tags']).toEqual(['q4']);

    const tooMany = await call(admin, 'PATCH', `/v4/groups/${groupGuid}/shortlinks`, {
      action: 'archive',
      links: Array.from({ length: 101 }, (_, i) => `${DEFAULT_DOMAIN}/x${i}`),
    });
    expect(tooMany).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_LINKS', resource: 'groups' } });
    expect(
      (await call(admin, 'PATCH', `/v4/groups/${groupGuid}/shortlinks`, { action: 'delete', links: ids })).body[
        'message'
      ],
    ).toBe('INVALID_ARG_ACTION');

    // A GROUP_USER edits only their own links.
    const user = await stack.addUser(organizationId, groupGuid, 'GROUP_USER');
    const own = await shorten(user, 'https://example.com/users-own');
    const mixed = await call(user, 'PATCH', `/v4/groups/${groupGuid}/shortlinks`, {
      action: 'edit_tags',
      add_tags: ['mine'],
      links: [own, ids[1]],
    });
    expect(mixed.body).toEqual({ links: [own] });
    expect((await call(admin, 'GET', `/v4/shortlinks/${ids[1]}`)).body['tags']).toEqual(['q4']);
  });
});

describe('campaigns and channels', () => {
  it('creates and edits campaigns and channels; a channel lists its links and a campaign tags them', async () => {
    const created = await call(admin, 'POST', '/v4/campaigns', {
      group_guid: groupGuid,
      name: 'Spring sale',
      description: 'April',
    });
    expect(created.status).toBe(200);
    const campaign = created.body['guid'] as string;
    expect(created.body).toEqual({
      references: { group: `${stack.url}/v4/groups/${groupGuid}` },
      guid: campaign,
      group_guid: groupGuid,
      created_by: admin.user.username,
      name: 'Spring sale',
      description: 'April',
      created: expect.stringMatching(TIME),
      modified: expect.stringMatching(TIME),
    });
    const edited = await call(admin, 'PATCH', `/v4/campaigns/${campaign}`, { description: 'April and May' });
    expect(edited.body).toMatchObject({ name: 'Spring sale', description: 'April and May' });
    expect((await call(admin, 'GET', `/v4/campaigns/${campaign}`)).body['description']).toBe('April and May');
    // An edit is judged as a create is: no blank name, and the group (if named) must be the campaign's own.
    const elsewhere = (await stack.newOrganization()).groupGuid;
    expect(await call(admin, 'PATCH', `/v4/campaigns/${campaign}`, { name: ' ' })).toMatchObject({
      status: 400,
      body: { message: 'INVALID_ARG_NAME' },
    });
    expect(await call(admin, 'PATCH', `/v4/campaigns/${campaign}`, { group_guid: elsewhere })).toMatchObject({
      status: 400,
      body: { message: 'INVALID_ARG_GROUP_GUID', errors: [{ field: 'group_guid', error_code: 'invalid' }] },
    });
    expect(
      await call(admin, 'PATCH', `/v4/campaigns/${campaign}`, { group_guid: groupGuid, name: 'Spring sale' }),
    ).toMatchObject({ status: 200, body: { name: 'Spring sale', group_guid: groupGuid } });
    expect(
      (
        (await call(admin, 'GET', `/v4/campaigns?group_guid=${groupGuid}`)).body['campaigns'] as Array<{ guid: string }>
      ).map((c) => c.guid),
    ).toEqual([campaign]);
    expect((await call(admin, 'POST', '/v4/campaigns', { group_guid: groupGuid })).body['message']).toBe(
      'INVALID_ARG_NAME',
    );

    const inChannel = await shorten(admin, 'https://example.com/channel-link');
    const other = await shorten(admin, 'https://example.com/not-in-channel');
    const channel = await call(admin, 'POST', '/v4/channels', {
      group_guid: groupGuid,
      name: 'Newsletter',
      guid: 'ignored',
      shortlinks: [{ campaign_guid: campaign, shortlink_id: inChannel }],
    });
    expect(channel.status).toBe(200);
    const channelGuid = channel.body['guid'] as string;
    expect(channel.body).toMatchObject({
      name: 'Newsletter',
      group_guid: groupGuid,
      shortlinks: [{ campaign_guid: campaign, shortlink_id: inChannel }],
    });
    expect(channelGuid).not.toBe('ignored');

    const byChannel = (
      await call(admin, 'GET', `/v4/groups/${groupGuid}/shortlinks?channel_guid=${channelGuid}&archived=on`)
    ).body['links'] as Array<{ id: string; campaign_ids: string[] }>;
    expect(byChannel.map((l) => l.id)).toEqual([inChannel]);
    expect(byChannel[0]!.campaign_ids).toEqual([campaign]);
    const byCampaign = (await call(admin, 'GET', `/v4/groups/${groupGuid}/shortlinks?campaign_guid=${campaign}`)).body[
      'links'
    ] as Array<{ id: string }>;
    expect(byCampaign.map((l) => l.id)).toEqual([inChannel]);
    expect(
      (
        (await call(admin, 'GET', `/v4/channels?campaign_guid=${campaign}`)).body['channels'] as Array<{ guid: string }>
      ).map((c) => c.guid),
    ).toEqual([channelGuid]);

    const renamed = await call(admin, 'PATCH', `/v4/channels/${channelGuid}`, {
      name: 'Weekly newsletter',
      shortlinks: [{ shortlink_id: other }],
    });
    expect(renamed.body).toMatchObject({
      name: 'Weekly newsletter',
      shortlinks: [{ campaign_guid: '', shortlink_id: other }],
    });
    expect((await call(admin, 'GET', `/v4/channels/${channelGuid}`)).body['name']).toBe('Weekly newsletter');
    const bad = await call(admin, 'PATCH', `/v4/channels/${channelGuid}`, {
      shortlinks: [{ shortlink_id: `${DEFAULT_DOMAIN}/nosuch9` }],
    });
    expect(bad).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_SHORTLINKS' } });
    expect((await call(admin, 'GET', '/v4/channels/Chnosuch')).status).toBe(404);

    const viewer = await stack.addUser(organizationId, groupGuid, 'GROUP_USER');
    expect((await call(viewer, 'POST', '/v4/campaigns', { group_guid: groupGuid, name: 'x' })).status).toBe(403);
    expect((await call(viewer, 'GET', `/v4/campaigns/${campaign}`)).status).toBe(200);
  });
});

describe('user, usage and limits', () => {
  it('edits the user: name and a default group they are in', async () => {
    const patched = await call(admin, 'PATCH', '/v4/user', { name: 'Ada Admin' });
    expect(patched).toMatchObject({ status: 200, body: { name: 'Ada Admin', default_group_guid: groupGuid } });
    const outsider = await stack.newOrganization();
    const bad = await call(admin, 'PATCH', '/v4/user', { default_group_guid: outsider.groupGuid });
    expect(bad).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_DEFAULT_GROUP_GUID' } });
    expect((await call(admin, 'GET', '/v4/user')).body).toMatchObject({
      name: 'Ada Admin',
      default_group_guid: groupGuid,
    });
  });

  it('counts encodes and custom links this month and per unit', async () => {
    const other = await stack.newOrganization();
    await stack.addDomain(other.organizationId, 'brand.test', [other.groupGuid]);
    await shorten(other.admin, 'https://example.com/u1');
    await shorten(other.admin, 'https://example.com/u2');
    await shorten(other.admin, 'https://example.com/u3', { domain: 'brand.test', keyword: 'launch' });
    const usage = await call(other.admin, 'GET', `/v4/groups/${other.groupGuid}/feature_usage`);
    expect(usage.body).toEqual({
      group_guid: other.groupGuid,
      limit_usage: [
        { name: 'encodes', description: expect.any(String), count: 3 },
        { name: 'custom_shortlinks', description: expect.any(String), count: 1 },
      ],
    });
    expect(
      (await call(other.admin, 'GET', `/v4/groups/${other.groupGuid}/feature_usage?name=custom_shortlinks`)).body[
        'limit_usage'
      ],
    ).toHaveLength(1);
    expect((await call(other.admin, 'GET', `/v4/groups/${other.groupGuid}/feature_usage?name=nope`)).status).toBe(400);

    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const daily = await call(
      other.admin,
      'GET',
      `/v4/groups/${other.groupGuid}/historical_usage?unit=day&start_date=${yesterday}&end_date=${today}T23:59:59Z&name=encodes`,
    );
    expect(daily.body).toEqual({
      group_guid: other.groupGuid,
      unit: 'day',
      start_date: `${yesterday}T00:00:00+0000`,
      end_date: `${today}T23:59:59+0000`,
      historical_limit_usage: [
        {
          name: 'encodes',
          usage: [
            { count: 0, unit_start: `${yesterday}T00:00:00+0000` },
            { count: 3, unit_start: `${today}T00:00:00+0000` },
          ],
        },
      ],
    });
    const monthly = await call(other.admin, 'GET', `/v4/groups/${other.groupGuid}/historical_usage`);
    const months = (monthly.body['historical_limit_usage'] as Array<{ usage: Array<{ count: number }> }>)[0]!.usage;
    expect(months).toHaveLength(12);
    expect(months.at(-1)!.count).toBe(3);
    expect(
      (await call(other.admin, 'GET', `/v4/groups/${other.groupGuid}/historical_usage?unit=hour`)).body['message'],
    ).toBe('INVALID_ARG_UNIT');
  });

  it("enforces each endpoint's limit with 429 RATE_LIMIT_EXCEEDED and reports the same count", async () => {
    const org = await stack.newOrganization();
    const link = await shorten(org.admin, 'https://example.com/limited');
    // /expand allows 30 an hour, so 3 a minute: the calls below must fall in one minute window (and hour).
    const toNextMinute = 60_000 - (Date.now() % 60_000);
    if (toNextMinute < 15_000) await new Promise((resolve) => setTimeout(resolve, toNextMinute + 50));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await call(org.admin, 'POST', '/v4/expand', { shortlink_id: link })).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
    const refused = await call(org.admin, 'POST', '/v4/expand', { shortlink_id: link });
    expect(refused.body).toMatchObject({ message: 'RATE_LIMIT_EXCEEDED', resource: 'shortlinks' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    const limits = await call(org.admin, 'GET', '/v4/user/platform_limits?path=/v4/expand');
    expect(limits.body).toEqual({
      platform_limits: [{ endpoint: '/v4/expand', methods: [{ name: 'POST', limit: 30, count: 5 }] }],
    });
    const all = (await call(org.admin, 'GET', '/v4/user/platform_limits')).body['platform_limits'] as Array<{
      endpoint: string;
      methods: Array<{ name: string; limit: number }>;
    }>;
    expect(all.find((e) => e.endpoint === '/v4/shorten')?.methods).toEqual([{ name: 'POST', limit: 10_000, count: 0 }]);
    expect(all.find((e) => e.endpoint === '/v4/groups/{group_guid}/shortlinks')?.methods.map((m) => m.name)).toEqual([
      'GET',
      'PATCH',
    ]);
    // A concrete path finds its endpoint; another organization has its own counters.
    expect(
      (await call(org.admin, 'GET', `/v4/user/platform_limits?path=/v4/shortlinks/${link}`)).body['platform_limits'],
    ).toContainEqual(expect.objectContaining({ endpoint: '/v4/shortlinks/{domain}/{hash}' }));
    expect((await call(admin, 'POST', '/v4/expand', { shortlink_id: link })).status).toBe(404);
  });
});
