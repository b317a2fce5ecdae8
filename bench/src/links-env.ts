import { isolatedAppEnv } from '@platform/testing';

/** The environment the link-shortening benchmarks run the links apps in, isolated by `name`. */
export function linksBenchEnv(name: string): Record<string, string> {
  return isolatedAppEnv(name, {
    API_KEY_PEPPER: 'bench-pepper-0123456789abcdef',
    SECRETS_SEALING_KEY: 'bench-sealing-key-0123456789abcdef',
    LINKS_DEFAULT_DOMAIN: 'sho.rt',
    // Bitly-style platform limits (an hour's calls, a tenth of them a minute) would stop a benchmark at 1 000 a minute.
    LINKS_HOURLY_LIMIT: '100000000',
  });
}
