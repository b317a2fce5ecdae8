import type { FastifyReply, FastifyRequest } from 'fastify';
import { InputError } from '@platform/errors';
import type { HttpApp } from '@platform/http';
import { INVALID_QUERY_MESSAGE, inboxNotificationJson, readWatchQuery, type WatchQuery } from '@platform/notifications';
import type { WebSocket } from 'ws';
import type { GatewayDeps } from '../deps.js';
import { UUID, invalidBody } from '../validation.js';
import type { WatchEvent } from '../watch-hub.js';
import { sseSubscriber, webSocketSubscriber } from '../watch-streams.js';

declare module 'fastify' {
  interface FastifyRequest {
    watch: WatchQuery | undefined;
  }
}

const WATCH = '/api/v2/notifications/inbox/watch';

function readQuery(request: FastifyRequest): WatchQuery {
  const query = readWatchQuery(request.query as Record<string, string | string[] | undefined>);
  if (!query.ok) throw invalidBody(query.validations, INVALID_QUERY_MESSAGE);
  return query.value;
}

/**
 * The live inbox: a WebSocket (as Coder serves it) or, for clients that cannot open one, Server-Sent Events
 * with `Last-Event-ID` resume. Both are fed by the hub (the notifications.events topic), never by the store,
 * except for the replay of what a reconnecting SSE client missed.
 */
export function watchRoutes(app: HttpApp, deps: GatewayDeps) {
  app.decorateRequest('watch', undefined);
  app.route({
    method: 'GET',
    url: WATCH,
    schema: { summary: 'Watch new inbox notifications (WebSocket, or text/event-stream)', tags: ['inbox'] },
    preValidation: async (request: FastifyRequest) => {
      request.watch = readQuery(request);
    },
    handler: (request: FastifyRequest, reply: FastifyReply) => serveSse(deps, request, reply),
    wsHandler: (socket: WebSocket, request: FastifyRequest) => serveWebSocket(deps, socket, request),
  } as never);
}

function serveWebSocket(deps: GatewayDeps, socket: WebSocket, request: FastifyRequest) {
  const caller = request.caller!;
  const query = request.watch!;
  const subscriber = webSocketSubscriber(
    socket,
    { deploymentId: caller.environment_id, userId: caller._id, filter: query },
    query.format,
    deps.watch,
    () => deps.onSlowReader('websocket'),
  );
  const remove = deps.hub.add(subscriber);
  socket.on('close', remove);
  socket.on('error', remove);
  // The client only listens; anything it sends is ignored.
  socket.on('message', () => undefined);
}

async function serveSse(deps: GatewayDeps, request: FastifyRequest, reply: FastifyReply) {
  const caller = request.caller!;
  const query = request.watch!;
  if (!(request.headers.accept ?? '').includes('text/event-stream')) {
    throw new InputError(
      'not_a_stream',
      'Open this with a WebSocket (Upgrade: websocket) or ask for Server-Sent Events (Accept: text/event-stream).',
    );
  }
  const lastEventId = request.headers['last-event-id'];
  const resumeFrom =
    typeof lastEventId === 'string' && lastEventId.trim() !== '' ? lastEventId.trim().toLowerCase() : null;
  if (resumeFrom !== null && !UUID.test(resumeFrom))
    throw invalidBody(
      [{ field: 'Last-Event-ID', detail: 'must be the id of a notification' }],
      'Invalid Last-Event-ID header.',
    );

  reply.hijack();
  const response = reply.raw;
  response.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  response.write(': watching\n\n');
  const subscriber = sseSubscriber(
    response,
    { deploymentId: caller.environment_id, userId: caller._id, filter: query },
    query.format,
    deps.watch,
    () => deps.onSlowReader('sse'),
  );
  // Live events that arrive while the missed ones are replayed wait, and go out after them (deduplicated by id).
  let waiting: WatchEvent[] | null = resumeFrom ? [] : null;
  subscriber.deliver = (event) => (waiting ? waiting.push(event) : subscriber.write(event));
  const remove = deps.hub.add(subscriber);
  response.on('close', remove);
  if (resumeFrom === null) return;
  try {
    subscriber.lastId = resumeFrom;
    const missed = await deps.store.inboxAfter(
      caller.environment_id,
      caller._id,
      query,
      resumeFrom,
      deps.watch.resumeLimit + 1,
    );
    if (missed.length > deps.watch.resumeLimit) {
      subscriber.end(`more than ${deps.watch.resumeLimit} notifications were missed; list the inbox, then watch again`);
      return;
    }
    const unread = await deps.store.unreadCount(caller.environment_id, caller._id);
    for (const doc of missed)
      subscriber.write({
        deploymentId: caller.environment_id,
        userId: caller._id,
        notification: inboxNotificationJson(doc),
        unreadCount: unread,
      });
    for (const event of waiting ?? []) subscriber.write(event);
  } catch (error) {
    request.log.error({ err: error }, 'replaying missed notifications failed');
    subscriber.end('the missed notifications could not be read; reconnect');
  } finally {
    waiting = null;
  }
}
