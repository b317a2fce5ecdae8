import { InputError } from '@platform/errors';
import { Type, type HttpApp } from '@platform/http';
import {
  DEFAULT_PAGE_SIZE,
  MAX_PAGE,
  MAX_PAGE_SIZE,
  encodeSearchAfter,
  readLinkListQuery,
  shortlinkJson,
} from '@platform/links';
import { accessTo } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { errorResponses, security } from '../../schemas.js';
import { viewOf } from './links.js';
import { GroupParams, ShortlinkList } from './schemas.js';

const Tristate = (fallback: 'on' | 'off' | 'both', description: string) =>
  Type.Optional(
    Type.Union([Type.Literal('on'), Type.Literal('off'), Type.Literal('both')], { default: fallback, description }),
  );
const UnixTime = Type.Optional(Type.Integer({ minimum: 0, maximum: 99_999_999_999, description: 'Unix seconds.' }));
/** `tags=a&tags=b` or `tags=a,b`. */
const Many = (description: string) =>
  Type.Optional(Type.Array(Type.String({ maxLength: 500 }), { maxItems: 10, description }));
const Text = (description: string) => Type.Optional(Type.String({ maxLength: 2048, description }));

/** Unknown parameters are ignored, as Bitly does. */
const Query = Type.Object({
  size: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })),
  page: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: MAX_PAGE,
      default: 1,
      description: 'The page by number (size links each); with search_after it only numbers the page the token opens.',
    }),
  ),
  search_after: Text('The token of the next page, from a previous answer.'),
  query: Text('Words to find in the title, long URL or id.'),
  hostname_path_query: Text('Text to find in the host and path of the long URL.'),
  created_before: UnixTime,
  created_after: UnixTime,
  archived: Tristate('off', 'Archived links: off (none), on (only those) or both.'),
  deeplinks: Tristate('both', 'Links with deeplinks.'),
  domain_deeplinks: Tristate('both', 'Links on domains with deeplinks.'),
  campaign_guid: Text("A campaign's links."),
  channel_guid: Text("A channel's links, newest first: every other filter is then ignored."),
  custom_shortlink: Tristate('both', 'Links with a keyword.'),
  has_qr_codes: Tristate('both', 'Links with QR codes.'),
  tags: Many('Links with any of these tags, repeated or comma separated.'),
  launchpad_ids: Many('Repeated or comma separated.'),
  encoding_login: Many('Links made by these logins, repeated or comma separated.'),
});

export function listGroupShortlinksRoute(app: HttpApp, deps: RouteDeps) {
  for (const url of ['/v4/groups/:group_guid/shortlinks', '/v4/groups/:group_guid/bitlinks']) {
    app.get(
      url,
      {
        schema: {
          summary: "A group's short links, newest first",
          tags: ['shortlinks'],
          security,
          params: GroupParams,
          querystring: Query,
          response: { 200: ShortlinkList, ...errorResponses },
        },
      },
      async (request) => {
        const access = await accessTo(deps, request.caller!, request.params.group_guid);
        // The schema checked the forms; the reader applies the defaults, splits the lists and opens the token.
        const raw = Object.fromEntries(
          Object.entries(request.query).map(([k, v]) => [k, Array.isArray(v) ? v.map(String) : String(v)]),
        );
        const query = readLinkListQuery(raw);
        if (!query.ok) {
          const first = query.problems[0]!;
          throw new InputError(`INVALID_ARG_${first.field.toUpperCase()}`, first.message, {
            issues: query.problems.map((p) => ({ field: p.field, code: 'invalid', message: p.message })),
          });
        }
        let linkIds: string[] | undefined;
        if (query.value.channelGuid) {
          // channel_guid overrides every other filter: the channel's links, newest first.
          const channel = await deps.store.getChannel(access.group.organization_id, query.value.channelGuid);
          linkIds =
            channel && channel.group_guid === access.group._id ? channel.shortlinks.map((s) => s.shortlink_id) : [];
        }
        const { links, total, more } = await deps.store.listLinks(
          access.group.organization_id,
          access.group._id,
          query.value,
          linkIds,
        );
        const { page, size } = query.value;
        const last = more ? links.at(-1) : undefined;
        const searchAfter = last ? encodeSearchAfter({ createdAt: last.created_at.getTime(), id: last._id }) : '';
        // The pages around this one keep every parameter of this request (its filters) as it was sent.
        const pageAddress = (changes: Record<string, string | null>) => {
          const params = new URLSearchParams(request.url.split('?')[1] ?? '');
          for (const [name, value] of Object.entries(changes))
            if (value === null) params.delete(name);
            else params.set(name, value);
          return `${deps.publicBaseUrl}/v4/groups/${access.group._id}/shortlinks?${params}`;
        };
        const prev = page > 1 ? pageAddress({ page: String(page - 1), search_after: null }) : '';
        const next = searchAfter
          ? pageAddress({ page: page < MAX_PAGE ? String(page + 1) : null, search_after: searchAfter })
          : '';
        const view = viewOf(deps);
        return {
          links: links.map((l) => shortlinkJson(l, view)),
          pagination: {
            prev,
            next,
            size,
            page,
            total,
            search_after: searchAfter,
          },
        };
      },
    );
  }
}
