import type { GrantRevocations, OAuthStore, OAuthWriter } from '@platform/oauth';

export interface HandlerDeps {
  store: OAuthStore;
  writer: OAuthWriter;
  revocations: Pick<GrantRevocations, 'revoke'>;
  refreshTokenTtlSeconds: number;
  /** Tells the outbox relay which document just received events, so it reads that one instead of scanning. */
  touched?(collection: string, id: string): void;
}
