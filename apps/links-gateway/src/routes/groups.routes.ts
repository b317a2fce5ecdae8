import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { NotAllowedError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import {
  USAGE_LIMITS,
  USAGE_UNITS,
  bitlyTime,
  defaultUsageStart,
  nextUnit,
  parseUsageDate,
  unitStart,
  unitStarts,
  type GroupDoc,
  type UsageUnit,
} from '@platform/links';
import { accessTo, type GroupAccess } from '../access.js';
import { bodyOf, invalid, present, stringField, stringListField } from '../body.js';
import type { GatewayDeps } from '../deps.js';

type GroupParams = { Params: { group_guid: string } };

const adminOnly = (access: GroupAccess) => {
  if (access.role !== 'GROUP_ADMIN')
    throw new NotAllowedError('FORBIDDEN', 'Only an admin of the group may change it.');
};

/** A query parameter that may repeat (`name=a&name=b`) or be comma separated. */
const many = (v: unknown): string[] =>
  (Array.isArray(v) ? v : v === undefined ? [] : [v])
    .flatMap((x) => String(x).split(','))
    .map((x) => x.trim())
    .filter(Boolean);

function limitNames(raw: unknown) {
  const names = many(raw);
  const unknown = names.find((n) => !USAGE_LIMITS.some((l) => l.name === n));
  if (unknown !== undefined)
    throw invalid('name', `${unknown} is not a limit name (${USAGE_LIMITS.map((l) => l.name).join(', ')})`);
  return USAGE_LIMITS.filter((l) => names.length === 0 || names.includes(l.name));
}

export function groupRoutes(app: HttpApp, deps: GatewayDeps) {
  const groupJson = (group: GroupDoc, userId: string) => ({
    references: { organization: `${deps.publicBaseUrl}/v4/organizations/${group.organization_id}` },
    name: group.name,
    guid: group._id,
    created: bitlyTime(group.created_at),
    modified: bitlyTime(group.modified_at),
    is_active: group.is_active,
    role: group.members.find((m) => m.user_id === userId)?.role ?? '',
    organization_guid: group.organization_id,
    bsds: group.bsds,
  });
  const preferencesJson = (group: GroupDoc) => ({
    group_guid: group._id,
    domain_preference: group.domain_preference ?? deps.defaultDomain,
  });

  async function updateGroup(
    caller: MemberRecord,
    group: GroupDoc,
    fields: { name?: string | null; bsds?: string[] | null; domain_preference?: string | null },
  ) {
    await deps.commands.send(MessageTypeNames.UpdateLinksGroup, group._id, {
      organization_id: caller.environment_id,
      user_id: caller._id,
      group_guid: group._id,
      name: fields.name ?? null,
      bsds: fields.bsds ?? null,
      domain_preference: fields.domain_preference ?? null,
      clear_domain_preference: false,
      default_domain: deps.defaultDomain,
    });
    return (await deps.store.getGroup(group._id))!;
  }

  app.get<{ Querystring: { organization_guid?: string } }>(
    '/v4/groups',
    { schema: { summary: "The user's groups", tags: ['groups'] } },
    async (request) => {
      const caller = request.caller!;
      const groups = (await deps.store.groupsOfUser(caller._id)).filter(
        (g) =>
          g.organization_id === caller.environment_id &&
          (!request.query.organization_guid || g.organization_id === request.query.organization_guid),
      );
      return { groups: groups.map((g) => groupJson(g, caller._id)) };
    },
  );

  app.get<GroupParams>(
    '/v4/groups/:group_guid',
    { schema: { summary: 'A group', tags: ['groups'] } },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      return groupJson(group, request.caller!._id);
    },
  );

  app.patch<GroupParams>(
    '/v4/groups/:group_guid',
    { schema: { summary: 'Rename a group or set its branded domains (admins)', tags: ['groups'] } },
    async (request) => {
      const caller = request.caller!;
      const access = await accessTo(deps, caller, request.params.group_guid);
      adminOnly(access);
      const body = bodyOf(request);
      const name = stringField(body, 'name', 100);
      if (name !== null && name.trim() === '') throw invalid('name', 'name must not be empty');
      const organization = stringField(body, 'organization_guid', 100);
      if (organization !== null && organization !== access.group.organization_id)
        throw invalid('organization_guid', 'A group cannot move to another organization.');
      const bsds = stringListField(body, 'bsds', 100, 32);
      return groupJson(await updateGroup(caller, access.group, { name, bsds }), caller._id);
    },
  );

  app.get<GroupParams & { Querystring: { type?: string } }>(
    '/v4/groups/:group_guid/tags',
    { schema: { summary: 'The tags used in a group (at most 1000)', tags: ['groups'] } },
    async (request) => {
      const access = await accessTo(deps, request.caller!, request.params.group_guid);
      const type = request.query.type ?? 'shortlink';
      if (type !== 'shortlink' && type !== 'qr_code') throw invalid('type', 'type is shortlink or qr_code');
      return {
        tags:
          type === 'shortlink'
            ? await deps.store.tagsOfGroup(access.group._id)
            : await deps.store.qrTagsOfGroup(access.group._id),
      };
    },
  );

  app.get<GroupParams>(
    '/v4/groups/:group_guid/preferences',
    { schema: { summary: "A group's preferences", tags: ['groups'] } },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      return preferencesJson(group);
    },
  );

  app.patch<GroupParams>(
    '/v4/groups/:group_guid/preferences',
    { schema: { summary: "Set a group's preferred domain (admins)", tags: ['groups'] } },
    async (request) => {
      const caller = request.caller!;
      const access = await accessTo(deps, caller, request.params.group_guid);
      adminOnly(access);
      const body = bodyOf(request);
      const guid = stringField(body, 'group_guid', 100);
      if (guid !== null && guid !== access.group._id)
        throw invalid('group_guid', 'group_guid must be the group of the path');
      const preference = stringField(body, 'domain_preference', 64)?.toLowerCase() ?? null;
      if (!present(preference)) throw invalid('domain_preference', 'domain_preference is required');
      // Whether the group may use the domain is the worker's check (against the group as it is then).
      return preferencesJson(await updateGroup(caller, access.group, { domain_preference: preference }));
    },
  );

  app.get<GroupParams & { Querystring: { name?: string | string[] } }>(
    '/v4/groups/:group_guid/feature_usage',
    { schema: { summary: "A group's use of each limited feature this month", tags: ['groups'] } },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      const limits = limitNames(request.query.name);
      const from = unitStart(new Date(), 'month');
      const to = nextUnit(from, 'month');
      const counts = await Promise.all(
        limits.map((l) => deps.store.countLinksCreated(group._id, from, to, l.customOnly)),
      );
      return {
        group_guid: group._id,
        limit_usage: limits.map((l, i) => ({ name: l.name, description: l.description, count: counts[i]! })),
      };
    },
  );

  app.get<
    GroupParams & { Querystring: { name?: string | string[]; start_date?: string; end_date?: string; unit?: string } }
  >(
    '/v4/groups/:group_guid/historical_usage',
    { schema: { summary: "A group's use of each limited feature per day, week or month", tags: ['groups'] } },
    async (request) => {
      const { group } = await accessTo(deps, request.caller!, request.params.group_guid);
      const limits = limitNames(request.query.name);
      const unit = (request.query.unit ?? 'month') as UsageUnit;
      if (!USAGE_UNITS.includes(unit)) throw invalid('unit', 'unit is day, week or month');
      const readDate = (field: 'start_date' | 'end_date') => {
        const raw = request.query[field];
        if (raw === undefined || raw === '') return null;
        const at = parseUsageDate(raw);
        if (!at)
          throw invalid(field, `${field} is a date such as 2026-11-01 or a time such as 2026-11-01T00:00:00+0000`);
        return at;
      };
      const end = readDate('end_date') ?? new Date();
      const start = readDate('start_date') ?? defaultUsageStart(end, unit);
      if (start.getTime() > end.getTime()) throw invalid('start_date', 'start_date must not be after end_date');
      const starts = unitStarts(start, end, unit);
      if (!starts)
        throw invalid('start_date', 'The window holds too many units: use a larger unit or a shorter window');
      const usage = await Promise.all(
        limits.map(async (l) => ({
          name: l.name,
          usage: await Promise.all(
            starts.map(async (at) => ({
              count: await deps.store.countLinksCreated(group._id, at, nextUnit(at, unit), l.customOnly),
              unit_start: bitlyTime(at),
            })),
          ),
        })),
      );
      return {
        group_guid: group._id,
        unit,
        start_date: bitlyTime(start),
        end_date: bitlyTime(end),
        historical_limit_usage: usage,
      };
    },
  );
}
