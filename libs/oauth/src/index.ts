export * from './scopes.js';
export { changeNeedsReview, statusAfterChange, MAX_REDIRECT_URIS } from './client-review.js';
export type { ClientStatus, ReviewedFields } from './client-review.js';
export { decideAuthorize, errorRedirect, SCOPE_REQUIRED_MESSAGE } from './authorize-request.js';
export type { AuthorizeClient, AuthorizeDecision, AuthorizeParams } from './authorize-request.js';
export { verifyPkce, isValidCodeChallenge } from './pkce.js';
export { createAccessTokens, ACCESS_TOKEN_TTL_SECONDS } from './access-tokens.js';
export type { AccessTokens, AccessTokenClaims } from './access-tokens.js';
