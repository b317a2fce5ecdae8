import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RequestDelivery } from '@platform/contracts';
import { newGroupGuid } from '@platform/links';
import { waitFor } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchDeliveryRequests } from '../support/delivery-requests.js';
import { startLinksStack, DEFAULT_DOMAIN, type LinksStack, type LinksUser } from '../support/links-stack.js';
import { redirect } from '../support/links-traffic.js';

// Webhooks of the link shortener: CRUD through the gateway and worker, then real deliveries through the webhook
// dispatcher to a receiver on this machine: the verify ping, clicks (`decodes`), new links, the OAuth 2.0
// client-credentials variant, and the alert and deactivation that failing deliveries lead to.

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  json: Record<string, unknown>;
}

let stack: LinksStack;
let organizationId: string;
let groupGuid: string;
let admin: LinksUser;
let receiver: Server;
let receiverUrl: string;
const received: Received[] = [];
/** Status each receiver path answers (200 unless set). */
const answers = new Map<string, number>();
/** The client-credentials token endpoint: what it was sent, and the token it hands out now. */
const tokenRequests: Array<{ authorization: string | undefined; body: string }> = [];
let currentToken = 'token-1';

/** Every RequestDelivery the stack's links-worker published on webhooks.deliveries (read beside the dispatcher). */
let requested: RequestDelivery[] = [];
let stopReading: () => Promise<void> = async () => undefined;

const requestOf = (targetId: string, eventType: string) =>
  waitFor(() => requested.find((r) => r.target.id === targetId && r.event_type === eventType), {
    what: `the ${eventType} delivery request to ${targetId}`,
  });

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

