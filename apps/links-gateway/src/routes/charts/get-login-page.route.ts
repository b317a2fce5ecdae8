import { Type, type HttpApp } from '@platform/http';
import { renderLoginPage } from '../../charts/render.js';
import type { RouteDeps } from '../../deps.js';
import { html, page, safeNext } from './pages.js';

export function getLoginPageRoute(app: HttpApp, _deps: RouteDeps) {
  app.get(
    '/charts/login',
    {
      schema: {
        ...page,
        summary: 'The login form of the analytics pages',
        querystring: Type.Object({ next: Type.Optional(Type.String({ description: 'The page to go back to.' })) }),
      },
    },
    async (request, reply) => html(reply, 200, renderLoginPage(safeNext(request.query.next))),
  );
}
