import { Type, type HttpApp } from '@platform/http';
import { renderLoginPage } from '../../charts/render.js';
import type { RouteDeps } from '../../deps.js';
import { COOKIE, callerOf, html, page, safeNext } from './pages.js';

const Body = Type.Object({
  token: Type.Optional(Type.String({ description: 'A links access token.' })),
  next: Type.Optional(Type.String({ description: 'The page to go back to.' })),
});

export function submitLoginRoute(app: HttpApp, deps: RouteDeps) {
  // The login form's body, to this route only.
  void app.register(async (scope) => {
    const form = scope as HttpApp;
    form.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 4096 },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
    );
    form.post(
      '/charts/login',
      { schema: { ...page, summary: 'Log in to the analytics pages (sets an HttpOnly cookie)', body: Body } },
      async (request, reply) => {
        const token = request.body?.token?.trim() ?? '';
        const next = safeNext(request.body?.next);
        if (!(await callerOf(deps, token))) return html(reply, 403, renderLoginPage(next, 'That token is not valid.'));
        const secure = request.protocol === 'https' ? '; Secure' : '';
        reply.header(
          'set-cookie',
          `${COOKIE}=${encodeURIComponent(token)}; Path=/charts; HttpOnly; SameSite=Lax; Max-Age=43200${secure}`,
        );
        return reply.redirect(next, 303);
      },
    );
  });
}
