import type { HttpApp } from '@platform/http';
import { escapeHtml, renderMessagePage } from '../../charts/render.js';
import type { RouteDeps } from '../../deps.js';
import { html, page, requestCaller, toLogin } from './pages.js';

export function getGroupsPageRoute(app: HttpApp, deps: RouteDeps) {
  app.get(
    '/charts',
    { schema: { ...page, summary: "The caller's groups, each a link to its chart" } },
    async (request, reply) => {
      const caller = await requestCaller(deps, request);
      if (!caller) return toLogin(request, reply);
      const groups = await deps.store.groupsOfUser(caller.environment_id, caller._id);
      const items = groups
        .map((g) => `<li><a href="/charts/groups/${encodeURIComponent(g._id)}">${escapeHtml(g.name)}</a></li>`)
        .join('');
      return html(
        reply,
        200,
        renderMessagePage('Your groups', `<ul class="card">${items || '<li>No groups</li>'}</ul>`),
      );
    },
  );
}
