import { createHash } from 'node:crypto';
import { InputError } from '@platform/errors';
import { ROLES, type Role, type SchedulingType } from './store.js';

/**
 * The write payloads, validated by the worker (the gateway's JSON schemas check shapes first; commands
 * are input too). Every message names the field at fault.
 */
const bad = (message: string) => new InputError('bad_request', message);

export function asObject(value: unknown, what = 'The request body'): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw bad(`${what} must be a JSON object.`);
  return value as Record<string, unknown>;
}

/** A length as JSON Schema's maxLength counts it (characters, not UTF-16 units). */
function codePoints(value: string): number {
  return value.length <= 1 ? value.length : [...value].length;
}

/** A string value, trimmed; undefined when not given (null or undefined). `field` names it in the error. */
export function text(value: unknown, field: string, max: number): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim().length === 0 || codePoints(value) > max)
    throw bad(`${field} must be a non-empty string of at most ${max} characters.`);
  return value.trim();
}

export function requiredText(value: unknown, field: string, max: number): string {
  const checked = text(value, field, max);
  if (checked === undefined) throw bad(`${field} is required.`);
  return checked;
}

export function optionalString(body: Record<string, unknown>, field: string, max: number): string | undefined {
  return text(body[field], field, max);
}

export function requiredString(body: Record<string, unknown>, field: string, max: number): string {
  return requiredText(body[field], field, max);
}

export function url(value: unknown, field: string): string | undefined {
  const given = text(value, field, 2048);
  if (given === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(given);
  } catch {
    throw bad(`${field} must be an absolute http(s) URL.`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    throw bad(`${field} must be an absolute http(s) URL.`);
  return parsed.toString();
}

/**
 * A slug from a name: ASCII letters and digits (accents dropped) joined by single hyphens. A name with none
 * (written in another script, or symbols only) gets a short digest of itself instead of an empty slug, so
 * that distinct names get distinct slugs (and the same name the same slug, as ASCII names do).
 */
export function slugify(value: string): string {
  const ascii = value
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return ascii || createHash('sha256').update(value.normalize('NFC').trim()).digest('hex').slice(0, 12);
}

export function slug(value: unknown, field = 'slug'): string | undefined {
  const given = text(value, field, 100);
  if (given === undefined) return undefined;
  if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(given))
    throw bad(`${field} may contain only lowercase letters, digits and single hyphens.`);
  return given;
}

export function optionalRole(body: Record<string, unknown>): Role | undefined {
  const value = body['role'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !(ROLES as readonly string[]).includes(value))
    throw bad(`role must be one of ${ROLES.join(', ')}.`);
  return value as Role;
}

export function optionalBoolean(body: Record<string, unknown>, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') throw bad(`${field} must be true or false.`);
  return value;
}

export function lengthInMinutes(value: unknown, required: boolean): number | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > 1440)
    throw bad('lengthInMinutes must be an integer from 1 to 1440.');
  return value;
}

export function optionalSchedulingType(body: Record<string, unknown>): SchedulingType | undefined {
  const value = body['schedulingType'];
  if (value === undefined) return undefined;
  if (value !== 'COLLECTIVE' && value !== 'ROUND_ROBIN') throw bad('schedulingType must be COLLECTIVE or ROUND_ROBIN.');
  return value;
}

const tooManyHosts = () => bad('hosts must be a list of at most 100 {userId} objects.');

/** The user ids of `hosts: [{userId}]` (the real API's shape), at most 100, each once. */
export function hostIds(ids: readonly unknown[]): string[] {
  if (ids.length > 100) throw tooManyHosts();
  const checked = ids.map((userId, i) => {
    if (typeof userId !== 'string' || userId.length === 0 || userId.length > 100)
      throw bad(`hosts[${i}].userId must be a user id.`);
    return userId;
  });
  return [...new Set(checked)];
}

export function optionalHosts(body: Record<string, unknown>): string[] | undefined {
  const raw = body['hosts'];
  if (raw === undefined) return undefined;
  if (!Array.isArray(raw)) throw tooManyHosts();
  return hostIds(
    raw.map((h) => (typeof h === 'object' && h !== null ? (h as { userId?: unknown }).userId : undefined)),
  );
}

export function attendeeOf(body: Record<string, unknown>): { name: string; email: string; timeZone: string } {
  const attendee = asObject(body['attendee'], 'attendee');
  const name = requiredString(attendee, 'name', 200);
  const email = requiredString(attendee, 'email', 320).toLowerCase();
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw bad('attendee.email must be an e-mail address.');
  const timeZone = requiredString(attendee, 'timeZone', 64);
  if (!isTimeZone(timeZone)) throw bad('attendee.timeZone must be an IANA time zone such as Europe/Berlin.');
  return { name, email, timeZone };
}

export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

export function positiveId(value: unknown, field: string): number {
  const n = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) throw bad(`${field} must be a positive integer.`);
  return n;
}
