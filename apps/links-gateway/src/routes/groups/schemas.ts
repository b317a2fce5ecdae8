import { isoTimestampPattern } from '@platform/analytics';
import { Type } from '@platform/http';
import { USAGE_LIMITS, USAGE_UNITS } from '@platform/links';
import { BitlyTime } from '../../schemas.js';

export const GroupParams = Type.Object({ group_guid: Type.String({ minLength: 1, maxLength: 100 }) });

export const Group = Type.Object({
  references: Type.Object({ organization: Type.String() }),
  name: Type.String(),
  guid: Type.String(),
  created: BitlyTime,
  modified: BitlyTime,
  is_active: Type.Boolean(),
  role: Type.String({ description: "The caller's role in the group: GROUP_ADMIN, GROUP_EDITOR or GROUP_USER." }),
  organization_guid: Type.String(),
  bsds: Type.Array(Type.String(), { description: 'The branded domains the group may use.' }),
});

export const GroupPreferences = Type.Object({
  group_guid: Type.String(),
  domain_preference: Type.String({ description: 'The domain a shorten without a domain uses.' }),
});

const LIMIT = `(?:${USAGE_LIMITS.map((l) => l.name).join('|')})`;
const LimitNames = Type.String({ maxLength: 200, pattern: `^\\s*(?:${LIMIT}\\s*)?(?:,\\s*(?:${LIMIT}\\s*)?)*$` });

/** `name=a&name=b` or `name=a,b`; none: every limit. */
export const LimitNameQuery = Type.Union([LimitNames, Type.Array(LimitNames, { maxItems: 10 })], {
  description: `Limit names, repeated or comma separated: ${USAGE_LIMITS.map((l) => l.name).join(', ')}.`,
  errorMessage: `is a list of limit names (${USAGE_LIMITS.map((l) => l.name).join(', ')})`,
});

export const UsageUnit = Type.Union(
  USAGE_UNITS.map((u) => Type.Literal(u)),
  { default: 'month' },
);

/** `2026-11-24`, `2026-11-24T10:00:00Z` or `2026-11-24T10:00:00+0000` (an empty one is none). */
export const UsageDate = Type.String({
  maxLength: 40,
  pattern: `^$|${isoTimestampPattern('Tt ')}`,
  errorMessage: 'is a date such as 2026-11-01 or a time such as 2026-11-01T00:00:00+0000',
});
