import { request as httpRequest } from 'node:http';
import type { LinksStack, LinksUser } from './links-stack.js';

/** A new short link for longUrl, shortened by user through the gateway; answers its id (`<domain>/<hash>`). */
export async function shorten(stack: LinksStack, user: LinksUser, longUrl: string): Promise<string> {
  const response = await fetch(`${stack.url}/v4/shorten`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ long_url: longUrl, force_new_link: true }),
  });
  if (response.status !== 201)
    throw new Error(`POST /v4/shorten answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

/**
 * A visit of a short link (`<domain>/<hash>`) at a redirector, with the link's domain as Host; answers the status.
 * The redirect itself is not followed (node:http, not fetch).
 */
export function visit(redirector: string, link: string, headers: Record<string, string> = {}): Promise<number> {
  const [domain, hash] = link.split('/') as [string, string];
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest(new URL(`/${hash}`, redirector), { headers: { host: domain, ...headers } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode!));
    });
    req.on('error', reject);
    req.end();
  });
}
