import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { startNotificationsStack, type NotificationsStack } from '../support/notifications-stack.js';
import { startUsermgmtStack, type UsermgmtStack } from '../support/usermgmt-stack.js';

/**
 * The API reference each gateway serves at /docs, opened in the real Chromium the browser tests use: it loads
 * with no network beyond the gateway (Swagger UI's files come from the package) and lists every operation of
 * the gateway's /openapi.json.
 */

let browser: Browser;
let usermgmt: UsermgmtStack;
let notifications: NotificationsStack;

beforeAll(async () => {
  [usermgmt, notifications] = await Promise.all([startUsermgmtStack(), startNotificationsStack()]);
  browser = await launchChromium();
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all([usermgmt?.close(), notifications?.close()]);
});

const gateways = [
  { name: 'usermgmt-gateway', base: () => `http://127.0.0.1:${(usermgmt.app.server.address() as AddressInfo).port}` },
  { name: 'notifications-gateway', base: () => notifications.urls[0] },
];

describe('the API reference at /docs', () => {
  for (const gateway of gateways) {
    it(`${gateway.name} lists every operation of its OpenAPI document`, async () => {
      const base = gateway.base();
      const document = (await (await fetch(`${base}/openapi.json`)).json()) as {
        info: { title: string };
        paths: Record<string, Record<string, unknown>>;
      };
      const operations = Object.values(document.paths).reduce(
        (n, methods) => n + Object.keys(methods).filter((m) => m !== 'head').length,
        0,
      );
      const page = await browser.newPage();
      const outside: string[] = [];
      page.on('request', (request) => {
        if (!request.url().startsWith(base) && !request.url().startsWith('data:')) outside.push(request.url());
      });
      try {
        const response = await page.goto(`${base}/docs`, { waitUntil: 'networkidle' });
        expect(response?.status()).toBe(200);
        await page.waitForSelector('.opblock', { timeout: 20_000 });
        expect(await page.locator('.info .title').innerText()).toContain(document.info.title);
        expect(await page.locator('.opblock').count()).toBe(operations);
        expect(outside).toEqual([]);
      } finally {
        await page.close();
      }
    }, 60_000);
  }
});
