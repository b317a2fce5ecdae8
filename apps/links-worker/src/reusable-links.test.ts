import { describe, expect, it } from 'vitest';
import { MessageTypeNames, type MessageTypes } from '@platform/contracts';
import type { BatchMessage } from '@platform/kafka';
import { reuseKeyOf, type LinkDoc } from '@platform/links';
import { primedReusableLinks } from './reusable-links.js';

type Shorten = MessageTypes[typeof MessageTypeNames.CreateShortlink];

const ORG = 'o_1';
const GROUP = 'Bg1';

function shorten(id: string, longUrl: string, extra: Partial<Shorten> = {}): BatchMessage {
  const value = {
    organization_id: ORG,
    group_guid: GROUP,
    long_url: longUrl,
    force_new_link: false,
    keyword: null,
    ...extra,
  } as Shorten;
  return {
    offset: '0',
    key: GROUP,
    type: MessageTypeNames.CreateShortlink,
    value,
    meta: { id, type: MessageTypeNames.CreateShortlink, source: '/t', time: '', schema: '', raw: {} },
  };
}

function other(id: string): BatchMessage {
  return { ...shorten(id, 'https://x.test/'), type: MessageTypeNames.UpdateShortlink } as BatchMessage;
}

const link = (id: string, longUrl: string) =>
  ({
    _id: id,
    organization_id: ORG,
    group_guid: GROUP,
    long_url: longUrl,
    reuse_key: reuseKeyOf(GROUP, longUrl),
  }) as LinkDoc;

/** A store that answers from a list of links and counts its reads. */
function storeOf(stored: LinkDoc[]) {
  const reads = { one: 0, many: [] as string[][] };
  return {
    reads,
    store: {
      reusable: async (_org: string, group: string, longUrl: string) => {
        reads.one++;
        return stored.find((l) => l.reuse_key === reuseKeyOf(group, longUrl)) ?? null;
      },
      reusableAmong: async (_org: string, keys: readonly string[]) => {
        reads.many.push([...keys]);
        return new Map(stored.filter((l) => keys.includes(l.reuse_key!)).map((l) => [l.reuse_key!, l]));
      },
    },
  };
}

const lookup = (longUrl: string) => ({ organization_id: ORG, group_guid: GROUP, long_url: longUrl });

describe('primedReusableLinks', () => {
  it("answers a batch's leading shortens from one read, and the later ones with a link made before them", async () => {
    const existing = link('bit.ly/a', 'https://a.test/');
    const { store, reads } = storeOf([existing]);
    const reusables = primedReusableLinks(store);
    const forget = await reusables.prime([
      shorten('c1', 'https://a.test/'),
      shorten('c2', 'https://b.test/'),
      shorten('c3', 'https://b.test/'),
      shorten('c4', 'https://c.test/', { force_new_link: true }),
      other('c5'),
      shorten('c6', 'https://b.test/'),
    ]);
    expect(reads.many).toEqual([[reuseKeyOf(GROUP, 'https://a.test/'), reuseKeyOf(GROUP, 'https://b.test/')]]);

    expect(await reusables.get(lookup('https://a.test/'), 'c1')).toBe(existing);
    expect(await reusables.get(lookup('https://b.test/'), 'c2')).toBeNull();
    const made = link('bit.ly/b', 'https://b.test/');
    reusables.created(made);
    expect(await reusables.get(lookup('https://b.test/'), 'c3')).toBe(made);
    expect(reads.one).toBe(0);

    // After another command (which may have changed a link), a shorten reads the store.
    expect(await reusables.get(lookup('https://b.test/'), 'c6')).toBeNull();
    expect(reads.one).toBe(1);

    forget!();
    expect(await reusables.get(lookup('https://a.test/'), 'c1')).toBe(existing);
    expect(reads.one).toBe(2);
  });

  it('reads nothing ahead for a batch that does not start with a reusable shorten', async () => {
    const { store, reads } = storeOf([]);
    const reusables = primedReusableLinks(store);
    expect(await reusables.prime([other('c1'), shorten('c2', 'https://a.test/')])).toBeUndefined();
    expect(await reusables.prime([shorten('c3', 'https://a.test/', { keyword: 'mine' })])).toBeUndefined();
    expect(reads.many).toEqual([]);
  });
});
