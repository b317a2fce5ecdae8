import { describe, expect, it } from 'vitest';
import { matchesFilter, readInboxListQuery, watchQueryOf } from './inbox-query.js';

const A = '0190f1c2-0000-7000-8000-00000000000a';
const B = '0190f1c2-0000-7000-8000-00000000000b';

describe('the inbox query', () => {
  it('reads UUID lists comma-separated or repeated, trims items, and takes an empty value as absent', () => {
    expect(
      readInboxListQuery({ targets: `${A}, ${B}`, templates: [A, ''], read_status: '', starting_before: '' }),
    ).toEqual({
      ok: true,
      value: { targets: [A, B], templates: [A], readStatus: 'all', startingBefore: null },
    });
  });

  it('names every field at fault: bad UUIDs, a repeated single value, an unknown status or parameter', () => {
    const result = readInboxListQuery({ targets: 'nope', read_status: 'maybe', starting_before: [A, B], page: '2' });
    expect(result).toEqual({
      ok: false,
      validations: [
        { field: 'page', detail: '"page" is not a valid query param' },
        { field: 'targets', detail: 'Query param "targets" has invalid values: invalid UUID "nope"' },
        { field: 'read_status', detail: 'Query param "read_status" must be one of all, read, unread; got "maybe".' },
        {
          field: 'starting_before',
          detail:
            'Query param "starting_before" provided more than once, found 2 times. Only provide 1 instance of this query param.',
        },
      ],
    });
    expect(readInboxListQuery({ starting_before: 'x' })).toMatchObject({
      ok: false,
      validations: [{ field: 'starting_before', detail: 'Query param "starting_before" must be a valid uuid' }],
    });
  });

  it('reads the watch stream’s filters, takes plaintext or else markdown, and leaves the session token alone', () => {
    expect(
      watchQueryOf({ targets: [`${B.toUpperCase()}, ${A}`, A], templates: '', read_status: 'unread', format: 'html' }),
    ).toEqual({ ok: true, value: { targets: [B, A], templates: [], readStatus: 'unread', format: 'markdown' } });
    expect(watchQueryOf({ format: ' plaintext ' })).toEqual({
      ok: true,
      value: { targets: [], templates: [], readStatus: 'all', format: 'plaintext' },
    });
    const withToken = { format: '', platform_session_token: 'ntf_x' };
    expect(watchQueryOf(withToken)).toMatchObject({
      ok: true,
      value: { format: 'markdown' },
    });
  });

  it('refuses more than 100 ids in one watch filter, which the route schema cannot count', () => {
    const ids = Array.from({ length: 101 }, (_, i) => `0190f1c2-0000-7000-8000-${String(i).padStart(12, '0')}`);
    expect(watchQueryOf({ targets: ids.join(','), templates: ids.slice(1) })).toEqual({
      ok: false,
      validations: [{ field: 'targets', detail: 'Query param "targets" has more than 100 values.' }],
    });
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
