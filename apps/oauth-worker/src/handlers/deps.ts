import type { GrantRevocations, OAuthStore } from '@platform/oauth';

export interface HandlerDeps {
  store: OAuthStore;
  revocations: Pick<GrantRevocations, 'revoke'>;
  refreshTokenTtlSeconds: number;
}
