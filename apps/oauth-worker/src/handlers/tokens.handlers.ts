import { MessageTypeNames } from '@platform/contracts';
import { InputError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { isDuplicateKeyError, outboxEvent } from '@platform/mongo';
import {
  authenticateClient,
  derivedId,
  isLegacyScopeSet,
  isScope,
  MAX_CODE_TTL_SECONDS,
  TOKEN_ERROR_REASONS,
  type AuthorizationCodeDoc,
  type GrantDoc,
  type IssuedGrant,
  type RefreshTokenDoc,
} from '@platform/oauth';
import { safeEqual } from '@platform/secrets';
import type { HandlerDeps } from './deps.js';
import { revokeGrant } from './grants.js';

type Msg<T extends keyof typeof MessageTypeNames> = IncomingMessage<(typeof MessageTypeNames)[T]>;

const invalidCode = () => new InputError('invalid_grant', TOKEN_ERROR_REASONS.codeInvalidOrExpired);
const invalidRefresh = () => new InputError('invalid_grant', TOKEN_ERROR_REASONS.invalidRefreshToken);

export async function issueAuthorizationCode(deps: HandlerDeps, message: Msg<'IssueAuthorizationCode'>) {
  const v = message.value;
  const client = await deps.store.getClient(v.client_id);
  if (!client || client.status !== 'accepted')
    throw new InputError('unauthorized_client', 'This client is not approved.');
  if (!client.redirect_uris.includes(v.redirect_uri))
    throw new InputError('invalid_request', 'redirect_uri is not registered for this client.');
  const legacy = isLegacyScopeSet(client.scopes);
  if (
    v.scopes.length === 0 ||
    !v.scopes.every(isScope) ||
    (!legacy && !v.scopes.every((s) => client.scopes.includes(s)))
  ) {
    throw new InputError('invalid_scope', 'The requested scopes are not allowed for this client.');
  }
  if (client.kind === 'public' && !v.code_challenge)
    throw new InputError('invalid_request', 'Public clients must use PKCE.');
  const now = new Date();
  // The worker owns code lifetime: whatever the sender asks, a code dies within MAX_CODE_TTL_SECONDS.
  const expiresAt = Math.min(v.expires_at, now.getTime() + MAX_CODE_TTL_SECONDS * 1000);
  const doc: AuthorizationCodeDoc = {
    _id: v.code_hash,
    client_id: client._id,
    user_id: v.user_id,
    redirect_uri: v.redirect_uri,
    scopes: v.scopes,
    legacy,
    code_challenge: v.code_challenge,
    created_at: now,
    expires_at: new Date(expiresAt),
    used_at: null,
    used_for: null,
    grant_id: null,
  };
  try {
    await deps.writer.insertAuthorizationCode(doc);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error; // a replay of the same command
  }
  return { expires_at: expiresAt };
}

/** Inserts, or returns false when the document is already there (a replay). */
async function insertIgnoringReplay(create: () => Promise<unknown>): Promise<boolean> {
  try {
    await create();
    return true;
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    return false;
  }
}

function newRefreshToken(
  deps: HandlerDeps,
  hash: string,
  grant: Pick<GrantDoc, '_id' | 'client_id' | 'user_id'>,
  now: Date,
): Omit<RefreshTokenDoc, 'outbox' | 'has_outbox'> {
  return {
    _id: hash,
    grant_id: grant._id,
    client_id: grant.client_id,
    user_id: grant.user_id,
    created_at: now,
    expires_at: new Date(now.getTime() + deps.refreshTokenTtlSeconds * 1000),
    used_at: null,
    replaced_by: null,
  };
}

function issued(grant: Pick<GrantDoc, '_id' | 'user_id' | 'client_id' | 'scopes' | 'legacy'>): IssuedGrant {
  return {
    grant_id: grant._id,
    user_id: grant.user_id,
    client_id: grant.client_id,
    scopes: grant.scopes,
    legacy: grant.legacy,
  };
}

export async function exchangeAuthorizationCode(
  deps: HandlerDeps,
  message: Msg<'ExchangeAuthorizationCode'>,
): Promise<IssuedGrant> {
  const v = message.value;
  const client = authenticateClient(await deps.store.getClient(v.client_id), v.client_secret_hash, 'issue');
  // The common case in one write: the claim's filter holds every condition of a valid exchange (a public client
  // always with its PKCE digest, every code with its redirect URI). Anything else (a replay, a reuse, a code
  // expired, mismatched or unknown) is read and judged below, one condition at a time, with the error it deserves.
  if (v.redirect_uri !== null && (client.kind !== 'public' || v.code_verifier_digest)) {
    const grantId = derivedId('grt', v.code_hash);
    const valid = await deps.writer.claimValidAuthorizationCode(
      {
        codeHash: v.code_hash,
        clientId: client._id,
        redirectUri: v.redirect_uri,
        requestedAt: v.requested_at,
        codeChallenge: v.code_verifier_digest ?? null,
      },
      { used_at: new Date(), used_for: v.refresh_token_hash, grant_id: grantId },
    );
    if (valid) return finishExchange(deps, { ...valid, grant_id: grantId }, v.refresh_token_hash);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const code = await deps.store.getAuthorizationCode(v.code_hash);
    if (!code || code.client_id !== client._id) throw invalidCode();
    if (code.used_at) {
      if (code.used_for === v.refresh_token_hash) return finishExchange(deps, code, v.refresh_token_hash); // redelivery
      // RFC 6749 4.1.2: a code used twice revokes the tokens it issued.
      if (code.grant_id) await revokeGrant(deps, code.grant_id, 'authorization code reused');
      throw new InputError(
        'invalid_grant',
        'The authorization code was already used; the tokens issued with it are revoked.',
      );
    }
    if (code.expires_at.getTime() <= v.requested_at) throw invalidCode();
    if (v.redirect_uri !== code.redirect_uri) {
      throw new InputError(
        'invalid_grant',
        'redirect_uri does not match the redirect_uri of the authorization request.',
      );
    }
    if (code.code_challenge) {
      if (!v.code_verifier_digest)
        throw new InputError(
          'invalid_grant',
          'code_verifier is required: the authorization request carried a code_challenge.',
        );
      if (!safeEqual(v.code_verifier_digest, code.code_challenge))
        throw new InputError('invalid_grant', 'PKCE verification failed: code_verifier does not match code_challenge.');
    } else if (client.kind === 'public') {
      throw invalidCode();
    }
    const grantId = derivedId('grt', code._id);
    const claimed = await deps.writer.claimAuthorizationCode(code._id, {
      used_at: new Date(),
      used_for: v.refresh_token_hash,
      grant_id: grantId,
    });
    if (claimed) return finishExchange(deps, { ...code, grant_id: grantId }, v.refresh_token_hash);
    // Lost a race with another exchange of the same code: look again (it is now a reuse).
  }
  throw invalidCode();
}

async function finishExchange(
  deps: HandlerDeps,
  code: AuthorizationCodeDoc,
  refreshTokenHash: string,
): Promise<IssuedGrant> {
  const now = new Date();
  const grant: Omit<GrantDoc, 'outbox' | 'has_outbox'> = {
    _id: code.grant_id!,
    client_id: code.client_id,
    user_id: code.user_id,
    scopes: code.scopes,
    legacy: code.legacy,
    created_at: now,
    revoked_at: null,
    revoke_reason: null,
  };
  const issuedEvent = outboxEvent(MessageTypeNames.TokenIssued, code.client_id, {
    client_id: code.client_id,
    user_id: code.user_id,
    grant_id: code.grant_id!,
    grant_type: 'authorization_code',
    scopes: code.scopes,
    legacy: code.legacy,
    occurred_at: now.getTime(),
  });
  const created = await insertIgnoringReplay(() => deps.writer.grants.insert(grant, [issuedEvent]));
  await insertIgnoringReplay(() =>
    deps.writer.refreshTokens.insert(newRefreshToken(deps, refreshTokenHash, grant, now), []),
  );
  if (created) return issued(grant);
  // A replay: the grant may have been revoked since (a reuse of the code in between).
  const stored = await deps.store.getGrant(grant._id);
  if (!stored || stored.revoked_at) throw invalidCode();
  return issued(stored);
}

export async function refreshAccessToken(deps: HandlerDeps, message: Msg<'RefreshAccessToken'>): Promise<IssuedGrant> {
  const v = message.value;
  const client = authenticateClient(await deps.store.getClient(v.client_id), v.client_secret_hash, 'refresh');
  // The common case in one write and one read: the claim's filter holds every condition of a valid token, and the
  // grant is read for its scopes and its revocation. Anything else (a replay, a reuse, a token expired, another
  // client's or unknown) is read and judged below with the error it deserves.
  const claimed = await deps.writer.claimValidRefreshToken(
    { tokenHash: v.refresh_token_hash, clientId: client._id, requestedAt: v.requested_at },
    { used_at: new Date(), replaced_by: v.new_refresh_token_hash },
  );
  if (claimed) {
    const grant = await deps.store.getGrant(claimed.grant_id);
    // A token of a revoked authorization is refused whether used or not (as below): using it up changes nothing.
    if (!grant || grant.revoked_at) throw invalidRefresh();
    return finishRefresh(deps, grant, v.new_refresh_token_hash);
  }
  for (let attempt = 0; attempt < 2; attempt++) {
    const token = await deps.store.getRefreshToken(v.refresh_token_hash);
    if (!token || token.client_id !== client._id) throw invalidRefresh();
    const grant = await deps.store.getGrant(token.grant_id);
    if (!grant || grant.revoked_at) throw invalidRefresh();
    if (token.used_at) {
      if (token.replaced_by === v.new_refresh_token_hash) return finishRefresh(deps, grant, v.new_refresh_token_hash); // redelivery
      // Rotation with reuse detection (RFC 9700 4.14.2): someone holds a copy, so the whole family goes.
      await revokeGrant(deps, grant._id, 'refresh token reused');
      throw new InputError(
        'invalid_grant',
        'The refresh token was already used; every token of this authorization is revoked.',
      );
    }
    if (token.expires_at.getTime() <= v.requested_at) throw invalidRefresh();
    const claimed = await deps.writer.refreshTokens.change(
      { _id: token._id, used_at: null },
      { used_at: new Date(), replaced_by: v.new_refresh_token_hash },
      [],
    );
    if (claimed) return finishRefresh(deps, grant, v.new_refresh_token_hash);
  }
  throw invalidRefresh();
}

async function finishRefresh(deps: HandlerDeps, grant: GrantDoc, newHash: string): Promise<IssuedGrant> {
  const now = new Date();
  // The token-issued event rides on the new refresh token's insert: exactly once, even when redelivered.
  const event = outboxEvent(MessageTypeNames.TokenIssued, grant.client_id, {
    client_id: grant.client_id,
    user_id: grant.user_id,
    grant_id: grant._id,
    grant_type: 'refresh_token',
    scopes: grant.scopes,
    legacy: grant.legacy,
    occurred_at: now.getTime(),
  });
  await insertIgnoringReplay(() =>
    deps.writer.refreshTokens.insert(newRefreshToken(deps, newHash, grant, now), [event]),
  );
  return issued(grant);
}

/** RFC 7009: revoking a refresh or access token revokes its grant; unknown tokens are not an error. */
export async function revokeGrantCommand(deps: HandlerDeps, message: Msg<'RevokeGrant'>) {
  const v = message.value;
  const client = authenticateClient(await deps.store.getClient(v.client_id), v.client_secret_hash, 'revoke');
  let grantId: string | null = null;
  if (v.refresh_token_hash) {
    const token = await deps.store.getRefreshToken(v.refresh_token_hash);
    if (token && token.client_id === client._id) grantId = token.grant_id;
  } else if (v.grant_id) {
    const grant = await deps.store.getGrant(v.grant_id);
    if (grant && grant.client_id === client._id) grantId = grant._id;
  }
  if (grantId) await revokeGrant(deps, grantId, v.reason);
  return { revoked: grantId !== null };
}
