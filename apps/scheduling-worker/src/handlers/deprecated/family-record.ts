import type { CommandReplies, MessageType, MessageTypeNames, MessageTypes } from '@platform/contracts';
import { InputError } from '@platform/errors';
import { input } from '@platform/scheduling';
import type { Msg } from '../common.js';
import type { HandlerDeps } from '../deps.js';

/**
 * The deprecated family records (an action and the request body as JSON), still sent by gateways of the
 * previous release: each action is read into the record of its intent and handled by that record's handler.
 * The body's members are read as the record holds them; their values are the handler's to check, as for
 * any record. The gateways that send these checked each body's shape against their route's schema first.
 */

type N = typeof MessageTypeNames;
export type Family =
  N['TeamCommand'] | N['MembershipCommand'] | N['EventTypeCommand'] | N['ScheduleCommand'] | N['BookingCommand'];

export type Payload = Record<string, unknown>;

export type ReadAction<F extends Family> = (
  deps: HandlerDeps,
  message: Msg<F>,
  payload: Payload,
) => Promise<CommandReplies[F]>;

function payloadOf(json: string): Payload {
  let parsed: unknown;
  try {
    parsed = JSON.parse(json);
  } catch {
    parsed = undefined;
  }
  return input.asObject(parsed);
}

export function familyRecordHandler<F extends Family>(family: string, actions: Record<string, ReadAction<F>>) {
  return async (deps: HandlerDeps, message: Msg<F>): Promise<CommandReplies[F]> => {
    const payload = payloadOf(message.value.payload);
    const { action } = message.value;
    const read = Object.hasOwn(actions, action) ? actions[action] : undefined;
    if (!read) throw new InputError('bad_request', `Unknown ${family} action ${action}.`);
    return read(deps, message, payload);
  };
}

/** The message with the record of its intent in place of the family record (its id, key and headers kept). */
export function asIntent<T extends MessageType>(message: Msg<Family>, type: T, value: MessageTypes[T]): Msg<T> {
  return { ...message, type, value };
}

const bad = (message: string) => new InputError('bad_request', message);

/** A string member as sent; null when absent. */
export function text(payload: Payload, field: string): string | null {
  const value = payload[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw bad(`${field} must be a string.`);
  return value;
}

export function requiredText(payload: Payload, field: string): string {
  const value = text(payload, field);
  if (value === null) throw bad(`${field} is required.`);
  return value;
}

/** A number member as sent; null when absent. */
export function number(payload: Payload, field: string): number | null {
  const value = payload[field];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'number') throw bad(`${field} must be a number.`);
  return value;
}

export function requiredNumber(payload: Payload, field: string): number {
  const value = number(payload, field);
  if (value === null) throw bad(`${field} is required.`);
  return value;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((item) => typeof item === 'string');

function listOf<T>(
  payload: Payload,
  field: string,
  shape: string,
  read: (item: Record<string, unknown>) => T | null,
): T[] | null {
  const value = payload[field];
  if (value === undefined || value === null) return null;
  const items = Array.isArray(value) ? value.map((item) => (isObject(item) ? read(item) : null)) : [null];
  if (!items.every((item): item is T => item !== null)) throw bad(`${field} must be a list of ${shape}.`);
  return items;
}

export function weeklyRanges(payload: Payload) {
  return listOf(payload, 'availability', '{days, startTime, endTime}', (r) =>
    isStrings(r['days']) && typeof r['startTime'] === 'string' && typeof r['endTime'] === 'string'
      ? { days: r['days'], start_time: r['startTime'], end_time: r['endTime'] }
      : null,
  );
}

export function dateOverrides(payload: Payload) {
  return listOf(payload, 'overrides', '{date, startTime, endTime}', (o) =>
    typeof o['date'] === 'string' && typeof o['startTime'] === 'string' && typeof o['endTime'] === 'string'
      ? { date: o['date'], start_time: o['startTime'], end_time: o['endTime'] }
      : null,
  );
}
