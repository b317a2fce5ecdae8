import type { UserDirectory } from '@platform/identity';
import type { CommandBus } from '@platform/kafka';
import type { AccessTokens, BearerCheck, OAuthCredentials, OAuthStore } from '@platform/oauth';
import type { FailureLimiter } from './failure-limiter.js';

export interface GatewayDeps {
  store: OAuthStore;
  users: UserDirectory;
  commands: CommandBus;
  accessTokens: AccessTokens;
  credentials: OAuthCredentials;
  bearer: BearerCheck;
  failures: FailureLimiter;
  issuer: string;
  webUrl: string;
  commandTimeoutMs: number;
}
