import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { MessageTypeNames, type ShortlinkClicked } from '@platform/contracts';
import { createPublisher } from '@platform/kafka';
import { LINKS_TOPICS } from '@platform/links';
import { waitFor } from '@platform/testing';
import { startLinksStack, type LinksStack, type LinksUser } from '../support/links-stack.js';
import { startAggregatorFor } from '../support/links-traffic.js';

// The analytics pages in Debian's Chromium with JavaScript off: log in with the access token, then a link's
// and its group's clicks and scans over 30 days as an SVG chart with top countries, referrers and devices.
// Screenshots go to the test output (their paths are printed).

const SHOTS = path.join(tmpdir(), 'platform-test-screenshots');
let stack: LinksStack;
let admin: LinksUser;
let groupGuid: string;
let aggregator: { stop(): Promise<void> };
let browser: Browser;
let linkId: string;

beforeAll(async () => {
  stack = await startLinksStack();
  let organizationId: string;
  ({ organizationId, groupGuid, admin } = await stack.newOrganization());
  const name = stack.mongo.name;
  aggregator = await startAggregatorFor(stack);

  const response = await fetch(`${stack.url}/v4/shorten`, {
    method: 'POST',
    headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ long_url: 'https://example.com/spring-sale' }),
  });
  linkId = ((await response.json()) as { id: string }).id;
  // 30 days of clicks, more each day, with scans on Sundays; three countries, two referrers, two devices.
  const today = Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate());
  const clicks: ShortlinkClicked[] = [];
  for (let day = 0; day < 30; day++) {
    const at = today - (29 - day) * 86_400_000 + 12 * 3600_000;
    for (let i = 0; i < 5 + day; i++) {
      clicks.push({
        click_id: `${name}:${day}:${i}`,
        id: linkId,
        organization_id: organizationId,
        group_guid: groupGuid,
        long_url: 'https://example.com/spring-sale',
        clicked_at: Math.min(Date.now(), at + i * 1000),
        referrer: i % 3 === 0 ? 'https://t.co/spring' : null,
        user_agent:
          i % 4 === 0
            ? 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1'
            : 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
        client_ip: ['81.2.69.160', '89.160.20.112', '8.8.8.8'][i % 3]!,
        bot: false,
        qr: new Date(at).getUTCDay() === 0 && i % 2 === 0,
        qrcode_id: null,
        passed_params: '',
      });
    }
  }
  const publisher = createPublisher(stack.kafka, { source: '/charts-test' });
  await publisher.connect();
  await publisher.publishMany(
    clicks.map((c) => ({
      topic: LINKS_TOPICS.clicks,
      key: c.id,
      id: c.click_id,
      type: MessageTypeNames.ShortlinkClicked,
      value: c,
    })),
  );
  await publisher.disconnect();
  await waitFor(
    async () => {
      const r = await fetch(`${stack.url}/v4/shortlinks/${linkId}/engagements/summary?unit=day&units=30`, {
        headers: { authorization: admin.token },
      });
      return ((await r.json()) as { total_engagements: number }).total_engagements === clicks.length;
    },
    { what: 'the clicks counted', timeoutMs: 30_000 },
  );
  browser = await launchChromium();
  mkdirSync(SHOTS, { recursive: true });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await aggregator?.stop();
  await stack?.close();
});

describe('analytics pages', () => {
  it('asks for the token once, then shows the link chart and top lists without JavaScript', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 1000 } });
    const page = await context.newPage();
    await page.goto(`${stack.url}/charts/shortlinks/${linkId}`);
    expect(new URL(page.url()).pathname).toBe('/charts/login');
    await page.fill('#token', 'lk_wrong');
    await page.click('button[type=submit]');
    expect(await page.textContent('[role=alert]')).toContain('not valid');
    await page.fill('#token', admin.token);
    await page.click('button[type=submit]');
    expect(new URL(page.url()).pathname).toBe(`/charts/shortlinks/${linkId}`);

    expect(await page.textContent('h1')).toBe(linkId);
    const total = (5 + 34) * 15; // 5 + 6 + ... + 34
    expect(await page.textContent('.totals')).toContain(total.toLocaleString('en-US'));
    // One bar per day with clicks, and stacked scan bars on Sundays.
    expect(await page.locator('svg rect.clicks').count()).toBe(30);
    expect(await page.locator('svg rect.scans').count()).toBeGreaterThanOrEqual(4);
    expect(await page.locator('svg[role=img]').getAttribute('aria-label')).toBe(
      `${total.toLocaleString('en-US')} engagements over 30 days`,
    );
    const lists = await page.locator('.list').allTextContents();
    expect(lists[0]).toMatch(/Top countries.*GB.*SE.*US/s);
    expect(lists[1]).toMatch(/Top referrers.*direct.*https:\/\/t\.co\/spring/s);
    expect(lists[2]).toMatch(/Devices.*Desktop.*Mobile/s);
    const shot = path.join(SHOTS, 'analytics-link-30-days.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`screenshot: ${shot}`);

    // Other ranges are plain links; the group page lists the link among its top links.
    await page.click('nav.ranges >> text=Last 12 months');
    expect(await page.locator('svg rect.clicks').count()).toBeGreaterThanOrEqual(1);
    await page.click('a.back');
    expect(new URL(page.url()).pathname).toBe(`/charts/groups/${groupGuid}`);
    expect(await page.locator('.list', { hasText: 'Top links' }).textContent()).toContain(linkId);
    const groupShot = path.join(SHOTS, 'analytics-group-30-days.png');
    await page.screenshot({ path: groupShot, fullPage: true });
    console.log(`screenshot: ${groupShot}`);
    await context.close();
  });

  it('keeps others out and refuses a bad range', async () => {
    const stranger = (await stack.newOrganization()).admin;
    const asStranger = await fetch(`${stack.url}/charts/groups/${groupGuid}`, {
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(asStranger.status).toBe(403);
    const link = await fetch(`${stack.url}/charts/shortlinks/${linkId}`, {
      headers: { authorization: `Bearer ${stranger.token}` },
    });
    expect(link.status).toBe(404);
    const bad = await fetch(`${stack.url}/charts/shortlinks/${linkId}?unit_reference=yesterday`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get('content-type')).toContain('text/html');
    const anonymous = await fetch(`${stack.url}/charts/groups/${groupGuid}`, { redirect: 'manual' });
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(
      `/charts/login?next=${encodeURIComponent(`/charts/groups/${groupGuid}`)}`,
    );
  });
});
