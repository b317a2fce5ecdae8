import { randomUUID } from 'node:crypto';
import type { CommandReplies, CommandType, MessageTypes } from '@platform/contracts';
import { DeadlineExceededError, deserializeError, type SerializedError } from '@platform/errors';
import { SpanKind, withSpan } from '@platform/telemetry';
import { HEADERS } from './headers.js';
import type { Publisher } from './publisher.js';

/** Per-replica reply channel (Redis pub/sub in production): a reply reaches only the replica that waits. */
export interface ReplyTransport {
  subscribe(channel: string, onMessage: (message: string) => void): Promise<void>;
  publish(channel: string, message: string): Promise<void>;
  close(): Promise<void>;
}

export type CommandReply =
  | { correlation_id: string; ok: true; result: unknown }
  | { correlation_id: string; ok: false; error: SerializedError };

export interface SendOptions<T extends CommandType> {
  topic: string;
  key: string;
  type: T;
  value: MessageTypes[T];
  /** Idempotency: the same command id always yields the same effect and reply. */
  commandId?: string;
  timeoutMs?: number;
}

export interface CommandBus {
  start(): Promise<void>;
  /** Publishes the command and resolves with the reply declared beside it (CommandReplies), or rejects with the worker's error. */
  send<T extends CommandType>(options: SendOptions<T>): Promise<CommandReplies[T]>;
  pending(): number;
  stop(): Promise<void>;
}

export function replyChannel(replicaId: string): string {
  return `replies:${replicaId}`;
}

export function createCommandBus(options: {
  publisher: Publisher;
  transport: ReplyTransport;
  replicaId: string;
  defaultTimeoutMs?: number;
  /** Names the sender in spans (e.g. usermgmt-gateway). */
  component?: string;
}): CommandBus {
  const waiting = new Map<string, { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }>();
  const channel = replyChannel(options.replicaId);

  function onReply(raw: string) {
    let reply: CommandReply;
    try {
      reply = JSON.parse(raw) as CommandReply;
    } catch {
      return;
    }
    const entry = waiting.get(reply.correlation_id);
    if (!entry) return; // late reply after its deadline: dropped, the effect stands
    waiting.delete(reply.correlation_id);
    clearTimeout(entry.timer);
    if (reply.ok) entry.resolve(reply.result);
    else entry.reject(deserializeError(reply.error));
  }

  /** The reply is JSON from the worker whose handler map is typed to return CommandReplies[T]. */
  async function sendCommand<T extends CommandType>(send: SendOptions<T>): Promise<CommandReplies[T]> {
    const timeoutMs = send.timeoutMs ?? options.defaultTimeoutMs ?? 10_000;
    const correlationId = randomUUID();
    const result = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(correlationId);
        reject(
          new DeadlineExceededError('deadline_exceeded', `No reply to ${send.type} within ${timeoutMs} ms`),
        );
      }, timeoutMs);
      waiting.set(correlationId, { resolve, reject, timer });
    });
    // A fast worker can answer before the publish below has resolved: a rejection then must not count as
    // unhandled (the caller receives it through `result` all the same).
    result.catch(() => undefined);
    try {
      await options.publisher.publish({
        topic: send.topic,
        key: send.key,
        type: send.type,
        value: send.value,
        id: send.commandId ?? randomUUID(),
        headers: {
          [HEADERS.correlationId]: correlationId,
          [HEADERS.replyTo]: channel,
          [HEADERS.deadline]: String(Date.now() + timeoutMs),
        },
      });
    } catch (error) {
      const entry = waiting.get(correlationId);
      if (entry) clearTimeout(entry.timer);
      waiting.delete(correlationId);
      throw error;
    }
    return result as Promise<CommandReplies[T]>;
  }

  return {
    start: () => options.transport.subscribe(channel, onReply),
    pending: () => waiting.size,
    send(send) {
      return withSpan(
        '@platform/kafka',
        `send ${send.type}`,
        { kind: SpanKind.PRODUCER, attributes: { 'platform.component': options.component ?? 'gateway' } },
        () => sendCommand(send),
      );
    },
    async stop() {
      for (const [id, entry] of waiting) {
        clearTimeout(entry.timer);
        entry.reject(new DeadlineExceededError('shutting_down', 'The gateway is shutting down'));
        waiting.delete(id);
      }
      await options.transport.close();
    },
  };
}
