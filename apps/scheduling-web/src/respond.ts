import type { FastifyReply } from '@platform/http';
import type { SafeHtml } from './html.js';
import { widenFormAction } from './page-headers.js';

/** Sends a rendered page; `formAction` widens the page's CSP form-action (see formActionSource). */
export function sendPage(
  reply: FastifyReply,
  status: number,
  page: SafeHtml,
  formAction: string[] | null = [],
): FastifyReply {
  widenFormAction(reply, formAction);
  return reply.code(status).type('text/html; charset=utf-8').send(page.value);
}

/** 303 See Other: after a form post the browser follows with a GET. */
export function seeOther(reply: FastifyReply, location: string): FastifyReply {
  return reply.redirect(location, 303);
}
