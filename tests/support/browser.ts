import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (deploy/local/chromium.sh), or the one CHROMIUM_PATH names. */
export const CHROMIUM = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/**
 * Headless Chromium as the browser tests drive it: no sandbox (the tests run as root), and none of the
 * background connections a closed network refuses.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-background-networking',
      '--no-first-run',
    ],
  });
}
