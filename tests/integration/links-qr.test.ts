import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { MessageTypeNames } from '@platform/contracts';
import { LINKS_TOPICS } from '@platform/links';
import { runConsumer, type ConsumerHandle } from '@platform/kafka';
import sharp from 'sharp';
import { waitFor } from '@platform/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLinksStack, DEFAULT_DOMAIN, type LinksStack, type LinksUser } from '../support/links-stack.js';
import { decodeQr } from '../support/qr-reader.js';

// QR codes through the gateway, Kafka and the worker: create, read, edit, list, delete, images (negotiated,
// decoded back to what they encode), static codes, logo uploads, and scans through the redirector.
let stack: LinksStack;
let organizationId: string;
let groupGuid: string;
let admin: LinksUser;
let clicks: Array<Record<string, unknown>>;
let consumer: ConsumerHandle;

const TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/;

async function call(
  who: LinksUser,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  const response = await fetch(`${stack.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${who.token}`,
      ...(body !== undefined && !Buffer.isBuffer(body) ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(30_000),
  });
  const raw = Buffer.from(await response.arrayBuffer());
  const type = response.headers.get('content-type') ?? '';
  return {
    status: response.status,
    type,
    raw,
    body: (type.startsWith('application/json') && raw.length > 0 ? JSON.parse(raw.toString()) : null) as Record<
      string,
      unknown
    >,
  };
}

function visit(path: string) {
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      new URL(path, stack.redirectors[0]),
      { headers: { host: DEFAULT_DOMAIN, 'user-agent': 'Mozilla/5.0 (Linux; Android 14) Mobile Safari/537.36' } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode!));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

async function createQr(body: Record<string, unknown>) {
  const r = await call(admin, 'POST', '/v4/qr-codes', { group_guid: groupGuid, ...body });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body;
}

beforeAll(async () => {
  stack = await startLinksStack();
  ({ organizationId, groupGuid, admin } = await stack.newOrganization());
  clicks = [];
  consumer = await runConsumer({
    client: stack.kafka,
    groupId: `qr-test-${randomUUID()}`,
    topics: [LINKS_TOPICS.clicks],
    handlers: { [MessageTypeNames.ShortlinkClicked]: async (m) => void clicks.push({ ...m.value }) },
  });
  await consumer.ready;
}, 120_000);

afterAll(async () => {
  await consumer?.stop();
  await stack?.close();
});

