import { Type, type HttpApp } from '@platform/http';
import { parseShortlinkId } from '@platform/links';
import { escapeHtml, renderMessagePage } from '../../charts/render.js';
import { roleIn } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { RangeQuery, html, page, readRange, renderChartPage, requestCaller, toLogin } from './pages.js';

export function getShortlinkChartRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/charts/shortlinks/:domain/:hash',
    {
      schema: {
        ...page,
        summary: "A short link's clicks and scans",
        params: Type.Object({ domain: Type.String(), hash: Type.String() }),
        querystring: RangeQuery,
      },
    },
    async (request, reply) => {
      const caller = await requestCaller(deps, request);
      if (!caller) return toLogin(request, reply);
      const id = parseShortlinkId(`${request.params.domain}/${request.params.hash}`);
      const link = id ? await deps.store.getLink(caller.environment_id, `${id.domain}/${id.hash}`) : null;
      const group = link ? await deps.store.getGroup(caller.environment_id, link.group_guid) : null;
      if (!link || !group || !roleIn(group, caller))
        return html(
          reply,
          404,
          renderMessagePage('No such short link', '<p>There is no such short link in your groups.</p>'),
        );
      const query = readRange(request.query);
      if (typeof query === 'string')
        return html(reply, 400, renderMessagePage('Bad range', `<p>${escapeHtml(query)}</p>`));
      const back = { label: group.name, href: `/charts/groups/${encodeURIComponent(group._id)}` };
      return html(
        reply,
        200,
        await renderChartPage(
          deps,
          { kind: 'link', key: link._id },
          link.created_at.getTime(),
          query,
          `/charts/shortlinks/${link._id}`,
          { title: link._id, subtitle: link.long_url, back },
          [],
        ),
      );
    },
  );
}
