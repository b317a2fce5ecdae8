import Bowser from 'bowser';
import { isbot } from 'isbot';

/** Bitly's device types. */
export type DeviceType = 'Desktop' | 'Mobile' | 'Tablet' | 'TV' | 'Other';

export interface ClientSoftware {
  device: DeviceType;
  os: string;
  browser: string;
  /** A crawler, preview fetcher or script by its user agent (isbot's list). */
  bot: boolean;
}

const DEVICES: Record<string, DeviceType> = { desktop: 'Desktop', mobile: 'Mobile', tablet: 'Tablet', tv: 'TV' };
const UNKNOWN = 'Unknown';

/** Device type, OS and browser from a user agent (bowser), and whether it is a bot (isbot). */
export function readUserAgent(userAgent: string | null | undefined): ClientSoftware {
  const ua = userAgent?.slice(0, 1024).trim() ?? '';
  if (ua.length === 0) return { device: 'Other', os: UNKNOWN, browser: UNKNOWN, bot: true };
  const parsed = Bowser.parse(ua);
  return {
    device: DEVICES[parsed.platform.type ?? ''] ?? 'Other',
    os: parsed.os.name || UNKNOWN,
    browser: parsed.browser.name || UNKNOWN,
    bot: parsed.platform.type === 'bot' || isbot(ua),
  };
}
