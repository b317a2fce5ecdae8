import type { FastifyRequest } from 'fastify';
import type { MemberRecord } from '@platform/accounts';
import { MessageTypeNames } from '@platform/contracts';
import { InputError, NotFoundError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import {
  bitlyTime,
  encodeSearchAfter,
  keywordProblem,
  parseShortlinkId,
  readLinkListQuery,
  readLongUrl,
  shortlinkJson,
  type LinkDoc,
} from '@platform/links';
import { accessTo, assertDomain, assertMayEdit, requestedGroup } from '../access.js';
import {
  bodyOf,
  booleanField,
  expirationField,
  invalid,
  isObject,
  present,
  stringField,
  stringListField,
  tagsField,
  MAX_TAGS,
} from '../body.js';
import type { GatewayDeps } from '../deps.js';

const MAX_BULK = 100;

function deeplinksField(body: Record<string, unknown>) {
  const v = body['deeplinks'];
  if (!present(v)) return [];
  if (!Array.isArray(v) || v.length > 10 || !v.every(isObject))
    throw invalid('deeplinks', 'deeplinks is a list of at most 10 objects');
  const text = (d: Record<string, unknown>, k: string) =>
    typeof d[k] === 'string' ? (d[k] as string).slice(0, 2048) : '';
  return v.map((d) => ({
    app_uri_path: text(d, 'app_uri_path'),
    install_url: text(d, 'install_url'),
    app_guid: text(d, 'app_guid') || text(d, 'app_id'),
    os: text(d, 'os'),
    install_type: text(d, 'install_type'),
    brand_guid: text(d, 'brand_guid'),
  }));
}

/** The subset of a link record that `POST /v4/shorten` answers with (as Bitly's does). */
function shortenJson(full: ReturnType<typeof shortlinkJson>) {
  const { references, link, id, long_url, archived, created_at, custom_shortlinks, tags, deeplinks } = full;
  return { references, link, id, long_url, archived, created_at, custom_shortlinks, tags, deeplinks };
}

export function shortlinkRoutes(app: HttpApp, deps: GatewayDeps) {
  const view = { apiBase: deps.publicBaseUrl, scheme: deps.scheme };
  const ownDomains = async (caller: MemberRecord) =>
    new Set([deps.defaultDomain, ...(await deps.store.domainsOfOrganization(caller.environment_id)).map((d) => d._id)]);

  async function linkFor(
    caller: MemberRecord,
    raw: string,
  ): Promise<{ link: LinkDoc; access: Awaited<ReturnType<typeof accessTo>> }> {
    const id = parseShortlinkId(raw);
    const link = id ? await deps.store.getLink(`${id.domain}/${id.hash}`) : null;
    if (!link || link.organization_id !== caller.environment_id)
      throw new NotFoundError('NOT_FOUND', 'No such short link.');
    return { link, access: await accessTo(deps, caller, link.group_guid) };
  }

  async function create(request: FastifyRequest, full: boolean) {
    const caller = request.caller!;
    const body = bodyOf(request);
    const access = await requestedGroup(deps, caller, body['group_guid']);
    const domain = (
      stringField(body, 'domain', 64) ??
      access.group.domain_preference ??
      deps.defaultDomain
    ).toLowerCase();
    assertDomain(deps, access, domain);
    const longUrl = readLongUrl(body['long_url'], await ownDomains(caller));
    if (!longUrl.ok) throw invalid('long_url', longUrl.detail, longUrl.problem);
    const keyword = full ? stringField(body, 'keyword', 100) : null;
    if (keyword !== null) {
      if (domain === deps.defaultDomain)
        throw invalid('keyword', 'A keyword needs a branded domain.', 'INVALID_ARG_KEYWORD');
      const problem = keywordProblem(keyword);
      if (problem) throw invalid('keyword', problem, 'INVALID_ARG_KEYWORD');
    }
    const expiration = full ? expirationField(body) : { at: null, clear: false };
    const reply = await deps.commands.send(MessageTypeNames.CreateShortlink, access.group._id, {
      organization_id: caller.environment_id,
      user_id: caller._id,
      group_guid: access.group._id,
      domain,
      long_url: longUrl.url,
      keyword,
      title: full ? stringField(body, 'title', 2048) : null,
      tags: (full ? tagsField(body) : null) ?? [],
      deeplinks: full ? deeplinksField(body) : [],
      expiration_at: expiration.at,
      force_new_link: body['force_new_link'] === true,
    });
    return { reply, json: shortlinkJson(reply.link as LinkDoc, view) };
  }

  app.post(
    '/v4/shorten',
    {
      schema: {
        summary: "Shorten a long URL (the group's existing link for it unless force_new_link)",
        tags: ['shortlinks'],
      },
    },
    async (request, reply) => {
      const { reply: result, json } = await create(request, false);
      return reply.code(result.created ? 201 : 200).send(shortenJson(json));
    },
  );

  for (const base of ['/v4/shortlinks', '/v4/bitlinks']) {
    app.post(
      base,
      {
        schema: {
          summary: 'Create a short link with title, tags, deeplinks, expiry or a keyword',
          tags: ['shortlinks'],
        },
      },
      async (request, reply) => {
        const { reply: result, json } = await create(request, true);
        return reply.code(result.created ? 201 : 200).send(json);
      },
    );

    for (const path of [`${base}/:domain/:hash`, `${base}/:id`]) {
      const rawId = (request: FastifyRequest) => {
        const p = request.params as { domain?: string; hash?: string; id?: string };
        return p.id ?? `${p.domain}/${p.hash}`;
      };
      app.get(path, { schema: { summary: 'A short link', tags: ['shortlinks'] } }, async (request) => {
        const { link } = await linkFor(request.caller!, rawId(request));
        return shortlinkJson(link, view);
      });

      app.patch(
        path,
        {
          schema: {
            summary: 'Edit a short link: title, archived, tags, long_url, expiration_at',
            tags: ['shortlinks'],
          },
        },
        async (request) => {
          const caller = request.caller!;
          const { link, access } = await linkFor(caller, rawId(request));
          assertMayEdit(access, caller, link);
          const body = bodyOf(request);
          let longUrl: string | null = null;
          if (present(body['long_url'])) {
            const read = readLongUrl(body['long_url'], await ownDomains(caller));
            if (!read.ok) throw invalid('long_url', read.detail, read.problem);
            longUrl = read.url;
          }
          if (present(body['archived']) && typeof body['archived'] !== 'boolean')
            throw invalid('archived', 'archived is true or false');
          const expiration = expirationField(body);
          const result = await deps.commands.send(MessageTypeNames.UpdateShortlink, link.group_guid, {
            organization_id: caller.environment_id,
            user_id: caller._id,
            id: link._id,
            title: stringField(body, 'title', 2048),
            archived: present(body['archived']) ? (body['archived'] as boolean) : null,
            tags: tagsField(body),
            long_url: longUrl,
            expiration_at: expiration.at,
            clear_expiration: expiration.clear,
          });
          return shortlinkJson(result.link as LinkDoc, view);
        },
      );

      app.delete(
        path,
        { schema: { summary: 'Delete a short link (not a custom one: archive it)', tags: ['shortlinks'] } },
        async (request) => {
          const caller = request.caller!;
          const { link, access } = await linkFor(caller, rawId(request));
          assertMayEdit(access, caller, link);
          const result = await deps.commands.send(MessageTypeNames.DeleteShortlink, link.group_guid, {
            organization_id: caller.environment_id,
            user_id: caller._id,
            id: link._id,
          });
          return { links_deleted: [{ id: result.id }] };
        },
      );
    }
  }

  app.post(
    '/v4/expand',
    { schema: { summary: 'The long URL of a short link', tags: ['shortlinks'] } },
    async (request) => {
      const body = bodyOf(request);
      const raw = body['shortlink_id'] ?? body['bitlink_id'];
      if (typeof raw !== 'string')
        throw invalid('shortlink_id', 'shortlink_id is required', 'INVALID_ARG_SHORTLINK_ID');
      const { link } = await linkFor(request.caller!, raw);
      if (link.expiration_at && link.expiration_at.getTime() <= Date.now())
        throw new NotFoundError('GONE', 'The short link has expired.');
      return {
        created_at: bitlyTime(link.created_at),
        link: `${deps.scheme}://${link._id}`,
        id: link._id,
        long_url: link.long_url,
      };
    },
  );

  for (const base of ['/v4/groups/:group_guid/shortlinks', '/v4/groups/:group_guid/bitlinks']) {
    app.patch<{ Params: { group_guid: string } }>(
      base,
      { schema: { summary: 'Archive or retag up to 100 links of a group', tags: ['shortlinks'] } },
      async (request) => {
        const caller = request.caller!;
        const access = await accessTo(deps, caller, request.params.group_guid);
        const body = bodyOf(request);
        const action = body['action'];
        if (action !== 'archive' && action !== 'edit_tags') throw invalid('action', 'action is archive or edit_tags');
        const raw = body['links'] ?? body['bitlinks'];
        if (!Array.isArray(raw) || raw.length === 0)
          throw invalid('links', 'links is a list of 1 to 100 short link ids');
        if (raw.length > MAX_BULK)
          throw invalid('links', `At most ${MAX_BULK} short links per update`, 'INVALID_ARG_LINKS');
        const ids = raw.map((r) => (typeof r === 'string' ? parseShortlinkId(r) : null));
        if (ids.some((id) => id === null))
          throw invalid('links', 'links is a list of short link ids such as sho.rt/abc1234');
        const archive = booleanField(body, 'archive');
        const addTags = stringListField(body, 'add_tags', MAX_TAGS, 50) ?? [];
        const removeTags = stringListField(body, 'remove_tags', MAX_TAGS, 50) ?? [];
        if (action === 'edit_tags' && addTags.length + removeTags.length === 0)
          throw invalid('add_tags', 'edit_tags needs add_tags or remove_tags');
        const result = await deps.commands.send(MessageTypeNames.BulkEditShortlinks, access.group._id, {
          organization_id: caller.environment_id,
          user_id: caller._id,
          group_guid: access.group._id,
          action,
          archive: archive ?? true,
          add_tags: addTags,
          remove_tags: removeTags,
          ids: ids.map((id) => `${id!.domain}/${id!.hash}`),
          own_links_only: access.role === 'GROUP_USER',
        });
        return { links: result.ids };
      },
    );

    app.get<{ Params: { group_guid: string } }>(
      base,
      { schema: { summary: "A group's short links, newest first", tags: ['shortlinks'] } },
      async (request) => {
        const access = await accessTo(deps, request.caller!, request.params.group_guid);
        const query = readLinkListQuery(request.query as Record<string, string | string[] | undefined>);
        if (!query.ok) {
          const first = query.problems[0]!;
          throw new InputError(`INVALID_ARG_${first.field.toUpperCase()}`, first.message, {
            issues: query.problems.map((p) => ({ field: p.field, code: 'invalid', message: p.message })),
          });
        }
        let linkIds: string[] | undefined;
        if (query.value.channelGuid) {
          // channel_guid overrides every other filter: the channel's links, newest first.
          const channel = await deps.store.getChannel(query.value.channelGuid);
          linkIds =
            channel && channel.group_guid === access.group._id ? channel.shortlinks.map((s) => s.shortlink_id) : [];
        }
        const links = await deps.store.listLinks(access.group._id, query.value, linkIds);
        const last = links.length === query.value.size ? links.at(-1) : undefined;
        const searchAfter = last ? encodeSearchAfter({ createdAt: last.created_at.getTime(), id: last._id }) : '';
        const next = searchAfter
          ? `${deps.publicBaseUrl}/v4/groups/${access.group._id}/shortlinks?size=${query.value.size}&search_after=${searchAfter}`
          : '';
        return {
          links: links.map((l) => shortlinkJson(l, view)),
          pagination: {
            prev: '',
            next,
            size: query.value.size,
            page: 1,
            total: links.length,
            search_after: searchAfter,
          },
        };
      },
    );
  }
}
