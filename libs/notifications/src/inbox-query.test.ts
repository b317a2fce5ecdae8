import { describe, expect, it } from 'vitest';
import { listsOverLimit, matchesFilter, readInboxListQuery, watchQueryOf } from './inbox-query.js';

const A = '0190f1c2-0000-7000-8000-00000000000a';
const B = '0190f1c2-0000-7000-8000-00000000000b';

describe('the inbox query', () => {
  it('reshapes the lists: comma-separated or repeated, items trimmed, empty ones dropped, lower-cased, deduplicated', () => {
    expect(
      readInboxListQuery({
        targets: ` ${B.toUpperCase()} ,\t${A},,`,
        templates: [`${A},${B}`, '', A.toUpperCase()],
        starting_before: B.toUpperCase(),
      }),
    ).toEqual({ targets: [B, A], templates: [A, B], readStatus: 'all', startingBefore: B });
    expect(readInboxListQuery({ read_status: 'unread' })).toEqual({
      targets: [],
      templates: [],
      readStatus: 'unread',
      startingBefore: null,
    });
  });

  it('reads the watch stream’s filters, takes plaintext or else markdown, and leaves the session token alone', () => {
    expect(
      watchQueryOf({ targets: [`${B.toUpperCase()}, ${A}`, A], templates: '', read_status: 'unread', format: 'html' }),
    ).toEqual({ targets: [B, A], templates: [], readStatus: 'unread', format: 'markdown' });
    expect(watchQueryOf({ format: ' plaintext ' })).toEqual({
      targets: [],
      templates: [],
      readStatus: 'all',
      format: 'plaintext',
    });
    const withToken = { format: '', platform_session_token: 'ntf_x' };
    expect(watchQueryOf(withToken)).toEqual({ targets: [], templates: [], readStatus: 'all', format: 'markdown' });
  });

  it('counts a list’s ids over its repeated values, before deduplication: more than 100 is the one thing refused', () => {
    const ids = Array.from({ length: 101 }, (_, i) => `0190f1c2-0000-7000-8000-${String(i).padStart(12, '0')}`);
    const pairs = (list: string[]) =>
      Array.from({ length: list.length / 2 }, (_, i) => `${list[2 * i]},${list[2 * i + 1]}`);
    expect(listsOverLimit({ targets: [...pairs(ids.slice(0, 100)), ids[100]!], templates: ids.slice(1) })).toEqual([
      { field: 'targets', detail: 'targets must be UUIDs, comma-separated or the parameter repeated, at most 100' },
    ]);
    expect(listsOverLimit({ templates: [...Array<string>(100).fill(A), ` ,${A}`] })).toEqual([
      { field: 'templates', detail: 'templates must be UUIDs, comma-separated or the parameter repeated, at most 100' },
    ]);
    expect(
      listsOverLimit({ targets: [...pairs(ids.slice(0, 100)), '', ' , '], templates: ids.slice(0, 100).join(',') }),
    ).toEqual([]);
  });

  it('matches a notification carrying every target, of any listed template, in the read state asked for', () => {
    const n = { targets: [A, B], template_id: A, read_at: null };
    expect(matchesFilter({ targets: [A], templates: [], readStatus: 'unread' }, n)).toBe(true);
    expect(matchesFilter({ targets: [A, B], templates: [B, A], readStatus: 'all' }, n)).toBe(true);
    expect(
      matchesFilter({ targets: ['0190f1c2-0000-7000-8000-00000000000c'], templates: [], readStatus: 'all' }, n),
    ).toBe(false);
    expect(matchesFilter({ targets: [], templates: [B], readStatus: 'all' }, n)).toBe(false);
    expect(matchesFilter({ targets: [], templates: [], readStatus: 'read' }, n)).toBe(false);
  });
});
