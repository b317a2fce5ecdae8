import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames } from '@platform/contracts';
import type { SchedulingUserDoc } from '@platform/identity';
import { runConsumer, type ConsumerHandle, type IncomingMessage } from '@platform/kafka';
import { OAUTH_TOPICS, createOAuthWriter } from '@platform/oauth';
import { redisStamps } from '@platform/redis';
import { waitFor } from '@platform/testing';
import type { HandlerDeps } from '../../apps/oauth-worker/src/handlers/index.js';
import { exchangeAuthorizationCode, refreshAccessToken } from '../../apps/oauth-worker/src/handlers/tokens.handlers.js';
import { startOAuthStack, type OAuthStack } from '../support/oauth-stack.js';

let stack: OAuthStack;
let consumer: ConsumerHandle;
let owner: SchedulingUserDoc;
const seen: IncomingMessage[] = [];
const REDIRECT = 'https://app.example.com/cb';

const N = MessageTypeNames;
const EVENT_TYPES = [
  N.ClientCreated,
  N.ClientSubmittedForReview,
  N.ClientAccepted,
  N.ClientRejected,
  N.ClientChanged,
  N.ClientSecretGenerated,
  N.ClientSecretRevoked,
  N.TokenIssued,
  N.GrantRevoked,
] as const;

beforeAll(async () => {
  stack = await startOAuthStack();
  owner = await stack.newUser();
  // Delivery is at least once: a consumer dedupes by event id, and so does this observer.
  const record = async (m: IncomingMessage) => void (seen.some((s) => s.meta.id === m.meta.id) || seen.push(m));
  consumer = await runConsumer({
    client: stack.kafka,
    groupId: `${stack.name}-observer`,
    topics: [OAUTH_TOPICS.events],
    fromBeginning: true,
    handlers: Object.fromEntries(EVENT_TYPES.map((t) => [t, record])) as never,
  });
  await consumer.ready;
}, 120_000);

afterAll(async () => {
  await consumer?.stop();
  await stack?.close();
});

const eventsOf = (clientId: string) => seen.filter((m) => (m.value as { client_id?: string }).client_id === clientId);

async function newAcceptedClient() {
  const id = `cl_${randomBytes(6).toString('hex')}`;
  await stack.send('CreateClient', {
    client_id: id,
    owner_user_id: owner._id,
    owner_email: owner.email,
    name: 'Events',
    logo_url: null,
    website_url: null,
    purpose: 'p',
    redirect_uris: [REDIRECT],
    scopes: ['BOOKING_READ'],
    kind: 'confidential',
  });
  const secret = stack.credentials.newClientSecret();
  await stack.send('GenerateClientSecret', {
    client_id: id,
    owner_user_id: owner._id,
    secret_id: 'sec_1',
    secret_hash: stack.credentials.hashClientSecret(secret),
    hint: 'abcd',
  });
  await stack.send('ReviewClient', {
    client_id: id,
    reviewer_user_id: 'usr_admin',
    decision: 'accepted',
    reason: null,
  });
  return { id, secret };
}

