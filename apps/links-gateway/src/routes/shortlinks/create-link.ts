import { MessageTypeNames } from '@platform/contracts';
import { randomUUID } from 'node:crypto';
import type { FastifyRequest, Static } from '@platform/http';
import { keywordProblem, shortlinkJson, type LinkDoc } from '@platform/links';
import { assertDomain, requestedGroup } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { expirationOf, invalid, longUrlOf, viewOf } from './links.js';
import type { DeeplinkInput } from './schemas.js';

export interface NewLink {
  long_url: string;
  domain?: string | null | undefined;
  group_guid?: string | null | undefined;
  force_new_link?: boolean | null | undefined;
  keyword?: string | null | undefined;
  title?: string | null | undefined;
  tags?: string[] | null | undefined;
  deeplinks?: Array<Static<typeof DeeplinkInput>> | null | undefined;
  expiration_at?: string | null | undefined;
}

/**
 * A short link in the named group (or the caller's default one), on the named domain (or the group's
 * preferred one); `created` is false when a shorten returned the group's existing link. A retry with the
 * request's Idempotency-Key sends the first request's command again, and the worker answers it as it did then.
 */
export async function createLink(deps: RouteDeps, request: FastifyRequest, body: NewLink) {
  const caller = request.caller!;
  const directory = deps.store.forRequest(caller.environment_id);
  const access = await requestedGroup(deps, caller, body.group_guid, directory);
  const domain = (body.domain ?? access.group.domain_preference ?? deps.defaultDomain).toLowerCase();
  assertDomain(deps, access, domain);
  const longUrl = await longUrlOf(deps, body.long_url, 'long_url', directory);
  const keyword = body.keyword ?? null;
  if (keyword !== null) {
    if (domain === deps.defaultDomain)
      throw invalid('keyword', 'A keyword needs a branded domain.', 'INVALID_ARG_KEYWORD');
    const problem = keywordProblem(keyword);
    if (problem) throw invalid('keyword', problem, 'INVALID_ARG_KEYWORD');
  }
  const expiration = expirationOf(body.expiration_at);
  const { commandId } = await deps.idempotency.ids(request, () => ({ commandId: randomUUID() }));
  const reply = await deps.commands.send(
    MessageTypeNames.CreateShortlink,
    access.group._id,
    {
      organization_id: caller.environment_id,
      user_id: caller._id,
      group_guid: access.group._id,
      domain,
      long_url: longUrl,
      keyword,
      title: body.title ?? null,
      tags: body.tags ?? [],
      deeplinks: (body.deeplinks ?? []).map((d) => ({
        app_uri_path: d.app_uri_path ?? '',
        install_url: d.install_url ?? '',
        app_guid: d.app_guid || d.app_id || '',
        os: d.os ?? '',
        install_type: d.install_type ?? '',
        brand_guid: d.brand_guid ?? '',
      })),
      expiration_at: expiration.at,
      force_new_link: body.force_new_link === true,
    },
    { commandId },
  );
  return { created: reply.created, json: shortlinkJson(reply.link as LinkDoc, viewOf(deps)) };
}
