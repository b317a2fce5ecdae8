import type { EgressClient } from '@platform/egress';
import type { Sealer } from '@platform/secrets';

interface CachedToken {
  token: string;
  expiresAt: number;
}

export interface OAuthTarget {
  token_url: string;
  client_id: string;
  sealed_client_secret: string;
  scope: string | null;
}

/**
 * Bearer tokens for targets that authenticate by OAuth 2.0 client credentials (RFC 6749 4.4): fetched through
 * the SSRF-guarded client, cached until shortly before they expire, dropped when the target answers 401.
 */
export function createOAuthTokens(deps: { egress: EgressClient; sealer: Sealer; timeoutMs: number }) {
  const cache = new Map<string, CachedToken>();
  const inFlight = new Map<string, Promise<string>>();
  const keyOf = (t: OAuthTarget) => `${t.token_url}\n${t.client_id}\n${t.scope ?? ''}`;

  async function fetchToken(target: OAuthTarget): Promise<string> {
    const body = new URLSearchParams({ grant_type: 'client_credentials' });
    if (target.scope) body.set('scope', target.scope);
    const basic = Buffer.from(
      `${encodeURIComponent(target.client_id)}:${encodeURIComponent(deps.sealer.open(target.sealed_client_secret))}`,
    ).toString('base64');
    const response = await deps.egress.send({
      url: target.token_url,
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${basic}`,
      },
      body: body.toString(),
      timeoutMs: deps.timeoutMs,
      maxBodyBytes: 16 * 1024,
    });
    if (response.status !== 200) throw new Error(`token endpoint answered ${response.status}`);
    const parsed = JSON.parse(response.body) as { access_token?: unknown; expires_in?: unknown };
    if (typeof parsed.access_token !== 'string') throw new Error('token endpoint sent no access_token');
    const ttl = typeof parsed.expires_in === 'number' ? parsed.expires_in : 3600;
    cache.set(keyOf(target), { token: parsed.access_token, expiresAt: Date.now() + Math.max(0, ttl - 30) * 1000 });
    return parsed.access_token;
  }

  return {
    async get(target: OAuthTarget): Promise<string> {
      const key = keyOf(target);
      const cached = cache.get(key);
      if (cached && cached.expiresAt > Date.now()) return cached.token;
      let pending = inFlight.get(key);
      if (!pending) {
        pending = fetchToken(target).finally(() => inFlight.delete(key));
        inFlight.set(key, pending);
      }
      return pending;
    },
    invalidate(target: OAuthTarget) {
      cache.delete(keyOf(target));
    },
  };
}

export type OAuthTokens = ReturnType<typeof createOAuthTokens>;
