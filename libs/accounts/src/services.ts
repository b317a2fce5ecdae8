/** Services that issue API keys; `keys create <service>` accepts these names. */
export const SERVICES = ['usermgmt', 'images', 'notifications', 'links'] as const;
export type Service = (typeof SERVICES)[number];

export function isService(value: string): value is Service {
  return (SERVICES as readonly string[]).includes(value);
}

/** Key prefixes follow the real services where they have one (WorkOS: `sk_test_`/`sk_live_`). */
export const KEY_PREFIX: Record<Service, string> = {
  usermgmt: 'sk_test_',
  images: '',
  notifications: 'nk_',
  links: 'lk_',
};
