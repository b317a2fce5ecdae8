import { describe, expect, it } from 'vitest';
import { MessageTypeNames } from '@platform/contracts';
import {
  presentTeam,
  type MembershipDoc,
  type SchedulingStore,
  type SchedulingWriter,
  type TeamDoc,
} from '@platform/scheduling';
import { storedAggregate } from '@platform/scheduling/testing';
import { fake, fakeClock, fakeMessage } from '@platform/testing';
import type { HandlerDeps } from '../deps.js';
import { dateOverrides, familyRecordHandler, number, requiredText, text, weeklyRanges } from './family-record.js';
import { teamCommand } from './team-command.js';

const at = new Date('2030-01-07T09:00:00Z');
const aggregate = storedAggregate(at);

const teamRecord = (action: string, payload: unknown, target_id: string | null = '5') =>
  fakeMessage(MessageTypeNames.TeamCommand, {
    action,
    actor_user_id: 'user_owner',
    target_id,
    scope_team_id: null,
    scope_org_id: null,
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    requested_at: at.getTime(),
  });

const team: TeamDoc = {
  ...aggregate,
  _id: '5',
  id: 5,
  parent_id: null,
  is_organization: false,
  name: 'Alpha',
  slug: 'alpha',
  logo_url: 'https://example.com/logo.png',
  bio: 'We meet.',
  time_zone: 'Europe/London',
  week_start: 'Monday',
};
const ownership: MembershipDoc = {
  ...aggregate,
  _id: '9',
  id: 9,
  team_id: 5,
  user_id: 'user_owner',
  role: 'OWNER',
  accepted: true,
};

function depsWith(store: Partial<SchedulingStore>, writer: Partial<SchedulingWriter> = {}): HandlerDeps {
  return {
    store: fake<SchedulingStore>(store),
    writer: fake<SchedulingWriter>(writer),
    users: { get: async () => null },
    webUrl: 'https://scheduling.test',
    inviteTtlSeconds: 3600,
    clock: fakeClock(at),
  };
}

describe('a deprecated family record', () => {
  const deps = depsWith({});
  const teamView = presentTeam(team);

  it("is handled by its action's reader, with its body parsed", async () => {
    const read: unknown[] = [];
    const handle = familyRecordHandler<(typeof MessageTypeNames)['TeamCommand']>('team', {
      delete: async (_deps, message, payload) => {
        read.push([message.value.target_id, payload]);
        return teamView;
      },
    });
    await expect(handle(deps, teamRecord('delete', { why: 'done' }))).resolves.toBe(teamView);
    expect(read).toEqual([['5', { why: 'done' }]]);
  });

  it('is refused with an unknown action (inherited names too), or a body that is not a JSON object', async () => {
    const handle = familyRecordHandler<(typeof MessageTypeNames)['TeamCommand']>('team', {
      delete: async () => teamView,
    });
    for (const action of ['rename', 'toString', '__proto__'])
      await expect(handle(deps, teamRecord(action, {}))).rejects.toMatchObject({
        code: 'bad_request',
        message: `Unknown team action ${action}.`,
      });
    for (const payload of ['{not json', '[1]', 'null'])
      await expect(handle(deps, teamRecord('delete', payload))).rejects.toMatchObject({
        code: 'bad_request',
        message: 'The request body must be a JSON object.',
      });
  });

  it('has its members read as the record holds them: null when absent, refused when of another type', () => {
    expect(text({ name: ' Alpha ' }, 'name')).toBe(' Alpha ');
    expect([text({}, 'name'), text({ name: null }, 'name'), number({}, 'lengthInMinutes')]).toEqual([null, null, null]);
    expect(() => text({ name: 5 }, 'name')).toThrow('name must be a string.');
    expect(() => requiredText({}, 'name')).toThrow('name is required.');
    expect(() => number({ lengthInMinutes: '30' }, 'lengthInMinutes')).toThrow('lengthInMinutes must be a number.');
  });

  it('has its availability read into the weekly ranges and date overrides of the record', () => {
    const payload = {
      availability: [{ days: ['Monday'], startTime: '09:00', endTime: '17:00' }],
      overrides: [{ date: '2030-01-14', startTime: '00:00', endTime: '00:00' }],
    };
    expect(weeklyRanges(payload)).toEqual([{ days: ['Monday'], start_time: '09:00', end_time: '17:00' }]);
    expect(dateOverrides(payload)).toEqual([{ date: '2030-01-14', start_time: '00:00', end_time: '00:00' }]);
    expect([weeklyRanges({}), dateOverrides({ overrides: null })]).toEqual([null, null]);
    expect(() => weeklyRanges({ availability: [{ days: 'Monday', startTime: '09:00', endTime: '17:00' }] })).toThrow(
      'availability must be a list of {days, startTime, endTime}.',
    );
    expect(() => dateOverrides({ overrides: 'none' })).toThrow(
      'overrides must be a list of {date, startTime, endTime}.',
    );
  });
});

describe('TeamCommand', () => {
  it('updates a team as UpdateTeam does: a logoUrl or bio sent as null is cleared, one left out is kept', async () => {
    const teams = fake<SchedulingWriter['teams']>({ source: 'sched_teams', change: async () => true });
    const deps = depsWith(
      { membershipsOfUser: async () => [ownership], team: async () => team, slugTaken: async () => false },
      { teams },
    );
    const reply = await teamCommand(deps, teamRecord('update', { name: ' Beta ', logoUrl: null }));
    expect(reply).toMatchObject({ id: 5, name: 'Beta', slug: 'beta', logoUrl: null, bio: 'We meet.' });
    const [filter, fields] = teams.calls[0]!.args as [unknown, Record<string, unknown>];
    expect(filter).toEqual({ _id: '5' });
    expect(fields).toEqual({ name: 'Beta', slug: 'beta', logo_url: null, updated_at: at });
  });

  it('answers a create without an access token as one without a token is answered', async () => {
    const message = teamRecord('create', { name: 'Alpha' }, null);
    message.value.actor_user_id = null;
    await expect(teamCommand(depsWith({}), message)).rejects.toMatchObject({ code: 'missing_token' });
  });
});
