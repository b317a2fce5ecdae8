import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames, type ShortlinkClicked } from '@platform/contracts';
import { createPublisher, type Publisher } from '@platform/kafka';
import { LINKS_TOPICS } from '@platform/links';
import { waitFor } from '@platform/testing';
import { DEFAULT_DOMAIN, startLinksStack, type LinksStack, type LinksUser } from '../support/links-stack.js';
import { redirect, startAggregatorFor } from '../support/links-traffic.js';

// The metrics endpoints of the links gateway, fed by the analytics aggregator through Kafka: real redirects
// through the redirector, and a published stream of clicks at known times whose answers are known exactly.

let stack: LinksStack;
let admin: LinksUser;
let groupGuid: string;
let organizationId: string;
let aggregator: { stop(): Promise<void> };
let publisher: Publisher;

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';

async function call(who: LinksUser, path: string) {
  const response = await fetch(`${stack.url}${path}`, {
    headers: { authorization: `Bearer ${who.token}` },
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : null) as Record<string, unknown> };
}

async function post(path: string, body: unknown) {
  const response = await fetch(`${stack.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  return (await response.json()) as Record<string, unknown>;
}

beforeAll(async () => {
  stack = await startLinksStack();
  ({ organizationId, groupGuid, admin } = await stack.newOrganization());
  aggregator = await startAggregatorFor(stack);
  publisher = createPublisher(stack.kafka, { source: '/metrics-test' });
  await publisher.connect();
}, 180_000);

afterAll(async () => {
  await publisher?.disconnect();
  await aggregator?.stop();
  await stack?.close();
});

describe('from real redirects to the endpoints', () => {
  it('counts every redirect once, by device and referrer, and leaves bots out', async () => {
    const link = await post('/v4/shorten', { long_url: 'https://example.com/metrics-e2e' });
    const [, hash] = (link['id'] as string).split('/');
    const statuses = [];
    for (let i = 0; i < 3; i++)
      statuses.push(
        await redirect(stack, DEFAULT_DOMAIN, `/${hash!}`, { 'user-agent': FIREFOX, referer: 'https://t.co/xyz?s=1' }),
      );
    for (let i = 0; i < 2; i++)
      statuses.push(await redirect(stack, DEFAULT_DOMAIN, `/${hash!}`, { 'user-agent': IPHONE }));
    statuses.push(await redirect(stack, DEFAULT_DOMAIN, `/${hash!}`, { 'user-agent': 'Twitterbot/1.0' }));
    expect(statuses).toEqual([301, 301, 301, 301, 301, 301]);

    const path = `/v4/shortlinks/${link['id'] as string}`;
    const summary = await waitFor(
      async () => {
        const r = await call(admin, `${path}/engagements/summary`);
        return (r.body['total_engagements'] as number) >= 5 && r;
      },
      { what: 'five engagements counted', timeoutMs: 30_000 },
    );
    expect(summary.status).toBe(200);
    expect(summary.body).toMatchObject({
      total_engagements: 5,
      engagements: { lib_button_clicks: 0, clicks: 5, scans: 0 },
      units: -1,
      unit: 'day',
    });
    expect(summary.body['unit_reference']).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/);

    const devices = await call(admin, `${path}/devices`);
    expect(devices.body).toMatchObject({
      facet: 'devices',
      unit: 'day',
      units: -1,
      metrics: [
        { clicks: 3, device_type: 'Desktop' },
        { clicks: 2, device_type: 'Mobile' },
      ],
    });
    const referrers = await call(admin, `${path}/referrers`);
    expect(referrers.body['metrics']).toEqual([
      { clicks: 3, value: 'https://t.co/xyz' },
      { clicks: 2, value: 'direct' },
    ]);
    const days = await call(admin, `${path}/engagements`);
    // units=-1 from the link's creation, today: one day.
    expect(days.body['engagements']).toEqual([
      {
        engagement_count: 5,
        engagements: { lib_button_clicks: 0, clicks: 5, scans: 0 },
        date: expect.stringMatching(/T00:00:00\+0000$/),
      },
    ]);
    // Bitly's clicks calls (the official client's clicks(), clicksByDay() and clicksByMinute()), under both names.
    const clicks = await call(admin, `${path.replace('/v4/shortlinks/', '/v4/bitlinks/')}/clicks`);
    expect(clicks.status).toBe(200);
    expect(clicks.body).toEqual({
      link_clicks: [{ clicks: 5, date: expect.stringMatching(/T00:00:00\+0000$/) }],
      units: -1,
      unit: 'day',
      unit_reference: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0000$/),
    });
    const minutes = await call(admin, `${path}/clicks?unit=minute&units=3`);
    expect((minutes.body['link_clicks'] as unknown[]).length).toBe(3);
    const clicksSummary = await call(admin, `${path}/clicks/summary`);
    expect(clicksSummary.body).toMatchObject({ total_clicks: 5, units: -1, unit: 'day' });
    const top = await call(admin, `/v4/groups/${groupGuid}/engagements/top`);
    expect(top.body['sorted_links']).toContainEqual({ clicks: 5, id: link['id'] });
    expect((top.body['links'] as Array<{ id: string }>).map((l) => l.id)).toContain(link['id']);
    const shortens = await call(admin, `/v4/groups/${groupGuid}/shorten_counts?units=1`);
    expect(shortens.body).toMatchObject({
      facet: 'shorten_counts',
      units: 1,
      metrics: [{ key: expect.stringMatching(/T00:00:00\+0000$/), value: expect.any(Number) }],
    });
  });
});

describe('QR code scans', () => {
  it("counts the scans through a code's URL, apart from the link's clicks, by device OS and browser", async () => {
    const qr = await post('/v4/qr-codes', {
      group_guid: groupGuid,
      destination: { long_url: 'https://example.com/metrics-qr' },
    });
    const id = qr['qrcode_id'] as string;
    const [, hash] = (qr['shortlink_id'] as string).split('/');
    // The redirectors know the code once the link's change event reached them: scan until one counts.
    await waitFor(
      async () => {
        await redirect(stack, DEFAULT_DOMAIN, `/${hash!}?qr=${id}`, { 'user-agent': IPHONE });
        const r = await call(admin, `/v4/qr-codes/${id}/scans/summary`);
        return (r.body['total_scans'] as number) >= 1;
      },
      { what: 'a first scan counted', timeoutMs: 30_000, intervalMs: 500 },
    );
    // Scans of the loop above may still be on their way: count once the total stops moving.
    let last = -1;
    const first = await waitFor(
      async () => {
        const total = (await call(admin, `/v4/qr-codes/${id}/scans/summary`)).body['total_scans'] as number;
        const settled = total === last;
        last = total;
        return settled && total;
      },
      { what: 'the scans settled', timeoutMs: 30_000, intervalMs: 2000 },
    );
    expect(await redirect(stack, DEFAULT_DOMAIN, `/${hash!}?qr=${id}`, { 'user-agent': FIREFOX })).toBe(301);
    expect(await redirect(stack, DEFAULT_DOMAIN, `/${hash!}`, { 'user-agent': FIREFOX })).toBe(301);
    const summary = await waitFor(
      async () => {
        const r = await call(admin, `/v4/qr-codes/${id}/scans/summary`);
        return r.body['total_scans'] === first + 1 && r;
      },
      { what: 'the second scan counted', timeoutMs: 30_000 },
    );
    expect(summary.body).toEqual({
      total_scans: first + 1,
      units: -1,
      unit: 'day',
      unit_reference: expect.stringMatching(/\+0000$/),
    });
    const days = await call(admin, `/v4/qr-codes/${id}/scans`);
    expect(days.body).toEqual({
      scans: [{ scans: first + 1, date: expect.stringMatching(/T00:00:00\+0000$/) }],
      units: -1,
      unit: 'day',
      unit_reference: expect.any(String),
    });
    const os = await call(admin, `/v4/qr-codes/${id}/scans/device_os`);
    expect(os.body).toMatchObject({
      facet: 'device_os',
      metrics: [
        { scans: first, value: 'iOS' },
        { scans: 1, value: 'Linux' },
      ],
    });
    const browsers = await call(admin, `/v4/qr-codes/${id}/scans/browsers`);
    expect(browsers.body['metrics']).toEqual([
      { scans: first, value: 'Safari' },
      { scans: 1, value: 'Firefox' },
    ]);
    // The link's own engagements hold the plain click apart from the scans (a visit of the loop above that came
    // before the redirector knew the code was a click too).
    const link = await waitFor(
      async () => {
        const r = await call(admin, `/v4/shortlinks/${qr['shortlink_id'] as string}/engagements/summary`);
        const counted = r.body['engagements'] as { clicks: number; scans: number };
        return counted.clicks >= 1 && counted.scans === first + 1 && r;
      },
      { what: 'the click counted', timeoutMs: 30_000 },
    );
    expect(link.body['engagements']).toEqual({ clicks: expect.any(Number), scans: first + 1, lib_button_clicks: 0 });
    expect(await call(admin, '/v4/qr-codes/Qnosuchcode/scans')).toMatchObject({ status: 404 });
  });
});

describe('a known stream of clicks', () => {
  let id: string;
  let customId: string;

  beforeAll(async () => {
    id = (await post('/v4/shorten', { long_url: 'https://example.com/known-stream' }))['id'] as string;
    await stack.addDomain(organizationId, 'brand.example', [groupGuid]);
    const custom = await post('/v4/shortlinks', {
      long_url: 'https://example.com/first',
      domain: 'brand.example',
      keyword: 'spring',
    });
    customId = custom['id'] as string;
    const click = (n: number, at: string, extra: Partial<ShortlinkClicked> = {}): ShortlinkClicked => ({
      click_id: `known:${id}:${n}`,
      id,
      organization_id: organizationId,
      group_guid: groupGuid,
      long_url: 'https://example.com/known-stream',
      clicked_at: Date.parse(at),
      referrer: null,
      user_agent: FIREFOX,
      client_ip: '81.2.69.160',
      bot: false,
      qr: false,
      qrcode_id: null,
      passed_params: '',
      ...extra,
    });
    const clicks = [
      click(1, '2024-02-25T23:59:59Z'), // Sunday: the week of 19 February
      click(2, '2024-02-26T00:00:00Z', { client_ip: '89.160.20.112' }), // Monday: a new week
      click(3, '2024-02-29T12:00:00Z', { qr: true }),
      click(4, '2024-02-29T13:00:00Z', { client_ip: '8.8.8.8' }),
      click(5, '2024-03-01T00:30:00Z'),
      click(6, '2024-03-01T00:30:00Z'), // and its repeat below
      { ...click(7, '2024-03-01T00:40:00Z'), id: customId, long_url: 'https://example.com/first' },
      { ...click(8, '2024-03-01T00:41:00Z'), id: customId, long_url: 'https://example.com/second' },
      { ...click(9, '2024-03-01T00:42:00Z'), id: customId, long_url: 'https://example.com/second' },
    ];
    const send = (list: ShortlinkClicked[]) =>
      publisher.publishMany(
        list.map((c) => ({
          topic: LINKS_TOPICS.clicks,
          key: c.id,
          id: c.click_id,
          type: MessageTypeNames.ShortlinkClicked,
          value: c,
        })),
      );
    await send(clicks);
    await send([clicks[5]!]); // the redirector re-published it
    await waitFor(
      async () => {
        const r = await call(
          admin,
          `/v4/groups/${groupGuid}/engagements/over_time?unit=month&units=1&unit_reference=2024-03-15T00:00:00Z`,
        );
        const data = r.body['data'] as Array<{ count: number }> | undefined;
        return data?.[0]?.count === 5;
      },
      { what: 'the known stream counted', timeoutMs: 30_000 },
    );
  });

  const q = (params: Record<string, string>) => `?${new URLSearchParams(params).toString()}`;

  it('answers a time series per unit, most recent first, zeros included (week starts on Monday, the leap day)', async () => {
    const weeks = await call(
      admin,
      `/v4/groups/${groupGuid}/clicks${q({ unit: 'week', units: '3', unit_reference: '2024-03-03T23:59:59Z' })}`,
    );
    expect(weeks.body).toEqual({
      unit: 'week',
      units: 3,
      unit_reference: '2024-03-03T23:59:59+0000',
      data: [
        { ts: '2024-02-26T00:00:00+0000', count: 7 },
        { ts: '2024-02-19T00:00:00+0000', count: 1 },
        { ts: '2024-02-12T00:00:00+0000', count: 0 },
      ],
    });
    const days = await call(
      admin,
      `/v4/shortlinks/${id}/engagements${q({ unit: 'day', units: '3', unit_reference: '2024-03-01T01:00:00+02:00' })}`,
    );
    expect(days.body).toEqual({
      unit: 'day',
      units: 3,
      unit_reference: '2024-02-29T23:00:00+0000',
      engagements: [
        {
          engagement_count: 2,
          engagements: { lib_button_clicks: 0, clicks: 1, scans: 1 },
          date: '2024-02-29T00:00:00+0000',
        },
        {
          engagement_count: 0,
          engagements: { lib_button_clicks: 0, clicks: 0, scans: 0 },
          date: '2024-02-28T00:00:00+0000',
        },
        {
          engagement_count: 0,
          engagements: { lib_button_clicks: 0, clicks: 0, scans: 0 },
          date: '2024-02-27T00:00:00+0000',
        },
      ],
    });
    const months = await call(
      admin,
      `/v4/groups/${groupGuid}/links/clicks/over_time${q({ unit: 'month', units: '2', unit_reference: '2024-03-31T23:59:59Z' })}`,
    );
    expect(months.body['data']).toEqual([
      { ts: '2024-03-01T00:00:00+0000', count: 5 },
      { ts: '2024-02-01T00:00:00+0000', count: 3 },
    ]);
  });

  it('answers units=-1 from the oldest data up to unit_reference', async () => {
    const all = await call(
      admin,
      `/v4/shortlinks/${id}/engagements${q({ unit: 'month', unit_reference: '2024-03-01T00:00:00Z' })}`,
    );
    expect(
      (all.body['engagements'] as Array<{ date: string; engagement_count: number }>).map((e) => [
        e.date,
        e.engagement_count,
      ]),
    ).toEqual([
      ['2024-03-01T00:00:00+0000', 2],
      ['2024-02-01T00:00:00+0000', 4],
    ]);
  });

  it('answers the faceted envelopes, cut to size, with other_metrics for cities', async () => {
    const countries = await call(
      admin,
      `/v4/shortlinks/${id}/countries${q({ unit: 'month', units: '2', unit_reference: '2024-03-01T12:00:00Z', size: '1' })}`,
    );
    expect(countries.body).toEqual({
      unit: 'month',
      units: 2,
      unit_reference: '2024-03-01T12:00:00+0000',
      facet: 'countries',
      metrics: [{ clicks: 3, value: 'GB' }],
    });
    const cities = await call(
      admin,
      `/v4/groups/${groupGuid}/cities${q({ unit: 'month', units: '2', unit_reference: '2024-03-01T12:00:00Z', size: '1' })}`,
    );
    expect(cities.body['metrics']).toEqual([
      { clicks: 6, city: 'Bracknell', subregion: 'Bracknell Forest', region: 'England', country: 'GB' },
    ]);
    expect(cities.body['other_metrics']).toEqual({ other_city_clicks: 1, no_city_clicks: 1 });
    const destinations = await call(
      admin,
      `/v4/custom_shortlinks/${customId}/clicks_by_destination${q({ unit: 'day', units: '1', unit_reference: '2024-03-01T12:00:00Z' })}`,
    );
    expect(destinations.body).toEqual({
      unit: 'day',
      units: 1,
      unit_reference: '2024-03-01T12:00:00+0000',
      facet: 'destinations',
      metrics: [
        { clicks: 2, value: 'https://example.com/second' },
        { clicks: 1, value: 'https://example.com/first' },
      ],
    });
    const notCustom = await call(admin, `/v4/custom_shortlinks/${id}/clicks_by_destination`);
    expect(notCustom.status).toBe(404);
  });

  it("refuses bad parameters with 400 in the API error shape, and others' data with 403", async () => {
    const bad = await call(admin, `/v4/shortlinks/${id}/countries?unit_reference=2024-02-30T00:00:00Z`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      message: 'INVALID_ARG_UNIT_REFERENCE',
      resource: 'shortlinks',
      errors: [{ field: 'unit_reference' }],
    });
    expect((await call(admin, `/v4/groups/${groupGuid}/clicks?unit=year`)).body['message']).toBe('INVALID_ARG_UNIT');
    expect((await call(admin, `/v4/groups/${groupGuid}/countries?size=0`)).status).toBe(400);
    expect((await call(admin, `/v4/groups/${groupGuid}/clicks?units=0`)).status).toBe(400);
    // A + that was not URL-encoded arrives as a space: refused, not guessed.
    expect((await call(admin, `/v4/groups/${groupGuid}/clicks?unit_reference=2024-03-01T00:00:00+02:00`)).status).toBe(
      400,
    );
    const stranger = (await stack.newOrganization()).admin;
    expect((await call(stranger, `/v4/groups/${groupGuid}/clicks`)).status).toBe(403);
    expect((await call(stranger, `/v4/shortlinks/${id}/countries`)).status).toBe(404);
    expect((await call(admin, `/v4/shortlinks/${DEFAULT_DOMAIN}/nope1234/countries`)).status).toBe(404);
  });
});