describe('QR code records', () => {
  it('creates a code for a long URL (with a new short link) and for a short link, in the spec forms', async () => {
    const made = await createQr({
      title: 'Poster',
      destination: { long_url: 'https://example.com/poster' },
      tags: ['print'],
      unknown: true,
    });
    const qrId = made['qrcode_id'] as string;
    expect(qrId).toMatch(/^Q[0-9a-f]{10}$/);
    const linkId = made['shortlink_id'] as string;
    expect(linkId.startsWith(`${DEFAULT_DOMAIN}/`)).toBe(true);
    expect(made).toEqual({
      qrcode_id: qrId,
      group_guid: groupGuid,
      title: 'Poster',
      is_customized: false,
      serialized_content: `https://${linkId}?qr=${qrId}`,
      qr_code_type: 'long_url',
      long_urls: ['https://example.com/poster'],
      shortlink_id: linkId,
      is_gs1: false,
      created_by: admin.user.username,
      tags: ['print'],
      archived: false,
      expiration_at: '',
      created: expect.stringMatching(TIME),
      modified: expect.stringMatching(TIME),
    });
    const link = await call(admin, 'GET', `/v4/shortlinks/${linkId}`);
    expect(link.body['qr_code_ids']).toEqual([qrId]);

    const shortlink = await call(admin, 'POST', '/v4/shortlinks', { long_url: 'https://example.com/existing' });
    const expires = new Date(Date.now() + 7 * 24 * 3600_000);
    const expiresText = `${expires.toISOString().slice(0, 19)}+0000`;
    const customized = await createQr({
      destination: { shortlink_id: shortlink.body['id'] },
      archived: true,
      gs1: { values: [{ key: '01', value: '09506000134352' }] },
      expiration_at: expiresText,
      render_customizations: {
        dot_pattern_type: 'circle',
        dot_pattern_color: '#1a237e',
        background_color: '#ffffffff',
      },
    });
    expect(customized).toMatchObject({
      qr_code_type: 'shortlink',
      shortlink_id: shortlink.body['id'],
      is_customized: true,
      is_gs1: true,
      archived: true,
      expiration_at: expiresText,
      long_urls: ['https://example.com/existing'],
    });
    const full = await call(admin, 'GET', `/v4/qr-codes/${customized['qrcode_id']}`);
    expect(full.status).toBe(200);
    expect(Object.keys(full.body).sort()).toEqual(
      [
        'qrcode_id',
        'group_guid',
        'title',
        'gs1',
        'render_customizations',
        'qr_code_type',
        'shortlink_id',
        'long_urls',
        'serialized_content',
        'archived',
        'created',
        'modified',
        'expiration_at',
      ].sort(),
    );
    expect(full.body).toMatchObject({
      gs1: { values: [{ key: '01', value: '09506000134352' }] },
      render_customizations: { dot_pattern_type: 'circle', dot_pattern_color: '#1a237e' },
    });
    // The code's expiry is its short link's.
    expect((await call(admin, 'GET', `/v4/shortlinks/${shortlink.body['id']}`)).body['expiration_at']).toBe(
      expiresText,
    );
  });

  it('refuses bad input with the API error shape and makes nothing', async () => {
    const before = (await call(admin, 'GET', `/v4/groups/${groupGuid}/qr-codes?archived=both&size=100`)).body[
      'qr_codes'
    ] as unknown[];
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ group_guid: undefined, destination: { long_url: 'https://example.com/' } }, 400, 'INVALID_ARG_GROUP_GUID'],
      [{}, 400, 'INVALID_ARG_DESTINATION'],
      [{ destination: { site_id: 'x' } }, 400, 'INVALID_ARG_DESTINATION'],
      [{ destination: { long_url: 'ftp://example.com/' } }, 400, 'INVALID_ARG_LONG_URL'],
      [{ destination: { shortlink_id: `${DEFAULT_DOMAIN}/nosuch1` } }, 400, 'INVALID_ARG_SHORTLINK_ID'],
      [
        {
          destination: { long_url: 'https://example.com/' },
          expiration_at: `${new Date(Date.now() + 60_000).toISOString().slice(0, 19)}+0000`,
        },
        400,
        'INVALID_ARG_EXPIRATION_AT',
      ],
      [
        { destination: { long_url: 'https://example.com/' }, render_customizations: { dot_pattern_type: 'zigzag' } },
        400,
        'INVALID_ARG_RENDER_CUSTOMIZATIONS',
      ],
      [
        {
          destination: { long_url: 'https://example.com/' },
          render_customizations: { dot_pattern_color: '#ffffff', background_color: '#ffffff' },
        },
        400,
        'INVALID_ARG_RENDER_CUSTOMIZATIONS',
      ],
      [
        { destination: { long_url: 'https://example.com/' }, render_customizations: { logo: { image_guid: 'Inope' } } },
        400,
        'INVALID_ARG_LOGO',
      ],
      [{ destination: { long_url: 'https://example.com/' }, gs1: { values: 'x' } }, 400, 'INVALID_ARG_GS1'],
    ];
    for (const [body, status, message] of cases) {
      const r = await call(admin, 'POST', '/v4/qr-codes', { group_guid: groupGuid, ...body });
      expect({ status: r.status, message: r.body['message'] }, JSON.stringify(body)).toEqual({ status, message });
      expect(r.body).toMatchObject({
        resource: 'qr-codes',
        errors: [expect.objectContaining({ field: expect.any(String), error_code: expect.any(String) })],
      });
    }
    const bad = await call(admin, 'POST', '/v4/qr-codes', {
      group_guid: groupGuid,
      destination: { long_url: 'https://example.com/' },
      render_customizations: { corners: { corner_1: { shape: 'pointy' } } },
    });
    expect(bad.body['errors']).toEqual([
      expect.objectContaining({ field: 'render_customizations.corners.corner_1.shape' }),
    ]);
    const other = await stack.newOrganization();
    expect(
      await call(other.admin, 'POST', '/v4/qr-codes', {
        group_guid: groupGuid,
        destination: { long_url: 'https://example.com/' },
      }),
    ).toMatchObject({ status: 403, body: { message: 'FORBIDDEN' } });
    const after = (await call(admin, 'GET', `/v4/groups/${groupGuid}/qr-codes?archived=both&size=100`)).body[
      'qr_codes'
    ] as unknown[];
    expect(after.length).toBe(before.length);
  });

  it('edits title, customizations, archived, expiry and tags; users of the group edit only their own codes', async () => {
    const made = await createQr({ destination: { long_url: 'https://example.com/edit' } });
    const id = made['qrcode_id'] as string;
    const patched = await call(admin, 'PATCH', `/v4/qr-codes/${id}`, {
      title: 'Renamed',
      archived: true,
      tags: ['a', 'b'],
      render_customizations: { dot_pattern_type: 'diamond' },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      qrcode_id: id,
      title: 'Renamed',
      archived: true,
      tags: ['a', 'b'],
      is_customized: true,
    });
    expect((await call(admin, 'GET', `/v4/groups/${groupGuid}/tags?type=qr_code`)).body['tags']).toEqual(
      expect.arrayContaining(['a', 'b']),
    );
    const user = await stack.addUser(organizationId, groupGuid, 'GROUP_USER');
    expect(await call(user, 'PATCH', `/v4/qr-codes/${id}`, { title: 'Mine now' })).toMatchObject({
      status: 403,
      body: { message: 'FORBIDDEN' },
    });
    expect(await call(user, 'DELETE', `/v4/qr-codes/${id}`)).toMatchObject({ status: 403 });
    expect((await call(user, 'GET', `/v4/qr-codes/${id}`)).status).toBe(200);
    expect(await call(admin, 'GET', '/v4/qr-codes/Qnosuchcode')).toMatchObject({
      status: 404,
      body: { message: 'NOT_FOUND' },
    });
  });

  it("lists a group's codes newest first, hiding archived ones by default, with a next link to follow", async () => {
    const { groupGuid: listGroup, admin: owner } = await stack.newOrganization();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await call(owner, 'POST', '/v4/qr-codes', {
        group_guid: listGroup,
        destination: { long_url: `https://example.com/list/${i}` },
        archived: i === 1,
      });
      ids.push(r.body['qrcode_id'] as string);
    }
    const visible = await call(owner, 'GET', `/v4/groups/${listGroup}/qr-codes`);
    expect((visible.body['qr_codes'] as Array<{ qrcode_id: string }>).map((q) => q.qrcode_id)).toEqual([
      ids[2],
      ids[0],
    ]);
    expect(visible.body['pagination']).toEqual({ next: '', search_after: '', size: 50 });
    const first = await call(owner, 'GET', `/v4/groups/${listGroup}/qr-codes?archived=both&size=2`);
    expect((first.body['qr_codes'] as Array<{ qrcode_id: string }>).map((q) => q.qrcode_id)).toEqual([ids[2], ids[1]]);
    const next = (first.body['pagination'] as { next: string }).next;
    expect(next).toMatch(new RegExp(`^${stack.url}/v4/groups/${listGroup}/qr-codes\\?.*search_after=`));
    const second = await call(owner, 'GET', next.slice(stack.url.length));
    expect((second.body['qr_codes'] as Array<{ qrcode_id: string }>).map((q) => q.qrcode_id)).toEqual([ids[0]]);
    expect((await call(owner, 'GET', `/v4/groups/${listGroup}/qr-codes?archived=on`)).body['qr_codes']).toEqual([
      expect.objectContaining({ qrcode_id: ids[1] }),
    ]);
    expect((await call(owner, 'GET', `/v4/groups/${listGroup}/qr-codes?qrc_type=shortlink`)).body['qr_codes']).toEqual(
      [],
    );
    expect(await call(owner, 'GET', `/v4/groups/${listGroup}/qr-codes?archived=maybe`)).toMatchObject({
      status: 400,
      body: { message: 'INVALID_ARG_ARCHIVED' },
    });
  });
});

