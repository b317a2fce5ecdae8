import { createHash, randomInt } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62^7 ≈ 3.5 × 10^12 hashes: random ones are unguessable at any realistic number of links per domain. */
export const HASH_LENGTH = 7;

/** A random back-half from a CSPRNG (links must not be enumerable); the store's unique index catches a collision. */
export function randomHash(length = HASH_LENGTH): string {
  let hash = '';
  for (let i = 0; i < length; i++) hash += ALPHABET[randomInt(ALPHABET.length)];
  return hash;
}

/** A custom back-half (keyword): letters, digits, `-` and `_`, 1 to 100 characters, not reserved. */
const KEYWORD = /^[A-Za-z0-9_-]{1,100}$/;
/** Paths the redirector serves itself, or that would read as something else than a link. */
const RESERVED = new Set(['healthz', 'readyz', 'metrics', 'robots.txt', 'favicon.ico', 'v4', 'api', 'static']);

export function keywordProblem(keyword: string): string | null {
  if (!KEYWORD.test(keyword)) return 'a keyword is 1 to 100 letters, digits, hyphens and underscores';
  if (RESERVED.has(keyword.toLowerCase())) return `the keyword ${keyword} is reserved`;
  return null;
}

/**
 * The back-half a command gets on its `attempt`-th try: derived from the command id (a random UUID), so it is
 * as unguessable as a random one, and a redelivered command finds the link it made before instead of making a
 * second one.
 */
export function hashForCommand(commandId: string, attempt: number, length = HASH_LENGTH): string {
  const digest = createHash('sha256').update(`${commandId}\n${attempt}`).digest();
  let hash = '';
  for (let i = 0; i < length; i++) hash += ALPHABET[digest[i]! % ALPHABET.length];
  return hash;
}

/** A group's guid, Bitly-style: `B` and 10 base62 characters. */
export function newGroupGuid(): string {
  return `B${randomHash(10)}`;
}
