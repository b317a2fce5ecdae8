import type { EgressClient } from '@platform/egress';
import type { Sealer } from '@platform/secrets';
import { SpanKind, extractTraceContext, withSpan } from '@platform/telemetry';
import { deliveryHeaders, type AttemptRecord, type AttemptResult, type DeliveryDoc } from '@platform/webhooks';
import type { OAuthTokens } from './oauth-tokens.js';

function isBlocked(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if ((e as { code?: unknown }).code === 'egress_blocked') return true;
  }
  return false;
}

function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const err = e as { name?: string; message?: string; code?: string };
    parts.push([err.code, err.message].filter(Boolean).join(' '));
  }
  return parts.filter(Boolean).join(' <- ').slice(0, 500) || 'unknown error';
}

/** One HTTP attempt of one delivery: signed POST through the SSRF-guarded client, never following redirects. */
export async function attemptDelivery(
  deps: { egress: EgressClient; sealer: Sealer; timeoutMs: number; tokens: OAuthTokens },
  delivery: DeliveryDoc,
): Promise<{ result: AttemptResult; record: AttemptRecord }> {
  return withSpan(
    '@platform/webhook-dispatcher',
    'webhook attempt',
    {
      kind: SpanKind.CLIENT,
      parent: extractTraceContext(delivery.trace_headers ?? {}),
      attributes: {
        'webhook.delivery_id': delivery._id,
        'webhook.event_id': delivery.event_id,
        'webhook.attempt': delivery.attempts + 1,
        'platform.component': 'webhook-dispatcher',
      },
    },
    async (span) => {
      const startedAt = new Date();
      const { target } = delivery;
      const secrets = [deps.sealer.open(target.sealed_secret)];
      if (target.previous_sealed_secret && (target.previous_secret_expires_at ?? 0) > startedAt.getTime()) {
        secrets.push(deps.sealer.open(target.previous_sealed_secret));
      }
      const headers = deliveryHeaders({
        scheme: target.signature_scheme,
        secrets,
        eventId: delivery.event_id,
        body: delivery.payload,
        now: startedAt.getTime(),
      });
      try {
        const post = async (fresh: boolean) => {
          const auth: Record<string, string> = {};
          if (target.oauth) {
            if (fresh) deps.tokens.invalidate(target.oauth);
            auth['authorization'] = `Bearer ${await deps.tokens.get(target.oauth)}`;
          }
          return deps.egress.send({
            url: target.url,
            method: 'POST',
            headers: { ...headers, ...auth },
            body: delivery.payload,
            timeoutMs: deps.timeoutMs,
            maxBodyBytes: 1024,
          });
        };
        let response = await post(false);
        // A 401 with OAuth means the cached token was revoked or expired early: one retry with a new token.
        if (response.status === 401 && target.oauth) response = await post(true);
        span.setAttribute('http.response.status_code', response.status);
        const retryAfter = response.headers['retry-after'];
        return {
          result: {
            kind: 'response',
            status: response.status,
            retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
          },
          record: {
            status: response.status,
            latencyMs: response.latencyMs,
            error: null,
            responseBody: response.body,
            startedAt,
          },
        };
      } catch (error) {
        const message = describe(error);
        span.setAttribute('error.type', message.slice(0, 100));
        return {
          result: { kind: 'error', error: message, blocked: isBlocked(error) },
          record: {
            status: null,
            latencyMs: Date.now() - startedAt.getTime(),
            error: message,
            responseBody: '',
            startedAt,
          },
        };
      }
    },
  );
}
