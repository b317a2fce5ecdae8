import { UnprocessableError } from '@platform/errors';
import { createIdempotency, type IdempotencyStore } from '@platform/http';

/**
 * `Idempotency-Key` on the creating POSTs (links, QR codes, campaigns, channels, webhooks), which Bitly does not
 * have: keys are the calling user's own (two users' equal keys never meet), kept 24 h; the same key with another
 * body is 422 IDEMPOTENCY_KEY_REUSED.
 */
export function createLinksIdempotency(store: IdempotencyStore) {
  return createIdempotency({
    store,
    scopeOf: (request) => `${request.caller!.environment_id}\n${request.caller!._id}`,
    reused: () =>
      new UnprocessableError('IDEMPOTENCY_KEY_REUSED', 'This Idempotency-Key was used with another request body.', {
        issues: [
          {
            field: 'Idempotency-Key',
            code: 'invalid',
            message: 'was used with another request body in the last 24 hours',
          },
        ],
      }),
  });
}