describe('QR code images', () => {
  it('answers by Accept (raw SVG or PNG, or JSON with a data: URI) and by format without one; every image scans', async () => {
    const made = await createQr({
      destination: { long_url: 'https://example.com/image' },
      render_customizations: {
        dot_pattern_type: 'rounded',
        corners: { corner_1: { shape: 'leaf', inner_color: '#c62828', outer_color: '#1a237e' } },
      },
    });
    const id = made['qrcode_id'] as string;
    const content = made['serialized_content'] as string;

    const svg = await call(admin, 'GET', `/v4/qr-codes/${id}/image`, undefined, { accept: 'image/svg+xml' });
    expect(svg.status).toBe(200);
    expect(svg.type).toMatch(/^image\/svg\+xml/);
    expect(svg.raw.toString()).toMatch(/^(<\?xml[^>]*>\s*)?<svg/);
    expect(await decodeQr(await sharp(svg.raw).png().toBuffer())).toBe(content);

    const png = await call(admin, 'GET', `/v4/qr-codes/${id}/image?format=svg`, undefined, { accept: 'image/png' });
    expect(png.type).toBe('image/png');
    expect(await decodeQr(png.raw)).toBe(content);

    const json = await call(admin, 'GET', `/v4/qr-codes/${id}/image?format=png`, undefined, {
      accept: 'application/json',
    });
    const dataUri = json.body['qr_code_image'] as string;
    expect(dataUri.startsWith('data:image/png;base64,')).toBe(true);
    expect(await decodeQr(Buffer.from(dataUri.slice('data:image/png;base64,'.length), 'base64'))).toBe(content);
    expect(
      (
        (await call(admin, 'GET', `/v4/qr-codes/${id}/image`, undefined, { accept: 'application/json' })).body[
          'qr_code_image'
        ] as string
      ).startsWith('data:image/svg+xml;base64,'),
    ).toBe(true);

    const byFormat = await call(admin, 'GET', `/v4/qr-codes/${id}/image?format=png`, undefined, { accept: '*/*' });
    expect(byFormat.type).toBe('image/png');
    // Same input, same bytes (and the second one from the cache).
    expect(
      (await call(admin, 'GET', `/v4/qr-codes/${id}/image?format=png`, undefined, { accept: '*/*' })).raw.equals(
        byFormat.raw,
      ),
    ).toBe(true);
    expect(await call(admin, 'GET', `/v4/qr-codes/${id}/image?format=gif`)).toMatchObject({
      status: 400,
      body: { message: 'INVALID_ARG_FORMAT' },
    });
    // An Accept that takes none of its forms is 406; a wildcard beside it still gets the default.
    expect(await call(admin, 'GET', `/v4/qr-codes/${id}/image`, undefined, { accept: 'image/gif' })).toMatchObject({
      status: 406,
      body: { message: 'NOT_ACCEPTABLE', errors: [] },
    });
    const withWildcard = await call(admin, 'GET', `/v4/qr-codes/${id}/image`, undefined, {
      accept: 'image/gif, */*;q=0.1',
    });
    expect(withWildcard.type).toMatch(/^image\/svg\+xml/);
  });

  it('takes logo uploads (raster, or SVG without scripts) and draws them into codes that still scan', async () => {
    const logoPng = await sharp({ create: { width: 64, height: 64, channels: 4, background: '#e53935' } })
      .png()
      .toBuffer();
    const uploaded = await call(admin, 'POST', '/v4/qr-codes/images', logoPng, { 'content-type': 'image/png' });
    expect(uploaded.status).toBe(201);
    expect(uploaded.body).toEqual({
      image_guid: expect.stringMatching(/^I[0-9a-f]{12}$/),
      media_type: 'image/png',
      width: 64,
      height: 64,
    });
    const scripted = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    expect(
      await call(admin, 'POST', '/v4/qr-codes/images', scripted, { 'content-type': 'image/svg+xml' }),
    ).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_IMAGE' } });
    expect(
      await call(admin, 'POST', '/v4/qr-codes/images', Buffer.from('not an image'), { 'content-type': 'image/png' }),
    ).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_IMAGE' } });
    const made = await createQr({
      destination: { long_url: 'https://example.com/logo' },
      render_customizations: { logo: { image_guid: uploaded.body['image_guid'] } },
    });
    const png = await call(admin, 'GET', `/v4/qr-codes/${made['qrcode_id']}/image?format=png`);
    expect(await decodeQr(png.raw)).toBe(made['serialized_content']);
  });

  it('renders static codes only where enabled, with only the customizations static codes allow', async () => {
    const body = { content: 'WIFI:T:WPA;S:guest;P:hunter2;;', group_guid: groupGuid };
    expect(await call(admin, 'POST', '/v4/qr-codes/static', body)).toMatchObject({
      status: 403,
      body: { message: 'FORBIDDEN' },
    });
    await stack.send(MessageTypeNames.SetLinksOrganizationFeatures, organizationId, {
      organization_id: organizationId,
      static_qr_codes: true,
    });
    const json = await call(admin, 'POST', '/v4/qr-codes/static', body);
    expect(json.status).toBe(200);
    expect(Object.keys(json.body)).toEqual(['image']);
    const svg = Buffer.from(json.body['image'] as string, 'base64');
    expect(svg.toString()).toMatch(/<svg/);
    expect(await decodeQr(await sharp(svg).png().toBuffer())).toBe(body.content);
    const png = await call(
      admin,
      'POST',
      '/v4/qr-codes/static?format=svg',
      { ...body, render_customizations: { dot_pattern_type: 'star', corners: { corner_2: { shape: 'target' } } } },
      { accept: 'image/png' },
    );
    expect(png.type).toBe('image/png');
    expect(await decodeQr(png.raw)).toBe(body.content);
    const pngInJson = await call(admin, 'POST', '/v4/qr-codes/static?format=png', body);
    expect(await decodeQr(Buffer.from(pngInJson.body['image'] as string, 'base64'))).toBe(body.content);
    const refused = await call(admin, 'POST', '/v4/qr-codes/static', {
      ...body,
      render_customizations: {
        gradient: {
          style: 'linear',
          colors: [
            { color: '#000000', offset: 0 },
            { color: '#333333', offset: 100 },
          ],
        },
      },
    });
    expect(refused).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_RENDER_CUSTOMIZATIONS' } });
    expect(await call(admin, 'POST', '/v4/qr-codes/static', { group_guid: groupGuid })).toMatchObject({
      status: 400,
      body: { message: 'INVALID_ARG_CONTENT' },
    });
    // 2 000 characters fit at the lowest error correction, not at the highest.
    const long = { ...body, content: 'x'.repeat(2000) };
    expect(
      (
        await call(admin, 'POST', '/v4/qr-codes/static', {
          ...long,
          render_customizations: { spec_settings: { error_correction: 0 } },
        })
      ).status,
    ).toBe(200);
    expect(
      await call(admin, 'POST', '/v4/qr-codes/static', {
        ...long,
        render_customizations: { spec_settings: { error_correction: 3 } },
      }),
    ).toMatchObject({ status: 400, body: { message: 'INVALID_ARG_CONTENT' } });
  });
});

