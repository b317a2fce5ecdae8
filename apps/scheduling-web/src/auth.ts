import type { FastifyReply, FastifyRequest } from '@platform/http';
import type { SchedulingUserDoc } from '@platform/identity';
import type { WebDeps } from './deps.js';
import { CSRF_FAILURE_MESSAGE, LOGIN_CSRF_COOKIE } from './form-protection.js';
import { errorPage } from './pages/error.page.js';
import type { PageViewer } from './pages/layout.js';
import { sendPage } from './respond.js';

export const SESSION_COOKIE = 'sid';

export interface Viewer {
  user: SchedulingUserDoc;
  /**
   * The session's form token, on the pages whose forms are checked against the session. The login pages have
   * none: their form is checked against the login cookie, so they show no account header (and no log-out form).
   */
  csrf: string | null;
}

export function pageViewer(viewer: Viewer | null): PageViewer | null {
  return viewer?.csrf ? { email: viewer.user.email, csrf: viewer.csrf } : null;
}

export type Auth = ReturnType<typeof createAuth>;

/**
 * Who is logged in, on @fastify/session. A session is written only here, and explicitly: @fastify/session
 * saves on its own only over a connection it sees as https when the cookie is Secure, and TLS ends in front
 * of the app (the cookie is Secure because PUBLIC_URL is https, whatever the last hop).
 */
export function createAuth(deps: Pick<WebDeps, 'users' | 'publicUrl'>) {
  const viewers = new WeakMap<FastifyRequest, Viewer>();
  const secure = deps.publicUrl.startsWith('https:');

  function forbidden(request: FastifyRequest, reply: FastifyReply, message: string) {
    return sendPage(reply, 403, errorPage({ status: 403, message, viewer: pageViewer(viewers.get(request) ?? null) }));
  }

  return {
    /** onRequest: who is logged in, from the session; a user that no longer exists is logged out. */
    async load(request: FastifyRequest): Promise<void> {
      const userId = request.session.userId;
      if (typeof userId !== 'string') return;
      const user = await deps.users.get(userId);
      if (user) viewers.set(request, { user, csrf: null });
    },

    /** onRequest of the session's pages: the token for their forms (a session's first one makes its secret). */
    async issueCsrf(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const viewer = viewers.get(request);
      if (!viewer) return;
      viewer.csrf = reply.generateCsrf();
      if (request.session.isModified()) await request.session.save();
    },

    viewer(request: FastifyRequest): Viewer | null {
      return viewers.get(request) ?? null;
    },

    /** Login: any previous session is destroyed and a new id issued (no session fixation). */
    async startSession(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
      await request.session.regenerate();
      request.session.userId = userId;
      await request.session.save();
      reply.clearCookie(LOGIN_CSRF_COOKIE, { path: '/' });
    },

    async endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      await request.session.destroy();
      viewers.delete(request);
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure, sameSite: 'lax' });
    },

    forbidden,

    /** preHandler of every page that needs a login: pages send the browser to log in first and come back. */
    async requireUser(request: FastifyRequest, reply: FastifyReply) {
      if (viewers.has(request)) return;
      if (request.method === 'GET' || request.method === 'HEAD') {
        return reply.redirect(`/login?return_to=${encodeURIComponent(request.url)}`, 303);
      }
      // A post without a session cannot carry a valid session token (the CSRF hook refuses it first anyway).
      return forbidden(request, reply, CSRF_FAILURE_MESSAGE);
    },

    async requireAdmin(request: FastifyRequest, reply: FastifyReply) {
      const viewer = viewers.get(request);
      if (!viewer) {
        if (request.method === 'GET' || request.method === 'HEAD') {
          return reply.redirect(`/login?return_to=${encodeURIComponent(request.url)}`, 303);
        }
        return forbidden(request, reply, CSRF_FAILURE_MESSAGE);
      }
      if (viewer.user.role !== 'admin')
        return forbidden(request, reply, 'Only administrators can review OAuth clients.');
    },
  };
}
