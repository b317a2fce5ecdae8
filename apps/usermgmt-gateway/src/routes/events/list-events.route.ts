import { InputError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import { EVENT_RETENTION_MS, validateEventTypes } from '@platform/usermgmt';
import type { GatewayDeps } from '../../deps.js';
import { Event, ListMetadata, errorResponses, security } from '../../schemas.js';

/** WorkOS documents `events[]`; its Node SDK sends `events` joined by commas. Both are taken, and repeats. */
const EventTypes = Type.Array(Type.String({ minLength: 1, maxLength: 2000 }), { maxItems: 50 });
const Cursor = Type.String({ maxLength: 64, pattern: '^event_[A-Za-z0-9]+$' });

const ListEventsQuery = Type.Object(
  {
    events: Type.Optional(EventTypes),
    'events[]': Type.Optional(EventTypes),
    after: Type.Optional(Cursor),
    before: Type.Optional(Cursor),
    range_start: Type.Optional(Type.String({ format: 'date-time' })),
    range_end: Type.Optional(Type.String({ format: 'date-time' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 10 })),
    order: Type.Optional(
      Type.Union([Type.Literal('asc'), Type.Literal('desc'), Type.Literal('normal')], {
        default: 'asc',
        description: 'asc (the default, oldest first: how a reader catches up), desc; normal is desc.',
      }),
    ),
    organization_id: Type.Optional(
      Type.String({
        maxLength: 64,
        description: 'Only events of this organization. User events belong to no organization: none match.',
      }),
    ),
  },
  { additionalProperties: false },
);

function invalid(field: string, message: string): never {
  throw new InputError('invalid_request_parameters', message, { issues: [{ field, code: 'invalid', message }] });
}

export function listEventsRoute(app: HttpApp, deps: GatewayDeps) {
  app.get(
    '/events',
    {
      schema: {
        summary: 'List events',
        description: `The events of the last ${EVENT_RETENTION_MS / 86_400_000} days, from the log that drives the webhooks (the same ids): a consumer that missed deliveries catches up by keeping the last id it processed and asking for what comes \`after\` it. Events appear about a second after they happen.`,
        tags: ['events'],
        security,
        querystring: ListEventsQuery,
        response: {
          200: Type.Object({ object: Type.Literal('list'), data: Type.Array(Event), list_metadata: ListMetadata }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      const q = request.query;
      const types = [...(q.events ?? []), ...(q['events[]'] ?? [])].flatMap((t) => t.split(','));
      if (q.after !== undefined && q.before !== undefined)
        invalid('before', 'Provide either before or after, not both');
      if (q.after !== undefined && q.range_start !== undefined)
        invalid('range_start', 'range_start and after are mutually exclusive: after already says where to start');
      const rangeStart = q.range_start === undefined ? undefined : new Date(q.range_start);
      const rangeEnd = q.range_end === undefined ? undefined : new Date(q.range_end);
      if (rangeStart && rangeEnd && rangeEnd < rangeStart) invalid('range_end', 'range_end is before range_start');
      if (q.organization_id !== undefined)
        return { object: 'list' as const, data: [], list_metadata: { before: null, after: null } };
      return deps.store.events.list(request.environmentId, {
        events: types.length > 0 ? validateEventTypes(types) : undefined,
        after: q.after,
        before: q.before,
        rangeStart,
        rangeEnd,
        limit: q.limit,
        order: q.order === 'asc' || q.order === undefined ? 'asc' : 'desc',
      });
    },
  );
}
