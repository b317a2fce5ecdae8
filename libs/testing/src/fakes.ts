import { randomUUID } from 'node:crypto';
import {
  topicOfRecord,
  type CommandReplies,
  type CommandType,
  type MessageType,
  type MessageTypes,
} from '@platform/contracts';
import type { Clock, CommandBus, IncomingMessage, MessageMeta } from '@platform/kafka';

/**
 * Small fakes for the handler unit tier: handlers run without a broker, a store or a clock of their own, and
 * the test reads what they did from the fakes.
 */

export interface FakeClock extends Clock {
  advance(ms: number): void;
  set(at: Date | number): void;
}

export function fakeClock(start: Date | number | string = '2030-01-07T09:00:00Z'): FakeClock {
  let now = new Date(start).getTime();
  return {
    now: () => now,
    advance(ms) {
      now += ms;
    },
    set(at) {
      now = new Date(at).getTime();
    },
  };
}

/** A consumed message as a handler receives it (headers filled in as a gateway would send them). */
export function fakeMessage<T extends MessageType>(
  type: T,
  value: MessageTypes[T],
  meta: Partial<MessageMeta> = {},
): IncomingMessage<T> {
  return {
    topic: 'test',
    partition: 0,
    offset: '0',
    key: null,
    type,
    value,
    meta: { id: randomUUID(), type, source: '/test', time: new Date().toISOString(), schema: 'test', raw: {}, ...meta },
    heartbeat: async () => undefined,
  };
}

export interface SentCommand {
  topic: string;
  key: string;
  type: CommandType;
  value: unknown;
  commandId: string | undefined;
}

export interface FakeCommandBus extends CommandBus {
  sent: SentCommand[];
}

type Answers = { [T in CommandType]?: (value: MessageTypes[T]) => CommandReplies[T] | Promise<CommandReplies[T]> };

/**
 * A command bus that records what is sent and answers from `answers` (throwing from an answer is a rejection
 * reply); a command with no answer fails the way a worker's rejection would, so a forgotten case shows.
 */
export function fakeCommandBus(answers: Answers = {}): FakeCommandBus {
  const sent: SentCommand[] = [];
  return {
    sent,
    start: async () => undefined,
    stop: async () => undefined,
    pending: () => 0,
    async send(type, key, value, options) {
      sent.push({ topic: topicOfRecord(type), key, type, value, commandId: options?.commandId });
      const answer = answers[type] as ((value: unknown) => unknown) | undefined;
      if (!answer) throw new Error(`fakeCommandBus: no answer for ${type}`);
      return (await answer(value)) as never;
    },
  };
}

export interface Call {
  method: string;
  args: unknown[];
}

/**
 * A stand-in for a store, repository or client: the methods given are used (and every call recorded in
 * `calls`); calling any other method throws, naming it, so a handler reaching for more than the test
 * arranged fails loudly instead of receiving `undefined`.
 */
export function fake<T extends object>(methods: Partial<T> = {}): T & { calls: Call[] } {
  const calls: Call[] = [];
  return new Proxy(methods as T & { calls: Call[] }, {
    get(target, property) {
      if (property === 'calls') return calls;
      if (property === 'then') return undefined; // not a thenable
      const member = (target as Record<PropertyKey, unknown>)[property];
      if (member === undefined) {
        return () => {
          throw new Error(`fake: ${String(property)} was called but not arranged`);
        };
      }
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        calls.push({ method: String(property), args });
        return (member as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}
