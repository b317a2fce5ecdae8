import { createHash } from 'node:crypto';

/** RFC 7636: verifier is 43–128 characters of [A-Z a-z 0-9 - . _ ~]. */
const VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
const CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function isValidCodeChallenge(challenge: string): boolean {
  return CHALLENGE.test(challenge);
}

/**
 * The S256 digest of a well-formed verifier (what the authorization request's code_challenge must equal), or
 * null. S256 only: `plain` is refused everywhere (RFC 9700 2.1.1); the worker compares digests (ADR 0007).
 */
export function pkceDigest(verifier: string): string | null {
  if (!VERIFIER.test(verifier)) return null;
  return createHash('sha256').update(verifier).digest('base64url');
}