describe('OAuth events on Kafka', () => {
  it('publishes the client lifecycle, token issuance and grant revocation as Avro events, in order, never with secrets', async () => {
    const { id, secret } = await newAcceptedClient();
    await stack.send('UpdateClient', {
      client_id: id,
      owner_user_id: owner._id,
      name: 'Events renamed',
      logo_url: null,
      website_url: null,
      purpose: 'p',
      redirect_uris: [REDIRECT],
      scopes: ['BOOKING_READ'],
    });
    // A rotation: the new secret first (a confidential client keeps at least one), then the old one revoked.
    await stack.send('GenerateClientSecret', {
      client_id: id,
      owner_user_id: owner._id,
      secret_id: 'sec_2',
      secret_hash: stack.credentials.hashClientSecret(stack.credentials.newClientSecret()),
      hint: 'efgh',
    });
    await stack.send('RevokeClientSecret', { client_id: id, owner_user_id: owner._id, secret_id: 'sec_1' });
    await stack.send('ReviewClient', {
      client_id: id,
      reviewer_user_id: 'usr_admin',
      decision: 'rejected',
      reason: 'Name',
    });

    const expected = [
      N.ClientCreated,
      N.ClientSubmittedForReview,
      N.ClientSecretGenerated,
      N.ClientAccepted,
      N.ClientChanged,
      N.ClientSubmittedForReview,
      N.ClientSecretGenerated,
      N.ClientSecretRevoked,
      N.ClientRejected,
    ];
    await waitFor(() => eventsOf(id).length >= expected.length, { what: 'client events' });
    expect(eventsOf(id).map((m) => m.type)).toEqual(expected);
    expect(eventsOf(id).find((m) => m.type === N.ClientChanged)?.value).toMatchObject({
      changed_fields: ['name'],
      status: 'pending',
      legacy: false,
    });
    expect(eventsOf(id).every((m) => m.key === id)).toBe(true);
    expect(JSON.stringify(eventsOf(id).map((m) => m.value))).not.toContain(secret);
  });

  it('publishes TokenIssued per exchange and refresh, and GrantRevoked when a code is reused', async () => {
    const { id, secret } = await newAcceptedClient();
    const code = stack.credentials.newCode();
    await stack.send('IssueAuthorizationCode', {
      code_hash: stack.credentials.hashCode(code),
      client_id: id,
      user_id: owner._id,
      redirect_uri: REDIRECT,
      scopes: ['BOOKING_READ'],
      code_challenge: null,
      expires_at: Date.now() + 60_000,
    });
    const exchange = () =>
      stack.gateway.inject({
        method: 'POST',
        url: '/v2/auth/oauth2/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          grant_type: 'authorization_code',
          client_id: id,
          client_secret: secret,
          code,
          redirect_uri: REDIRECT,
        }).toString(),
      });
    const first = JSON.parse((await exchange()).body) as { refresh_token: string };
    await stack.gateway.inject({
      method: 'POST',
      url: '/v2/auth/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'refresh_token',
        client_id: id,
        client_secret: secret,
        refresh_token: first.refresh_token,
      }).toString(),
    });
    expect((await exchange()).statusCode).toBe(400);

    await waitFor(() => eventsOf(id).some((m) => m.type === N.GrantRevoked), { what: 'GrantRevoked' });
    const tokenEvents = eventsOf(id).filter((m) => m.type === N.TokenIssued || m.type === N.GrantRevoked);
    expect(
      tokenEvents.map((m) => [
        m.type,
        (m.value as { grant_type?: string }).grant_type ?? (m.value as { reason: string }).reason,
      ]),
    ).toEqual([
      [N.TokenIssued, 'authorization_code'],
      [N.TokenIssued, 'refresh_token'],
      [N.GrantRevoked, 'authorization code reused'],
    ]);
    const grantIds = new Set(tokenEvents.map((m) => (m.value as { grant_id: string }).grant_id));
    expect(grantIds.size).toBe(1);
  });
});

describe('redelivered token commands', () => {
  it('give the same answer and issue nothing twice (a crash between the write and the reply)', async () => {
    const { id, secret } = await newAcceptedClient();
    const deps: HandlerDeps = {
      store: stack.store,
      writer: createOAuthWriter(stack.mongo, redisStamps(stack.redis, `oauth:${stack.mongo.name}`)),
      revocations: stack.revocations,
      refreshTokenTtlSeconds: 3600,
    };
    const code = stack.credentials.newCode();
    await stack.send('IssueAuthorizationCode', {
      code_hash: stack.credentials.hashCode(code),
      client_id: id,
      user_id: owner._id,
      redirect_uri: REDIRECT,
      scopes: ['BOOKING_READ'],
      code_challenge: null,
      expires_at: Date.now() + 60_000,
    });
    const message = <T>(value: T) => ({ value }) as never;
    const exchange = message({
      client_id: id,
      client_secret_hash: stack.credentials.hashClientSecret(secret),
      code_hash: stack.credentials.hashCode(code),
      redirect_uri: REDIRECT,
      code_verifier_digest: null,
      refresh_token_hash: stack.credentials.hashRefreshToken('cal_rt_first'),
      requested_at: Date.now(),
    });
    const once = await exchangeAuthorizationCode(deps, exchange);
    const twice = await exchangeAuthorizationCode(deps, exchange);
    expect(twice).toEqual(once);

    const refresh = message({
      client_id: id,
      client_secret_hash: stack.credentials.hashClientSecret(secret),
      refresh_token_hash: stack.credentials.hashRefreshToken('cal_rt_first'),
      new_refresh_token_hash: stack.credentials.hashRefreshToken('cal_rt_second'),
      requested_at: Date.now(),
    });
    expect(await refreshAccessToken(deps, refresh)).toEqual(once);
    expect(await refreshAccessToken(deps, refresh)).toEqual(once);

    const grant = await stack.store.getGrant(once.grant_id);
    expect(grant?.revoked_at).toBeNull();
    // The documents in the store, counted where they are kept.
    const db = stack.mongo.db!;
    expect(await db.collection('oauth_refresh_tokens').countDocuments({ grant_id: once.grant_id })).toBe(2);
    expect(await db.collection('oauth_grants').countDocuments({ client_id: id })).toBe(1);
  });
});