async function call(who: LinksUser, method: string, path: string, body?: unknown) {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: { authorization: who.token, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

/** The Standard Webhooks signature, computed here from the spec rather than with the platform's own code. */
function expectSigned(delivery: Received, secret: string) {
  const id = delivery.headers['webhook-id'] as string;
  const timestamp = delivery.headers['webhook-timestamp'] as string;
  expect(id).toBeTruthy();
  expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${delivery.body}`).digest('base64')}`;
  expect((delivery.headers['webhook-signature'] as string).split(' ')).toContain(expected);
}

/** The visitor of the redirects below: an iPhone, coming from a tweet. */
const VISITOR = {
  'user-agent': 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Mobile/15E148 Safari/604.1',
  referer: 'https://t.co/abc',
};

async function createWebhook(body: Record<string, unknown>) {
  const r = await call(admin, 'POST', '/v4/webhooks', { organization_guid: organizationId, ...body });
  expect(r.status).toBe(201);
  return r.body as Record<string, unknown> & { guid: string; signing_secret: string };
}

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const path = req.url ?? '/';
      if (path === '/token') {
        tokenRequests.push({ authorization: req.headers.authorization, body });
        res
          .writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' })
          .end(JSON.stringify({ access_token: currentToken, token_type: 'bearer', expires_in: 3600 }));
        return;
      }
      if (path === '/oauth-hook' && req.headers.authorization !== `Bearer ${currentToken}`) {
        res.writeHead(401).end();
        return;
      }
      received.push({ path, headers: req.headers, body, json: JSON.parse(body) as Record<string, unknown> });
      res.writeHead(answers.get(path) ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  stack = await startLinksStack({}, { dispatcher: true });
  ({ organizationId, groupGuid, admin } = await stack.newOrganization());
  ({ requests: requested, stop: stopReading } = await watchDeliveryRequests(stack.kafka));
}, 120_000);

afterAll(async () => {
  await stopReading();
  await stack?.close();
  await new Promise((resolve) => receiver?.close(resolve));
});

describe('webhook records', () => {
  it('creates, reads, lists, edits and deletes a webhook; the client secret never comes back', async () => {
    const created = await createWebhook({
      name: 'Clicks',
      event: 'decodes',
      url: `${receiverUrl}/crud`,
      oauth_url: `${receiverUrl}/token`,
      client_id: 'cid',
      client_secret: 'very-secret',
      fetch_tags: true,
      unknown_member: 1,
    });
    expect(created).toMatchObject({
      organization_guid: organizationId,
      group_guid: '',
      name: 'Clicks',
      event: 'decodes',
      url: `${receiverUrl}/crud`,
      is_active: true,
      is_alert: false,
      alerted: '',
      deactivated: '',
      status: 'active',
      oauth_url: `${receiverUrl}/token`,
      client_id: 'cid',
      client_secret: '********',
      fetch_tags: true,
      modified_by: admin.user.username,
      references: { organization: `${stack.url}/v4/organizations/${organizationId}` },
    });
    expect(created.guid).toMatch(/^W[0-9a-f]{10}$/);
    expect(created.created).toMatch(TIME);
    expect(created.signing_secret).toMatch(/^whsec_[A-Za-z0-9]{40}$/);
    expect(
      JSON.stringify(await stack.mongo.collection('links_webhooks').findOne({ _id: created.guid as never })),
    ).not.toContain('very-secret');

    const read = await call(admin, 'GET', `/v4/webhooks/${created.guid}`);
    expect(read.status).toBe(200);
    expect(read.body).not.toHaveProperty('signing_secret');
    expect(read.body).toMatchObject({ guid: created.guid, client_secret: '********' });

    const patched = await call(admin, 'PATCH', `/v4/webhooks/${created.guid}`, {
      guid: created.guid,
      name: 'Renamed',
      is_active: false,
      group_guid: groupGuid,
      oauth_url: '',
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      name: 'Renamed',
      is_active: false,
      status: 'inactive',
      group_guid: groupGuid,
      oauth_url: '',
      client_id: '',
      client_secret: '',
      references: { group: `${stack.url}/v4/groups/${groupGuid}` },
    });

    const listed = await call(admin, 'GET', `/v4/organizations/${organizationId}/webhooks`);
    expect(listed.status).toBe(200);
    expect((listed.body['webhooks'] as Array<{ guid: string }>).map((w) => w.guid)).toContain(created.guid);

    expect((await call(admin, 'DELETE', `/v4/webhooks/${created.guid}`)).status).toBe(204);
    expect(await call(admin, 'GET', `/v4/webhooks/${created.guid}`)).toMatchObject({
      status: 404,
      body: { message: 'NOT_FOUND' },
    });
    expect((await call(admin, 'DELETE', `/v4/webhooks/${created.guid}`)).status).toBe(404);
  });

  it("takes Bitly's other names for the click event, engagement and click, as decodes", async () => {
    for (const event of ['engagement', 'click']) {
      const created = await createWebhook({ name: event, event, url: `${receiverUrl}/alias` });
      expect(created.event).toBe('decodes');
      const patched = await call(admin, 'PATCH', `/v4/webhooks/${created.guid}`, { guid: created.guid, event });
      expect(patched).toMatchObject({ status: 200, body: { event: 'decodes' } });
      expect((await call(admin, 'DELETE', `/v4/webhooks/${created.guid}`)).status).toBe(204);
    }
  });

  it('refuses bad input with Bitly errors and changes nothing', async () => {
    const before = await call(admin, 'GET', `/v4/organizations/${organizationId}/webhooks`);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ name: 'x', event: 'decodes' }, 400, 'INVALID_ARG_URL'],
      [{ name: 'x', event: 'decodes', url: 'ftp://example.com/' }, 400, 'INVALID_ARG_URL'],
      [{ name: 'x', event: 'decodes', url: 'not a url' }, 400, 'INVALID_ARG_URL'],
      [{ name: 'x', event: 'explodes', url: 'https://example.com/' }, 400, 'INVALID_ARG_EVENT'],
      [{ event: 'decodes', url: 'https://example.com/' }, 400, 'INVALID_ARG_NAME'],
      [{ name: 'x', event: 'decodes', url: 'https://example.com/', is_active: 'yes' }, 400, 'INVALID_ARG_IS_ACTIVE'],
      [
        { name: 'x', event: 'decodes', url: 'https://example.com/', oauth_url: 'https://auth.example.com/token' },
        400,
        'INVALID_ARG_OAUTH_URL',
      ],
      [
        { name: 'x', event: 'decodes', url: 'https://example.com/', group_guid: 'Bnosuchgroup' },
        400,
        'INVALID_ARG_GROUP_GUID',
      ],
    ];
    for (const [body, status, message] of cases) {
      const r = await call(admin, 'POST', '/v4/webhooks', { organization_guid: organizationId, ...body });
      expect({ status: r.status, message: r.body['message'] }, JSON.stringify(body)).toEqual({ status, message });
      // A member not sent is `missing`, as Bitly names it; one sent but wrong is `invalid`.
      const absent = !(message.slice('INVALID_ARG_'.length).toLowerCase() in body);
      expect(r.body['errors']).toEqual([
        expect.objectContaining({ field: expect.any(String), error_code: absent ? 'missing' : 'invalid' }),
      ]);
    }
    expect(
      await call(admin, 'POST', '/v4/webhooks', { name: 'x', event: 'decodes', url: 'https://example.com/' }),
    ).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_ORGANIZATION_GUID' } });
    expect(
      await call(admin, 'POST', '/v4/webhooks', {
        organization_guid: 'Oother',
        name: 'x',
        event: 'decodes',
        url: 'https://example.com/',
      }),
    ).toMatchObject({ status: 403, body: { message: 'FORBIDDEN' } });

    const hook = await createWebhook({ name: 'Guarded', event: 'decodes', url: 'https://example.com/hook' });
    expect(await call(admin, 'PATCH', `/v4/webhooks/${hook.guid}`, { name: 'No guid' })).toMatchObject({
      status: 400,
      body: { message: 'INVALID_ARG_GUID' },
    });
    expect(await call(admin, 'PATCH', `/v4/webhooks/${hook.guid}`, { guid: 'Wother', name: 'x' })).toMatchObject({
      status: 400,
      body: { message: 'INVALID_ARG_GUID' },
    });
    expect(
      await call(admin, 'PATCH', `/v4/webhooks/${hook.guid}`, { guid: hook.guid, url: 'javascript:alert(1)' }),
    ).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_URL' } });
    expect((await call(admin, 'GET', `/v4/webhooks/${hook.guid}`)).body).toMatchObject({
      name: 'Guarded',
      url: 'https://example.com/hook',
    });

    // Group members who are not its admins, and other organizations, see nothing of them.
    const editor = await stack.addUser(organizationId, groupGuid, 'GROUP_EDITOR');
    expect(await call(editor, 'GET', `/v4/webhooks/${hook.guid}`)).toMatchObject({
      status: 403,
      body: { message: 'FORBIDDEN' },
    });
    expect(
      await call(editor, 'POST', '/v4/webhooks', {
        organization_guid: organizationId,
        name: 'x',
        event: 'decodes',
        url: 'https://example.com/',
        group_guid: groupGuid,
      }),
    ).toMatchObject({ status: 403 });
    expect((await call(editor, 'GET', `/v4/organizations/${organizationId}/webhooks`)).body).toEqual({ webhooks: [] });
    const other = await stack.newOrganization();
    expect(await call(other.admin, 'GET', `/v4/webhooks/${hook.guid}`)).toMatchObject({ status: 404 });
    expect(await call(other.admin, 'GET', `/v4/organizations/${organizationId}/webhooks`)).toMatchObject({
      status: 403,
    });

    const after = await call(admin, 'GET', `/v4/organizations/${organizationId}/webhooks`);
    expect((after.body['webhooks'] as unknown[]).length).toBe((before.body['webhooks'] as unknown[]).length + 1);
    await call(admin, 'DELETE', `/v4/webhooks/${hook.guid}`);
  });

  it('takes rate_limit and ordered on create and patch, shows them on every read, and removes the limit on null', async () => {
    const plain = await createWebhook({ name: 'Plain', event: 'decodes', url: 'https://example.com/plain' });
    expect(plain).toMatchObject({ rate_limit: null, ordered: false });

    const created = await createWebhook({
      name: 'Limited',
      event: 'decodes',
      url: 'https://example.com/limited',
      rate_limit: 25,
      ordered: true,
    });
    expect(created).toMatchObject({ rate_limit: 25, ordered: true });
    expect((await call(admin, 'GET', `/v4/webhooks/${created.guid}`)).body).toMatchObject({
      rate_limit: 25,
      ordered: true,
    });
    const listed = await call(admin, 'GET', `/v4/organizations/${organizationId}/webhooks`);
    expect(listed.body['webhooks']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ guid: created.guid, rate_limit: 25, ordered: true }),
        expect.objectContaining({ guid: plain.guid, rate_limit: null, ordered: false }),
      ]),
    );

    // A patch that names neither leaves both; one that names one changes only it.
    expect(
      await call(admin, 'PATCH', `/v4/webhooks/${created.guid}`, { guid: created.guid, name: 'Renamed' }),
    ).toMatchObject({ status: 200, body: { name: 'Renamed', rate_limit: 25, ordered: true } });
    expect(
      await call(admin, 'PATCH', `/v4/webhooks/${created.guid}`, { guid: created.guid, rate_limit: 10_000 }),
    ).toMatchObject({ status: 200, body: { rate_limit: 10_000, ordered: true } });
    expect(
      await call(admin, 'PATCH', `/v4/webhooks/${created.guid}`, { guid: created.guid, ordered: false }),
    ).toMatchObject({ status: 200, body: { rate_limit: 10_000, ordered: false } });
    // Unlike Bitly's members, whose null leaves them as they are, a null rate_limit removes the limit.
    expect(
      await call(admin, 'PATCH', `/v4/webhooks/${created.guid}`, { guid: created.guid, rate_limit: null }),
    ).toMatchObject({ status: 200, body: { rate_limit: null, ordered: false } });
    expect((await call(admin, 'GET', `/v4/webhooks/${created.guid}`)).body).toMatchObject({
      name: 'Renamed',
      rate_limit: null,
      ordered: false,
    });
    expect(
      await call(admin, 'PATCH', `/v4/webhooks/${plain.guid}`, { guid: plain.guid, rate_limit: 1, ordered: true }),
    ).toMatchObject({ status: 200, body: { rate_limit: 1, ordered: true } });
    for (const h of [plain, created]) await call(admin, 'DELETE', `/v4/webhooks/${h.guid}`);
  });

  it('refuses a bad rate_limit or ordered with Bitly errors and changes nothing', async () => {
    const hook = await createWebhook({
      name: 'Kept',
      event: 'decodes',
      url: 'https://example.com/kept',
      rate_limit: 7,
      ordered: true,
    });
    const before = await call(admin, 'GET', `/v4/organizations/${organizationId}/webhooks`);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ rate_limit: 0 }, 'INVALID_ARG_RATE_LIMIT'],
      [{ rate_limit: -5 }, 'INVALID_ARG_RATE_LIMIT'],
      [{ rate_limit: 10_001 }, 'INVALID_ARG_RATE_LIMIT'],
      [{ rate_limit: 2.5 }, 'INVALID_ARG_RATE_LIMIT'],
      [{ rate_limit: 'fast' }, 'INVALID_ARG_RATE_LIMIT'],
      [{ ordered: 'yes' }, 'INVALID_ARG_ORDERED'],
    ];
    for (const [member, message] of bad) {
      const created = await call(admin, 'POST', '/v4/webhooks', {
        organization_guid: organizationId,
        name: 'Refused',
        event: 'decodes',
        url: 'https://example.com/refused',
        ...member,
      });
      expect({ status: created.status, message: created.body['message'] }, JSON.stringify(member)).toEqual({
        status: 400,
        message,
      });
      expect(created.body['errors']).toEqual([
        expect.objectContaining({ field: expect.any(String), error_code: 'invalid' }),
      ]);
      const patched = await call(admin, 'PATCH', `/v4/webhooks/${hook.guid}`, { guid: hook.guid, ...member });
      expect({ status: patched.status, message: patched.body['message'] }, JSON.stringify(member)).toEqual({
        status: 400,
        message,
      });
    }
    expect((await call(admin, 'GET', `/v4/webhooks/${hook.guid}`)).body).toMatchObject({
      name: 'Kept',
      rate_limit: 7,
      ordered: true,
    });
    const after = await call(admin, 'GET', `/v4/organizations/${organizationId}/webhooks`);
    expect(after.body['webhooks']).toEqual(before.body['webhooks']);
    await call(admin, 'DELETE', `/v4/webhooks/${hook.guid}`);
  });

  it('lets a group admin manage the webhooks of their group only', async () => {
    const groupAdmin = await stack.addUser(organizationId, groupGuid, 'GROUP_ADMIN');
    expect(
      await call(groupAdmin, 'POST', '/v4/webhooks', {
        organization_guid: organizationId,
        name: 'Org-wide',
        event: 'decodes',
        url: 'https://example.com/',
      }),
    ).toMatchObject({ status: 403 });
    const own = await call(groupAdmin, 'POST', '/v4/webhooks', {
      organization_guid: organizationId,
      name: 'Group',
      event: 'decodes',
      url: 'https://example.com/g',
      group_guid: groupGuid,
    });
    expect(own).toMatchObject({ status: 201, body: { group_guid: groupGuid } });
    const guid = own.body['guid'] as string;
    expect(await call(groupAdmin, 'PATCH', `/v4/webhooks/${guid}`, { guid, group_guid: '' })).toMatchObject({
      status: 403,
    });
    expect((await call(groupAdmin, 'GET', `/v4/organizations/${organizationId}/webhooks`)).body['webhooks']).toEqual([
      expect.objectContaining({ guid }),
    ]);
    expect((await call(groupAdmin, 'DELETE', `/v4/webhooks/${guid}`)).status).toBe(204);
  });
});

