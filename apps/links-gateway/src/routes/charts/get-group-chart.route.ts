import type { Scope } from '@platform/analytics';
import { Type, type HttpApp } from '@platform/http';
import { escapeHtml, renderMessagePage, type TopList } from '../../charts/render.js';
import { roleIn } from '../../access.js';
import type { RouteDeps } from '../../deps.js';
import { LIST_SIZE, RangeQuery, html, page, readRange, renderChartPage, requestCaller, toLogin } from './pages.js';

export function getGroupChartRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/charts/groups/:group_guid',
    {
      schema: {
        ...page,
        summary: "A group's clicks and scans, with its top links",
        params: Type.Object({ group_guid: Type.String() }),
        querystring: RangeQuery,
      },
    },
    async (request, reply) => {
      const caller = await requestCaller(deps, request);
      if (!caller) return toLogin(request, reply);
      const group = await deps.store.getGroup(caller.environment_id, request.params.group_guid);
      if (!group || !roleIn(group, caller)) {
        return html(reply, 403, renderMessagePage('Not yours', '<p>You are not a member of this group.</p>'));
      }
      const query = readRange(request.query);
      if (typeof query === 'string')
        return html(reply, 400, renderMessagePage('Bad range', `<p>${escapeHtml(query)}</p>`));
      const scope: Scope = { kind: 'group', key: group._id };
      const since = query.units === -1 ? await deps.analytics.since(scope, group.created_at.getTime()) : null;
      const top = (await deps.analytics.topLinks(scope, query, since)).slice(0, LIST_SIZE);
      const links: TopList = {
        title: 'Top links',
        rows: top.map((t) => ({
          label: t.value,
          count: t.count,
          href: `/charts/shortlinks/${t.value}?unit=${query.unit}&units=${query.units}`,
        })),
      };
      const base = `/charts/groups/${encodeURIComponent(group._id)}`;
      const back = { label: 'Your groups', href: '/charts' };
      return html(
        reply,
        200,
        await renderChartPage(
          deps,
          scope,
          group.created_at.getTime(),
          query,
          base,
          { title: group.name, subtitle: `Group ${group._id}`, back },
          [links],
        ),
      );
    },
  );
}
