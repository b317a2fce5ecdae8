import type { FastifyReply, FastifyRequest } from 'fastify';
import { InputError } from '@platform/errors';
import { NoContent, Type, type HttpApp } from '@platform/http';
import { inboxNotificationJson, watchQueryOf, type WatchQuery } from '@platform/notifications';
import type { WebSocket } from 'ws';
import { requireOwnCursor } from '../../cursor.js';
import type { GatewayDeps } from '../../deps.js';
import { refuseListsOverLimit } from '../../inbox-query.js';
import { SESSION_PARAMETER } from '../../auth.js';
import { InboxFilterQuery, browserSecurity, errorResponses } from '../../schemas.js';
import type { WatchEvent } from '../../watch-hub.js';
import { sseSubscriber, webSocketSubscriber } from '../../watch-streams.js';

declare module 'fastify' {
  interface FastifyRequest {
    watch: WatchQuery | undefined;
  }
}

const UUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

const schema = {
  summary: 'Watch new inbox notifications (WebSocket, or text/event-stream)',
  description:
    'Upgrade to a WebSocket (frames: `{notification, unread_count}`), or ask for Server-Sent Events with `Accept: text/event-stream` (resume with `Last-Event-ID`). A slow reader is closed with a reason.',
  tags: ['inbox'],
  security: browserSecurity,
  querystring: Type.Object(
    {
      ...InboxFilterQuery,
      format: Type.Optional(Type.String({ maxLength: 20, description: '`plaintext`; anything else is markdown.' })),
      [SESSION_PARAMETER]: Type.Optional(
        Type.String({
          maxLength: 512,
          description: 'The session token, for a browser’s `EventSource` or `WebSocket` (never logged).',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  headers: Type.Object({
    'last-event-id': Type.Optional(
      Type.String({
        pattern: `^\\s*(?:${UUID})?\\s*$`,
        errorMessage: 'must be the id of a notification',
        description:
          'Resume after this notification (SSE); one that is not the caller’s own is 404, as an unknown one.',
      }),
    ),
  }),
  response: {
    200: {
      description: 'The stream of new notifications, as Server-Sent Events.',
      content: { 'text/event-stream': { schema: Type.String() } },
    },
    101: NoContent('Switched to a WebSocket.'),
    ...errorResponses,
  },
};

/**
 * The live inbox: a WebSocket (as Coder serves it) or, for clients that cannot open one, Server-Sent Events
 * with `Last-Event-ID` resume. Both are fed by the hub (the notifications.events topic), never by the store,
 * except for the replay of what a reconnecting SSE client missed.
 */
export function watchInboxNotificationsRoute(app: HttpApp, deps: GatewayDeps) {
  app.decorateRequest('watch', undefined);
  app.route({
    method: 'GET',
    url: '/api/v2/notifications/inbox/watch',
    schema,
    config: { browserSession: true },
    // After the schema has judged the query, before either transport answers (a WebSocket is upgraded only by
    // the handler): the one count the schema cannot make is refused in the same 400; the rest is only reshaped.
    preHandler: async (request) => {
      refuseListsOverLimit(request.query);
      request.watch = watchQueryOf(request.query);
    },
    handler: (request, reply) => serveSse(deps, request, reply),
    wsHandler: (socket, request) => serveWebSocket(deps, socket, request),
  });
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
  const resumeFrom = typeof lastEventId === 'string' && lastEventId.trim() ? lastEventId.trim().toLowerCase() : null;
  if (resumeFrom !== null) await requireOwnCursor(deps, caller, 'last-event-id', resumeFrom);

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
    const missed = await deps.store.inbox.after(
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
    const unread = await deps.store.inbox.unreadCount(caller.environment_id, caller._id);
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