describe('deliveries', () => {
  it('verify sends a signed ping through the dispatcher', async () => {
    const hook = await createWebhook({ name: 'Ping me', event: 'decodes', url: `${receiverUrl}/ping` });
    const verified = await call(admin, 'POST', `/v4/webhooks/${hook.guid}/verify`);
    expect(verified).toMatchObject({ status: 200, body: { guid: hook.guid, name: 'Ping me' } });
    const ping = await waitFor(() => received.find((r) => r.path === '/ping'), { what: 'the ping' });
    expect(ping.json).toMatchObject({
      event: 'ping',
      webhook_guid: hook.guid,
      organization_guid: organizationId,
      references: { webhook: `${stack.url}/v4/webhooks/${hook.guid}` },
    });
    expect(ping.headers['content-type']).toMatch(/^application\/json/);
    expectSigned(ping, hook.signing_secret);
    await call(admin, 'DELETE', `/v4/webhooks/${hook.guid}`);
  });

  it('sends each click (decodes) and each new link to the active webhooks that cover its group, signed', async () => {
    const decodes = await createWebhook({
      name: 'Decodes',
      event: 'decodes',
      url: `${receiverUrl}/decodes`,
      fetch_tags: true,
    });
    const inGroup = await createWebhook({
      name: 'Group decodes',
      event: 'decodes',
      url: `${receiverUrl}/group-decodes`,
      group_guid: groupGuid,
    });
    const off = await createWebhook({ name: 'Off', event: 'decodes', url: `${receiverUrl}/off`, is_active: false });
    const created = await createWebhook({
      name: 'New links',
      event: 'shortlink_created',
      url: `${receiverUrl}/created`,
    });
    const otherGroup = newGroupGuid();
    const elsewhere = await stack.addUser(organizationId, otherGroup, 'GROUP_ADMIN', 'Elsewhere');

    const link = await call(admin, 'POST', '/v4/shortlinks', {
      long_url: 'https://example.com/webhooked',
      tags: ['spring'],
    });
    expect(link.status).toBe(201);
    const id = link.body['id'] as string;
    const hash = id.slice(DEFAULT_DOMAIN.length + 1);
    expect(await redirect(stack, DEFAULT_DOMAIN, `/${hash}?utm_source=newsletter`, VISITOR)).toBe(301);

    const click = await waitFor(() => received.find((r) => r.path === '/decodes'), { what: 'the click' });
    expect(click.json).toMatchObject({
      event: 'decodes',
      url: 'https://example.com/webhooked',
      shortlink: id,
      passed_params: 'utm_source=newsletter',
      referrer: 'https://t.co/abc',
      device_type: 'Mobile',
      bot: false,
      qr: false,
      qrcode_id: '',
      tags: ['spring'],
      webhook_guid: decodes.guid,
      organization_guid: organizationId,
      group_guid: groupGuid,
      references: {
        shortlink: `${stack.url}/v4/shortlinks/${id}`,
        group: `${stack.url}/v4/groups/${groupGuid}`,
        organization: `${stack.url}/v4/organizations/${organizationId}`,
        webhook: `${stack.url}/v4/webhooks/${decodes.guid}`,
      },
    });
    expect(click.json['datetime']).toMatch(TIME);
    expect(click.json['event_id']).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expectSigned(click, decodes.signing_secret);
    const groupClick = await waitFor(() => received.find((r) => r.path === '/group-decodes'), {
      what: 'the group click',
    });
    expect(groupClick.json).toMatchObject({
      shortlink: id,
      webhook_guid: inGroup.guid,
      event_id: click.json['event_id'],
    });
    expect(groupClick.json).not.toHaveProperty('tags');
    expectSigned(groupClick, inGroup.signing_secret);

    const createdEvent = await waitFor(
      () => received.find((r) => r.path === '/created' && r.json['shortlink'] === id),
      { what: 'the new link' },
    );
    expect(createdEvent.json).toMatchObject({
      event: 'shortlink_created',
      url: 'https://example.com/webhooked',
      tags: ['spring'],
      webhook_guid: created.guid,
      group_guid: groupGuid,
    });
    expectSigned(createdEvent, created.signing_secret);

    // A link of another group reaches the organization-wide webhook but not the group's.
    const foreign = await call(elsewhere, 'POST', '/v4/shortlinks', { long_url: 'https://example.com/elsewhere' });
    const foreignId = foreign.body['id'] as string;
    expect(await redirect(stack, DEFAULT_DOMAIN, `/${foreignId.slice(DEFAULT_DOMAIN.length + 1)}`, VISITOR)).toBe(301);
    await waitFor(() => received.find((r) => r.path === '/decodes' && r.json['shortlink'] === foreignId), {
      what: 'the other group click',
    });
    // Give the group webhook the same time to (wrongly) receive it; the inactive one never hears anything.
    await new Promise((r) => setTimeout(r, 1500));
    expect(foreign.body['references']).toMatchObject({ group: `${stack.url}/v4/groups/${otherGroup}` });
    expect(received.filter((r) => r.path === '/group-decodes').map((r) => r.json['shortlink'])).toEqual([id]);
    expect(received.filter((r) => r.path === '/decodes' && r.json['shortlink'] === id)).toHaveLength(1);
    expect(received.filter((r) => r.path === '/off')).toEqual([]);
    for (const h of [decodes, inGroup, off, created]) await call(admin, 'DELETE', `/v4/webhooks/${h.guid}`);
  });

  it("asks the dispatcher for an ordered, rate-limited webhook's limit and the link's id as the ordering key", async () => {
    const ordered = await createWebhook({
      name: 'Ordered clicks',
      event: 'decodes',
      url: `${receiverUrl}/ordered-decodes`,
      rate_limit: 5,
      ordered: true,
    });
    const orderedCreated = await createWebhook({
      name: 'Ordered new links',
      event: 'shortlink_created',
      url: `${receiverUrl}/ordered-created`,
      rate_limit: 3,
      ordered: true,
    });
    const unordered = await createWebhook({ name: 'Any order', event: 'decodes', url: `${receiverUrl}/any-order` });
    const limitedOnly = await createWebhook({
      name: 'Limited only',
      event: 'decodes',
      url: `${receiverUrl}/limited-only`,
      rate_limit: 2,
    });

    const link = await call(admin, 'POST', '/v4/shortlinks', { long_url: 'https://example.com/in-order' });
    expect(link.status).toBe(201);
    const id = link.body['id'] as string;
    expect(await redirect(stack, DEFAULT_DOMAIN, `/${id.slice(DEFAULT_DOMAIN.length + 1)}`, VISITOR)).toBe(301);

    expect((await requestOf(ordered.guid, 'decodes')).target.rate_limit).toBe(5);
    expect((await requestOf(ordered.guid, 'decodes')).ordering_key).toBe(id);
    expect(await requestOf(orderedCreated.guid, 'shortlink_created')).toMatchObject({
      target: { rate_limit: 3 },
      ordering_key: id,
    });
    expect(await requestOf(unordered.guid, 'decodes')).toMatchObject({
      target: { rate_limit: null },
      ordering_key: null,
    });
    expect(await requestOf(limitedOnly.guid, 'decodes')).toMatchObject({
      target: { rate_limit: 2 },
      ordering_key: null,
    });
    // The deliveries themselves still arrive.
    await waitFor(() => received.find((r) => r.path === '/ordered-decodes' && r.json['shortlink'] === id), {
      what: 'the ordered click',
    });

    // A ping is about no link: the webhook's limit, no ordering key (it never waits behind a link's events).
    expect((await call(admin, 'POST', `/v4/webhooks/${ordered.guid}/verify`)).status).toBe(200);
    expect(await requestOf(ordered.guid, 'ping')).toMatchObject({ target: { rate_limit: 5 }, ordering_key: null });

    for (const h of [ordered, orderedCreated, unordered, limitedOnly])
      await call(admin, 'DELETE', `/v4/webhooks/${h.guid}`);
  });

  it('gets a client-credentials token first, sends it as a bearer, and gets a new one on 401', async () => {
    const hook = await createWebhook({
      name: 'OAuth',
      event: 'decodes',
      url: `${receiverUrl}/oauth-hook`,
      oauth_url: `${receiverUrl}/token`,
      client_id: 'client-1',
      client_secret: 's3cret',
    });
    await call(admin, 'POST', `/v4/webhooks/${hook.guid}/verify`);
    const first = await waitFor(() => received.find((r) => r.path === '/oauth-hook'), {
      what: 'the first OAuth delivery',
    });
    expect(first.headers.authorization).toBe('Bearer token-1');
    expect(tokenRequests[0]).toEqual({
      authorization: `Basic ${Buffer.from('client-1:s3cret').toString('base64')}`,
      body: expect.stringContaining('grant_type=client_credentials'),
    });
    expectSigned(first, hook.signing_secret);

    // The receiver revokes the token: the next delivery meets a 401, fetches a new token and goes through.
    currentToken = 'token-2';
    await call(admin, 'POST', `/v4/webhooks/${hook.guid}/verify`);
    const second = await waitFor(() => received.filter((r) => r.path === '/oauth-hook')[1], {
      what: 'the delivery with a new token',
    });
    expect(second.headers.authorization).toBe('Bearer token-2');
    expect(tokenRequests).toHaveLength(2);
    await call(admin, 'DELETE', `/v4/webhooks/${hook.guid}`);
  });

  it('alerts on the first failed delivery, clears the alert when one gets through, and deactivates after an event fails every attempt', async () => {
    const hook = await createWebhook({ name: 'Flaky', event: 'decodes', url: `${receiverUrl}/flaky` });
    answers.set('/flaky', 500);
    await call(admin, 'POST', `/v4/webhooks/${hook.guid}/verify`);
    // Three attempts (the stack's retry schedule: now, 0.2 s, 3 s), then the ping is dead-lettered and the
    // webhook turned off.
    const deactivated = await waitFor(
      async () => {
        const r = await call(admin, 'GET', `/v4/webhooks/${hook.guid}`);
        return r.body['is_active'] === false ? r.body : undefined;
      },
      { what: 'the deactivation' },
    );
    expect(received.filter((r) => r.path === '/flaky')).toHaveLength(3);
    expect(deactivated).toMatchObject({ is_active: false, is_alert: true, status: 'deactivated' });
    expect(deactivated['alerted']).toMatch(TIME);
    expect(deactivated['deactivated']).toMatch(TIME);

    // Turned back on, it stays alerted until a delivery gets through; a new failure alerts again, and a
    // success before the last attempt clears it.
    answers.set('/flaky', 200);
    const on = await call(admin, 'PATCH', `/v4/webhooks/${hook.guid}`, { guid: hook.guid, is_active: true });
    expect(on.body).toMatchObject({ is_active: true, is_alert: true, deactivated: '', status: 'active' });
    await call(admin, 'POST', `/v4/webhooks/${hook.guid}/verify`);
    await waitFor(
      async () =>
        (await call(admin, 'GET', `/v4/webhooks/${hook.guid}`)).body['is_alert'] === false ? true : undefined,
      { what: 'the alert cleared by a delivery' },
    );
    answers.set('/flaky', 503);
    const failures = received.filter((r) => r.path === '/flaky').length;
    await call(admin, 'POST', `/v4/webhooks/${hook.guid}/verify`);
    await waitFor(
      async () =>
        (await call(admin, 'GET', `/v4/webhooks/${hook.guid}`)).body['is_alert'] === true ? true : undefined,
      { what: 'the second alert' },
    );
    answers.set('/flaky', 200);
    await waitFor(
      async () => {
        const r = await call(admin, 'GET', `/v4/webhooks/${hook.guid}`);
        return r.body['is_alert'] === false && r.body['is_active'] === true ? true : undefined;
      },
      { what: 'the alert cleared by a retry' },
    );
    expect(received.filter((r) => r.path === '/flaky').length - failures).toBeGreaterThanOrEqual(2);

    // A receiver that answers 410 Gone is deactivated at once.
    answers.set('/flaky', 410);
    await call(admin, 'POST', `/v4/webhooks/${hook.guid}/verify`);
    await waitFor(
      async () =>
        (await call(admin, 'GET', `/v4/webhooks/${hook.guid}`)).body['status'] === 'deactivated' ? true : undefined,
      { what: 'the 410 deactivation' },
    );
  });
});
