import type { GrantRevocations, OAuthStore } from '@platform/oauth';

export interface HandlerDeps {
  store: OAuthStore;
  revocations: Pick<GrantRevocations, 'revoke'>;
  refreshTokenTtlSeconds: number;
  /** Tells the outbox relay which document just received events, so it reads that one instead of scanning. */
  touched?(collection: string, id: string): void;
}
