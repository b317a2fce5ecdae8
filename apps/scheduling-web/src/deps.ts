import type { UserDirectory } from '@platform/identity';
import type { CommandBus } from '@platform/kafka';
import type { FailureCounter } from '@platform/redis';
import type { OAuthCredentials, OAuthStore, UserReach } from '@platform/oauth';
import type { SessionStore } from './session.js';

export interface WebDeps {
  /** The read model (oauth-worker owns the writes; the web app changes clients only through commands). */
  store: Pick<OAuthStore, 'getClient' | 'clientsOwnedBy' | 'clientsWithStatus'>;
  users: Pick<UserDirectory, 'authenticate' | 'get'>;
  /** The teams and organizations a user belongs to: TEAM_ and ORG_ scopes need them (authorize "lacks permission"). */
  userReach(userId: string): Promise<UserReach>;
  commands: Pick<CommandBus, 'send'>;
  /** Team invite links: the team a valid token leads to (the scheduling model's read side). */
  teamInvites: { describe(token: string): Promise<{ teamId: number; teamName: string } | null> };
  credentials: OAuthCredentials;
  /** @fastify/session's store (createRedisSessionStore). */
  sessions: SessionStore;
  /** Brute-force protection of the login form (failed logins per client IP and per e-mail address). */
  loginFailures: {
    check(counters: FailureCounter[]): Promise<void>;
    recordFailure(counters: FailureCounter[]): Promise<void>;
  };
  loginLimits: { perIp: number; perEmail: number };
  /** {app_url} as an origin, e.g. `https://app.example.com`. */
  publicUrl: string;
  /** The authorization server's issuer identifier (RFC 9207 `iss`). */
  issuer: string;
  codeTtlSeconds: number;
}
