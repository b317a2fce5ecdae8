import { randomUUID } from 'node:crypto';
import { hasField, topicOfRecord, type CommandReplies, type CommandType, type MessageTypes } from '@platform/contracts';
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
  { correlation_id: string; ok: true; result: unknown } | { correlation_id: string; ok: false; error: SerializedError };

type Stamped = 'requested_at';

/** A command's body as a sender writes it: the bus stamps `requested_at` (now) where the record has one and the sender gave none. */
export type CommandValue<T extends CommandType> = Omit<MessageTypes[T], Stamped> &
  Partial<Pick<MessageTypes[T], Extract<keyof MessageTypes[T], Stamped>>>;

export interface SendOptions {
  /** Idempotency: the same command id always yields the same effect and reply (default: a new one). */
  commandId?: string;
  /** The reply's deadline (default: the bus's). */
  timeoutMs?: number;
}

export interface CommandBus {
  start(): Promise<void>;
  /**
   * Publishes the command on its record's topic (the catalogue's), keyed by `key`, and resolves with the reply
   * declared beside it (CommandReplies), or rejects with the worker's error.
   */
  send<T extends CommandType>(
    type: T,
    key: string,
    value: CommandValue<T>,
    options?: SendOptions,
  ): Promise<CommandReplies[T]>;
  pending(): number;
  stop(): Promise<void>;
}

/** The record's `requested_at`, when its schema has one, is the moment it is sent. */
function stamped<T extends CommandType>(type: T, value: CommandValue<T>): MessageTypes[T] {
  return (hasField(type, 'requested_at') ? { requested_at: Date.now(), ...value } : value) as MessageTypes[T];
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
  const waiting = new Map<
    string,
    { resolve: (v: unknown) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
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
  async function sendCommand<T extends CommandType>(
    type: T,
    key: string,
    value: CommandValue<T>,
    send: SendOptions,
  ): Promise<CommandReplies[T]> {
    const timeoutMs = send.timeoutMs ?? options.defaultTimeoutMs ?? 10_000;
    const correlationId = randomUUID();
    const result = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        waiting.delete(correlationId);
        reject(new DeadlineExceededError('deadline_exceeded', `No reply to ${type} within ${timeoutMs} ms`));
      }, timeoutMs);
      waiting.set(correlationId, { resolve, reject, timer });
    });
    // A fast worker can answer before the publish below has resolved: a rejection then must not count as
    // unhandled (the caller receives it through `result` all the same).
    result.catch(() => undefined);
    try {
      await options.publisher.publish({
        topic: topicOfRecord(type),
        key,
        type,
        value: stamped(type, value),
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
    send(type, key, value, send = {}) {
      return withSpan(
        '@platform/kafka',
        `send ${type}`,
        { kind: SpanKind.PRODUCER, attributes: { 'platform.component': options.component ?? 'gateway' } },
        () => sendCommand(type, key, value, send),
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
