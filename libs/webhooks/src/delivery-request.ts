import { createHash } from 'node:crypto';

/** Deterministic per (event, target): re-publishing a request after a crash cannot deliver twice. */
export function deliveryIdFor(producer: string, eventId: string, targetId: string): string {
  return `whd_${createHash('sha256').update(`${producer}\n${eventId}\n${targetId}`).digest('hex').slice(0, 32)}`;
}
