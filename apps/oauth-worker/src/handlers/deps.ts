import type { GrantRevocations, OAuthStore, OAuthWriter } from '@platform/oauth';

export interface HandlerDeps {
  store: OAuthStore;
  writer: OAuthWriter;
  revocations: Pick<GrantRevocations, 'revoke'>;
  refreshTokenTtlSeconds: number;
}
