import { createHash, createHmac } from 'node:crypto';

export interface SigV4Request {
  method: string;
  url: URL;
  headers: Record<string, string>;
  payloadSha256: string;
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
  service: string;
  now: Date;
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
export const sha256Hex = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');

/** RFC 3986 encoding as SigV4 wants it: every byte but A-Z a-z 0-9 - _ . ~ is %XX (path slashes kept). */
function uriEncode(value: string, keepSlash: boolean): string {
  return [...Buffer.from(value, 'utf8')]
    .map((byte) => {
      const c = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-_.~]/.test(c) || (keepSlash && c === '/')) return c;
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
}

/** The object key of an S3 URL path, encoded once for both the request line and the signature. */
export function encodeS3Path(path: string): string {
  return uriEncode(path, true);
}

/**
 * AWS Signature Version 4 (header form): returns the headers to send, `authorization` included.
 * `url.pathname` must already be encoded with {@link encodeS3Path} (S3 signs the path as sent).
 */
export function signV4(req: SigV4Request): Record<string, string> {
  const amzDate = req.now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
  const day = amzDate.slice(0, 8);
  const headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k.toLowerCase(), v.trim()])),
    host: req.url.host,
    'x-amz-date': amzDate,
    'x-amz-content-sha256': req.payloadSha256,
  };
  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((n) => `${n}:${headers[n]!.replace(/\s+/g, ' ')}\n`).join('');
  const signedHeaders = names.join(';');
  const query = [...req.url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [
    req.method,
    req.url.pathname,
    query,
    canonicalHeaders,
    signedHeaders,
    req.payloadSha256,
  ].join('\n');
  const scope = `${day}/${req.region}/${req.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${req.secretAccessKey}`, day), req.region), req.service), 'aws4_request');
  const signature = createHmac('sha256', signingKey).update(stringToSign, 'utf8').digest('hex');
  headers['authorization'] =
    `AWS4-HMAC-SHA256 Credential=${req.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return headers;
}
