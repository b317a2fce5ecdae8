import type { FastifyReply, FastifyRequest } from '@platform/http';
import type { SchedulingUserDoc } from '@platform/identity';
import type { WebDeps } from './deps.js';
import { errorPage } from './pages/error.page.js';
import type { PageViewer } from './pages/layout.js';
import { sendPage } from './respond.js';
import { newRandomToken } from './session.js';

export const SESSION_COOKIE = 'sid';
/** The login form's double-submit token, before any session exists. */
export const LOGIN_CSRF_COOKIE = 'csrf';
export const CSRF_FAILURE_MESSAGE = 'Invalid or missing CSRF token.';

export interface Viewer {
  sid: string;
  csrf: string;
  user: SchedulingUserDoc;
}

export function pageViewer(viewer: Viewer | null): PageViewer | null {
  return viewer && { email: viewer.user.email, csrf: viewer.csrf };
}

export type Auth = ReturnType<typeof createAuth>;

export function createAuth(deps: WebDeps) {
  const viewers = new WeakMap<FastifyRequest, Viewer>();
  const secure = deps.publicUrl.startsWith('https:');
  const base = { path: '/', httpOnly: true, secure, signed: true } as const;

  function signedCookie(request: FastifyRequest, name: string): string | null {
    const value = request.cookies[name];
    if (!value) return null;
    const result = request.unsignCookie(value);
    return result.valid && result.value ? result.value : null;
  }

  function forbidden(request: FastifyRequest, reply: FastifyReply, message: string) {
    return sendPage(reply, 403, errorPage({ status: 403, message, viewer: pageViewer(viewers.get(request) ?? null) }));
  }

  return {
    /** onRequest: who is logged in, from the signed `sid` cookie; a user that no longer exists is logged out. */
    async load(request: FastifyRequest): Promise<void> {
      const sid = signedCookie(request, SESSION_COOKIE);
      if (!sid) return;
      const session = await deps.sessions.load(sid);
      if (!session) return;
      const user = await deps.users.get(session.userId);
      if (user) viewers.set(request, { sid, csrf: session.csrf, user });
    },

    viewer(request: FastifyRequest): Viewer | null {
      return viewers.get(request) ?? null;
    },

    /** Login: any previous session is destroyed and a new id issued. */
    async startSession(request: FastifyRequest, reply: FastifyReply, userId: string): Promise<void> {
      const previous = signedCookie(request, SESSION_COOKIE);
      if (previous) await deps.sessions.destroy(previous);
      const { sid } = await deps.sessions.create(userId);
      reply.setCookie(SESSION_COOKIE, sid, { ...base, sameSite: 'lax' });
      reply.clearCookie(LOGIN_CSRF_COOKIE, { path: '/' });
    },

    async endSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
      const sid = signedCookie(request, SESSION_COOKIE);
      if (sid) await deps.sessions.destroy(sid);
      viewers.delete(request);
      reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, secure, sameSite: 'lax' });
    },

    loginCsrf(request: FastifyRequest): string | null {
      return signedCookie(request, LOGIN_CSRF_COOKIE);
    },

    /** The login form's token: the one the browser already holds (other tabs keep working), else a new one. */
    ensureLoginCsrf(request: FastifyRequest, reply: FastifyReply): string {
      const existing = signedCookie(request, LOGIN_CSRF_COOKIE);
      if (existing && existing.length <= 256) return existing;
      const token = newRandomToken();
      reply.setCookie(LOGIN_CSRF_COOKIE, token, { ...base, sameSite: 'strict' });
      return token;
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
