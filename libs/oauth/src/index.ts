export * from './scopes.js';
export { changeNeedsReview, statusAfterChange, MAX_REDIRECT_URIS } from './client-review.js';
export type { ClientStatus, ReviewedFields } from './client-review.js';
export { decideAuthorize, errorRedirect, SCOPE_REQUIRED_MESSAGE, MAX_PARAM_LENGTH } from './authorize-request.js';
export type { AuthorizeClient, AuthorizeDecision, AuthorizeParams } from './authorize-request.js';
export { isValidCodeChallenge, pkceDigest } from './pkce.js';
export { scopesBeyondUser, NO_REACH } from './user-reach.js';
export type { UserReach } from './user-reach.js';
export { createAccessTokens, ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.js';
export type { AccessTokens, AccessTokenClaims } from './access-tokens.js';
export { validateClientInput, redirectUriProblem, CLIENT_LIMITS } from './client-input.js';
export type { ClientInput } from './client-input.js';
export {
  createOAuthCredentials,
  matchesAnySecret,
  derivedId,
  CLIENT_SECRET_PREFIX,
  REFRESH_TOKEN_PREFIX,
  CODE_PREFIX,
  MAX_CODE_TTL_SECONDS,
} from './credentials.js';
export type { OAuthCredentials } from './credentials.js';
export { createOAuthStore, createOAuthWriter } from './store.js';
export type {
  OAuthStore,
  OAuthModels,
  OAuthClientDoc,
  AuthorizationCodeDoc,
  GrantDoc,
  RefreshTokenDoc,
  ClientKind,
  ClientSecretEntry,
  OAuthWriter,
} from './store.js';
export { OAUTH_TOPICS } from './topics.js';
export { createGrantRevocations } from './revocations.js';
export type { GrantRevocations } from './revocations.js';
export { createBearerCheck, requireScope, tokenHasScope } from './bearer.js';
export type { BearerCheck } from './bearer.js';
export { SCOPE_DESCRIPTIONS } from './scope-descriptions.js';
export { authenticateClient, TOKEN_ERROR_REASONS } from './client-auth.js';
export type { ClientReply, IssuedGrant } from './replies.js';