describe('scans', () => {
  it('counts a redirect through the code as exactly one scan, anything else as a click', async () => {
    const made = await createQr({ destination: { long_url: 'https://example.com/scan-me' } });
    const id = made['qrcode_id'] as string;
    const hash = (made['shortlink_id'] as string).slice(DEFAULT_DOMAIN.length + 1);
    // The redirectors learn the link's code from the link's change event.
    await waitFor(
      async () => {
        const status = await visit(`/${hash}?qr=${id}`);
        return clicks.some((c) => c['id'] === made['shortlink_id'] && c['qr'] === true) ? status : undefined;
      },
      { what: 'a scan', intervalMs: 300 },
    );
    const scans = () => clicks.filter((c) => c['id'] === made['shortlink_id'] && c['qr'] === true);
    // Count once the visits of the loop above have all arrived (no new click for a second).
    let seen = -1;
    await waitFor(
      () => {
        const settled = clicks.length === seen;
        seen = clicks.length;
        return settled || undefined;
      },
      { what: 'the loop visits settled', intervalMs: 1000 },
    );
    const before = scans().length;
    const plain = () => clicks.filter((c) => c['id'] === made['shortlink_id'] && c['qr'] === false);
    // Visits of the loop that came before the redirector knew the code were plain clicks.
    const plainBefore = plain().length;
    expect(await visit(`/${hash}?qr=${id}`)).toBe(301);
    await waitFor(() => (scans().length === before + 1 ? true : undefined), { what: 'exactly one more scan' });
    expect(scans().at(-1)).toMatchObject({
      qr: true,
      qrcode_id: id,
      group_guid: groupGuid,
      organization_id: organizationId,
      bot: false,
    });
    await visit(`/${hash}`);
    await visit(`/${hash}?qr=Qsomeoneelse`);
    await waitFor(() => (plain().length === plainBefore + 2 ? true : undefined), { what: 'two plain clicks' });
    await new Promise((r) => setTimeout(r, 500));
    expect(scans().length).toBe(before + 1);
    expect(plain().length).toBe(plainBefore + 2);
    expect(plain().every((c) => c['qrcode_id'] === null)).toBe(true);

    // A scanned code cannot be deleted: the worker notes the link's first redirect.
    await waitFor(
      async () =>
        (await stack.store.getLink(organizationId, made['shortlink_id'] as string))?.redirected_at ? true : undefined,
      { what: 'the first redirect noted' },
    );
    const refused = await call(admin, 'DELETE', `/v4/qr-codes/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ message: 'QR_CODE_REDIRECTED', resource: 'qr-codes' });
    expect((await call(admin, 'GET', `/v4/qr-codes/${id}`)).status).toBe(200);
  });

  it('deletes a code never scanned with its short link, but never a custom link', async () => {
    const made = await createQr({ destination: { long_url: 'https://example.com/delete-me' } });
    const deleted = await call(admin, 'DELETE', `/v4/qr-codes/${made['qrcode_id']}`);
    expect(deleted).toMatchObject({
      status: 200,
      body: { qrcodes_deleted: [{ id: made['qrcode_id'] }], links_deleted: [{ id: made['shortlink_id'] }] },
    });
    expect((await call(admin, 'GET', `/v4/qr-codes/${made['qrcode_id']}`)).status).toBe(404);
    expect((await call(admin, 'GET', `/v4/shortlinks/${made['shortlink_id']}`)).status).toBe(404);

    await stack.addDomain(organizationId, 'qr.acme.test', [groupGuid]);
    const custom = await call(admin, 'POST', '/v4/shortlinks', {
      long_url: 'https://example.com/custom',
      domain: 'qr.acme.test',
      keyword: 'spring',
    });
    expect(custom.status).toBe(201);
    const ofCustom = await createQr({ destination: { shortlink_id: 'qr.acme.test/spring' } });
    expect(await call(admin, 'DELETE', `/v4/qr-codes/${ofCustom['qrcode_id']}`)).toMatchObject({
      status: 409,
      body: { message: 'QR_CODE_OF_CUSTOM_SHORTLINK' },
    });
  });
});
