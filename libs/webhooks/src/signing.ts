import { createHmac } from 'node:crypto';
import { safeEqual } from '@platform/secrets';

/** The real user-management service's header: `WorkOS-Signature: t=<ms>, v1=<hex HMAC-SHA256(secret, "t.body")>`. */
export function workosSignature(secret: string, timestampMs: number, body: string): string {
  const digest = createHmac('sha256', secret).update(`${timestampMs}.${body}`).digest('hex');
  return `t=${timestampMs}, v1=${digest}`;
}

export function verifyWorkosSignature(
  header: string,
  body: string,
  secret: string,
  options: { toleranceMs?: number; now?: number } = {},
): boolean {
  const parts = Object.fromEntries(
    header.split(',').map((p) => {
      const [k, ...v] = p.trim().split('=');
      return [k, v.join('=')];
    }),
  );
  const t = Number(parts['t']);
  const v1 = parts['v1'];
  if (!Number.isFinite(t) || !v1) return false;
  if (Math.abs((options.now ?? Date.now()) - t) > (options.toleranceMs ?? 5 * 60 * 1000)) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');
  return safeEqual(expected, v1);
}

/**
 * Standard Webhooks (standardwebhooks.com): `webhook-signature: v1,<base64 HMAC-SHA256(key, "id.ts.body")>`
 * where the key is the base64 part of a `whsec_` secret.
 */
export function standardSignature(secret: string, messageId: string, timestampSeconds: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64');
  const digest = createHmac('sha256', key).update(`${messageId}.${timestampSeconds}.${body}`).digest('base64');
  return `v1,${digest}`;
}

export function verifyStandardSignature(
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  secrets: string[],
  options: { toleranceSeconds?: number; nowSeconds?: number } = {},
): boolean {
  const ts = Number(headers.timestamp);
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (!Number.isInteger(ts) || Math.abs(now - ts) > (options.toleranceSeconds ?? 300)) return false;
  const presented = headers.signature.split(' ').filter((s) => s.startsWith('v1,'));
  return secrets.some((secret) => {
    const expected = standardSignature(secret, headers.id, ts, body);
    return presented.some((p) => safeEqual(p, expected));
  });
}
