import type { SignatureScheme } from './models.js';
import { standardSignature, workosSignature } from './signing.js';

/**
 * Every delivery carries the Standard Webhooks headers; a target of a service with its own scheme also
 * gets that service's header. The id is the event id, the same on every retry, so receivers can dedupe.
 */
export function deliveryHeaders(input: {
  scheme: SignatureScheme;
  /** The current secret first; during a rotation window also the previous one (each gets a signature). */
  secrets: string[];
  eventId: string;
  body: string;
  now?: number;
}): Record<string, string> {
  const now = input.now ?? Date.now();
  const seconds = Math.floor(now / 1000);
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'user-agent': 'platform-webhooks/1.0',
    'webhook-id': input.eventId,
    'webhook-timestamp': String(seconds),
    'webhook-signature': input.secrets.map((s) => standardSignature(s, input.eventId, seconds, input.body)).join(' '),
  };
  // The real service's header has room for one signature: the current secret's.
  if (input.scheme === 'workos') headers['workos-signature'] = workosSignature(input.secrets[0]!, now, input.body);
  return headers;
}
