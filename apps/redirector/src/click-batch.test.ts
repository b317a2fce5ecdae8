import type { ShortlinkClicked } from '@platform/contracts';
import { describe, expect, it } from 'vitest';
import { packClicks, transferables, unpackClicks } from './click-batch.js';

const click = (i: number, overrides: Partial<ShortlinkClicked> = {}): ShortlinkClicked => ({
  click_id: `r:b:${i}`,
  id: `sho.rt/h${i % 2}`,
  organization_id: 'o_1',
  group_guid: 'Bg1',
  long_url: `https://example.com/${i % 2}`,
  clicked_at: 1_764_000_000_000 + i,
  referrer: 'https://news.example.com/',
  user_agent: 'Mozilla/5.0',
  client_ip: '203.0.113.7',
  bot: false,
  qr: false,
  qrcode_id: null,
  passed_params: '',
  ...overrides,
});

describe('a packed click batch', () => {
  it('unpacks to the same clicks, nulls, flags and QR codes included', () => {
    const clicks = [
      click(0),
      click(1, { referrer: null, user_agent: null, client_ip: null, bot: true }),
      click(2, { qr: true, qrcode_id: 'q_9', user_agent: 'Googlebot/2.1', bot: true }),
      click(3, { referrer: '', user_agent: 'ünïcødé ✓' }),
    ];
    expect(unpackClicks(packClicks(clicks))).toEqual(clicks);
  });

  it('carries each distinct string once', () => {
    const packed = packClicks(Array.from({ length: 100 }, (_, i) => click(i)));
    // 100 click ids; two links (id, destination); one organization, group, referrer, user agent, address, query.
    expect(packed.strings).toHaveLength(100 + 2 * 2 + 6);
  });

  it('moves its rows: after the transfer the sending side holds none of them', () => {
    const packed = packClicks([click(0), click(1)]);
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(packed, transferables(packed));
    port1.close();
    port2.close();
    expect([packed.refs.length, packed.clickedAt.length, packed.flags.length]).toEqual([0, 0, 0]);
  });

  it('is empty for no clicks', () => {
    expect(unpackClicks(packClicks([]))).toEqual([]);
  });

  it('refuses a batch whose rows do not match its strings', () => {
    const packed = packClicks([click(0)]);
    expect(() => unpackClicks({ ...packed, strings: packed.strings.slice(0, 2) })).toThrow(/refers to string/);
    expect(() => unpackClicks({ ...packed, flags: new Uint8Array(2) })).toThrow(/1 clicks/);
  });
});
