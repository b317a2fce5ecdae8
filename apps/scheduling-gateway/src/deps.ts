import type { UserDirectory } from '@platform/identity';
import type { CommandBus } from '@platform/kafka';
import type { AccessTokens, BearerCheck, OAuthCredentials, OAuthStore } from '@platform/oauth';
import type { SchedulingStore } from '@platform/scheduling';
import type { FailureLimiter } from './failure-limiter.js';

export interface GatewayDeps {
  store: OAuthStore;
  /** The scheduling model's read side (apps/scheduling-worker owns and writes it). */
  scheduling: SchedulingStore;
  users: UserDirectory;
  commands: CommandBus;
  accessTokens: AccessTokens;
  credentials: OAuthCredentials;
  bearer: BearerCheck;
  failures: FailureLimiter;
  issuer: string;
  webUrl: string;
}
