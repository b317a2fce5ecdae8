import { describe, expect, it } from 'vitest';
import { rememberingMembers, type MemberRecord, type Members } from './members.js';

function countingMembers(records: MemberRecord[]) {
  let reads = 0;
  const members = {
    get: async (environmentId: string, id: string) => {
      reads++;
      return records.find((r) => r.environment_id === environmentId && r._id === id) ?? null;
    },
  } as Members;
  return { members, reads: () => reads };
}

const member = (id: string): MemberRecord => ({
  _id: id,
  environment_id: 'env',
  username: `user-${id}`,
  name: id,
  email: null,
  role: 'member',
  links: [],
  created_at: new Date(0),
});

describe('rememberingMembers', () => {
  it('reads a member found once, and asks again for one not found', async () => {
    const records: MemberRecord[] = [member('a')];
    const stored = countingMembers(records);
    const members = rememberingMembers(stored.members);
    expect((await members.get('env', 'a'))?.username).toBe('user-a');
    expect((await members.get('env', 'a'))?.username).toBe('user-a');
    expect(await members.get('other-env', 'a')).toBeNull();
    expect(await members.get('env', 'b')).toBeNull();
    records.push(member('b'));
    expect((await members.get('env', 'b'))?.username).toBe('user-b');
    expect(stored.reads()).toBe(4);
  });

  it('keeps at most max members, dropping the oldest', async () => {
    const stored = countingMembers(['a', 'b', 'c'].map(member));
    const members = rememberingMembers(stored.members, 2);
    for (const id of ['a', 'b', 'c', 'a']) await members.get('env', id);
    expect(stored.reads()).toBe(4);
  });
});
