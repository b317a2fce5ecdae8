import type { ShortlinkClicked } from '@platform/contracts';

/**
 * A batch of clicks as it crosses to the publisher thread: each distinct string once, and the clicks as rows
 * of numbers in typed arrays that are transferred, not copied. A structured clone of the click objects writes
 * every property name and value of every click and builds every object again on the other side; it took ~10 %
 * of the redirect thread under load, though a batch repeats most of its strings (a link's id, organization,
 * group and destination; the common user agents and referrers).
 */
export interface PackedClicks {
  strings: string[];
  /** Per click, `STRING_FIELDS.length` indexes into `strings` (-1: null). */
  refs: Int32Array<ArrayBuffer>;
  clickedAt: Float64Array<ArrayBuffer>;
  /** Per click: 1 bot, 2 qr. */
  flags: Uint8Array<ArrayBuffer>;
}

const STRING_FIELDS = [
  'click_id',
  'id',
  'organization_id',
  'group_guid',
  'long_url',
  'referrer',
  'user_agent',
  'client_ip',
  'qrcode_id',
  'passed_params',
] as const;
// A field added to the contract and not carried here fails the build, not the data.
type Uncarried = Exclude<keyof ShortlinkClicked, (typeof STRING_FIELDS)[number] | 'clicked_at' | 'bot' | 'qr'>;
const everyFieldCarried: [Uncarried] extends [never] ? true : Uncarried = true;
void everyFieldCarried;

const WIDTH = STRING_FIELDS.length;
const BOT = 1;
const QR = 2;

export function packClicks(clicks: readonly ShortlinkClicked[]): PackedClicks {
  const n = clicks.length;
  const strings: string[] = [];
  const index = new Map<string, number>();
  const refs = new Int32Array(n * WIDTH);
  const clickedAt = new Float64Array(n);
  const flags = new Uint8Array(n);
  const ref = (value: string | null): number => {
    if (value === null) return -1;
    let at = index.get(value);
    if (at === undefined) {
      at = strings.push(value) - 1;
      index.set(value, at);
    }
    return at;
  };
  for (let k = 0; k < n; k++) {
    const click = clicks[k]!;
    const row = k * WIDTH;
    // Unique by construction: no lookup.
    refs[row] = strings.push(click.click_id) - 1;
    refs[row + 1] = ref(click.id);
    refs[row + 2] = ref(click.organization_id);
    refs[row + 3] = ref(click.group_guid);
    refs[row + 4] = ref(click.long_url);
    refs[row + 5] = ref(click.referrer);
    refs[row + 6] = ref(click.user_agent);
    refs[row + 7] = ref(click.client_ip);
    refs[row + 8] = ref(click.qrcode_id);
    refs[row + 9] = ref(click.passed_params);
    clickedAt[k] = click.clicked_at;
    flags[k] = (click.bot ? BOT : 0) | (click.qr ? QR : 0);
  }
  return { strings, refs, clickedAt, flags };
}

/** What `postMessage` moves instead of copying. */
export const transferables = (packed: PackedClicks) => [
  packed.refs.buffer,
  packed.clickedAt.buffer,
  packed.flags.buffer,
];

export function unpackClicks({ strings, refs, clickedAt, flags }: PackedClicks): ShortlinkClicked[] {
  const n = clickedAt.length;
  if (refs.length !== n * WIDTH || flags.length !== n)
    throw new Error(`a packed click batch of ${n} clicks has ${refs.length} references and ${flags.length} flags`);
  const text = (at: number): string => {
    const value = strings[at];
    if (value === undefined) throw new Error(`a packed click batch refers to string ${at} of ${strings.length}`);
    return value;
  };
  const nullable = (at: number) => (at === -1 ? null : text(at));
  const clicks = new Array<ShortlinkClicked>(n);
  for (let k = 0; k < n; k++) {
    const row = k * WIDTH;
    clicks[k] = {
      click_id: text(refs[row]!),
      id: text(refs[row + 1]!),
      organization_id: text(refs[row + 2]!),
      group_guid: text(refs[row + 3]!),
      long_url: text(refs[row + 4]!),
      clicked_at: clickedAt[k]!,
      referrer: nullable(refs[row + 5]!),
      user_agent: nullable(refs[row + 6]!),
      client_ip: nullable(refs[row + 7]!),
      bot: (flags[k]! & BOT) !== 0,
      qr: (flags[k]! & QR) !== 0,
      qrcode_id: nullable(refs[row + 8]!),
      passed_params: text(refs[row + 9]!),
    };
  }
  return clicks;
}
