import { MessageTypeNames } from '@platform/contracts';
import { ConflictError, InputError, NotFoundError } from '@platform/errors';
import type { IncomingMessage } from '@platform/kafka';
import { isDuplicateKeyError, outboxEvent } from '@platform/mongo';
import {
  isLegacyScopeSet,
  statusAfterChange,
  validateClientInput,
  type OAuthClientDoc,
  type ReviewedFields,
} from '@platform/oauth';
import type { HandlerDeps } from './deps.js';
import { mutateClient, presentClient } from './client-mutation.js';
import { revokeGrant } from './grants.js';

type Msg<T extends keyof typeof MessageTypeNames> = IncomingMessage<(typeof MessageTypeNames)[T]>;

function reviewed(client: OAuthClientDoc): ReviewedFields {
  return {
    name: client.name,
    logoUrl: client.logo_url,
    websiteUrl: client.website_url,
    purpose: client.purpose,
    redirectUris: client.redirect_uris,
    scopes: client.scopes,
  };
}

type ClientFields = Pick<
  Msg<'UpdateClient'>['value'],
  'name' | 'logo_url' | 'website_url' | 'purpose' | 'redirect_uris' | 'scopes'
>;

/** The worker validates again what the page validated: commands are input too. */
function validatedInput(v: ClientFields) {
  return validateClientInput({
    name: v.name,
    logoUrl: v.logo_url,
    websiteUrl: v.website_url,
    purpose: v.purpose,
    redirectUris: v.redirect_uris,
    scopes: v.scopes,
  });
}

export async function createClient(deps: HandlerDeps, message: Msg<'CreateClient'>) {
  const v = message.value;
  const input = validatedInput(v);
  const now = new Date();
  const doc: Omit<OAuthClientDoc, 'outbox' | 'has_outbox'> = {
    _id: v.client_id,
    owner_user_id: v.owner_user_id,
    owner_email: v.owner_email,
    name: input.name,
    logo_url: input.logoUrl,
    website_url: input.websiteUrl,
    purpose: input.purpose,
    redirect_uris: input.redirectUris,
    scopes: input.scopes,
    kind: v.kind,
    status: 'pending',
    secrets: [],
    reviewed_by: null,
    reviewed_at: null,
    review_reason: null,
    version: 1,
    created_at: now,
    updated_at: now,
  };
  const events = [
    outboxEvent(MessageTypeNames.ClientCreated, v.client_id, {
      client_id: v.client_id,
      owner_user_id: v.owner_user_id,
      name: input.name,
      kind: v.kind,
      scopes: input.scopes,
      redirect_uris: input.redirectUris,
      occurred_at: now.getTime(),
    }),
    outboxEvent(MessageTypeNames.ClientSubmittedForReview, v.client_id, {
      client_id: v.client_id,
      owner_user_id: v.owner_user_id,
      name: input.name,
      reason: 'created',
      occurred_at: now.getTime(),
    }),
  ];
  try {
    await deps.writer.clients.insert(doc, events);
    return presentClient(doc);
  } catch (error) {
    if (!isDuplicateKeyError(error)) throw error;
    const replay = await deps.store.getClient(v.client_id);
    if (replay && replay.owner_user_id === v.owner_user_id) return presentClient(replay);
    throw new ConflictError('client_exists', 'A client with this id already exists.');
  }
}

export async function updateClient(deps: HandlerDeps, message: Msg<'UpdateClient'>) {
  const v = message.value;
  const input = validatedInput(v);
  const client = await mutateClient(deps, v.client_id, v.owner_user_id, (current) => {
    const before = reviewed(current);
    const after: ReviewedFields = { ...input };
    const changed = (Object.keys(before) as (keyof ReviewedFields)[]).filter(
      (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
    );
    if (changed.length === 0) return null;
    const status = statusAfterChange(current.status, before, after);
    const now = Date.now();
    const events = [
      outboxEvent(MessageTypeNames.ClientChanged, current._id, {
        client_id: current._id,
        owner_user_id: current.owner_user_id,
        changed_fields: changed,
        scopes: after.scopes,
        status,
        legacy: isLegacyScopeSet(after.scopes),
        occurred_at: now,
      }),
    ];
    if (status === 'pending' && current.status !== 'pending') {
      events.push(
        outboxEvent(MessageTypeNames.ClientSubmittedForReview, current._id, {
          client_id: current._id,
          owner_user_id: current.owner_user_id,
          name: after.name,
          reason: `changed: ${changed.join(', ')}`,
          occurred_at: now,
        }),
      );
    }
    return {
      set: {
        name: after.name,
        logo_url: after.logoUrl,
        website_url: after.websiteUrl,
        purpose: after.purpose,
        redirect_uris: after.redirectUris,
        scopes: after.scopes,
        status,
      },
      events,
    };
  });
  return presentClient(client);
}

export async function reviewClient(deps: HandlerDeps, message: Msg<'ReviewClient'>) {
  const v = message.value;
  const client = await mutateClient(deps, v.client_id, null, (current) => {
    if (current.status !== 'pending') {
      // A redelivered review that already took effect is a replay, not a conflict.
      if (current.status === v.decision && current.reviewed_by === v.reviewer_user_id) return null;
      throw new ConflictError('not_pending', `Only pending clients can be reviewed; this one is ${current.status}.`);
    }
    const now = Date.now();
    const common = {
      client_id: current._id,
      owner_user_id: current.owner_user_id,
      owner_email: current.owner_email,
      name: current.name,
      reviewer_user_id: v.reviewer_user_id,
      occurred_at: now,
    };
    return {
      set: { status: v.decision, reviewed_by: v.reviewer_user_id, reviewed_at: new Date(now), review_reason: v.reason },
      events: [
        v.decision === 'accepted'
          ? outboxEvent(MessageTypeNames.ClientAccepted, current._id, { ...common, reason: v.reason })
          : outboxEvent(MessageTypeNames.ClientRejected, current._id, { ...common, reason: v.reason }),
      ],
    };
  });
  // A rejected client's tokens stop: every grant users gave it is revoked (also on a redelivered review, which
  // finishes an interrupted run).
  if (v.decision === 'rejected' && client.status === 'rejected') {
    for (const grantId of await deps.store.liveGrantIdsOfClient(client._id))
      await revokeGrant(deps, grantId, 'client rejected');
  }
  return presentClient(client);
}

export const MAX_ACTIVE_SECRETS = 2;

export async function generateClientSecret(deps: HandlerDeps, message: Msg<'GenerateClientSecret'>) {
  const v = message.value;
  const client = await mutateClient(deps, v.client_id, v.owner_user_id, (current) => {
    if (current.kind !== 'confidential') {
      throw new InputError('public_client', 'Public clients authenticate with PKCE and have no secrets.');
    }
    if (current.secrets.some((s) => s.id === v.secret_id)) return null;
    if (current.secrets.length >= MAX_ACTIVE_SECRETS) {
      throw new ConflictError(
        'too_many_secrets',
        `A client has at most ${MAX_ACTIVE_SECRETS} active secrets; revoke one before generating another.`,
      );
    }
    const now = new Date();
    return {
      set: { secrets: [...current.secrets, { id: v.secret_id, hash: v.secret_hash, hint: v.hint, created_at: now }] },
      events: [
        outboxEvent(MessageTypeNames.ClientSecretGenerated, current._id, {
          client_id: current._id,
          owner_user_id: current.owner_user_id,
          secret_id: v.secret_id,
          hint: v.hint,
          occurred_at: now.getTime(),
        }),
      ],
    };
  });
  return presentClient(client);
}

export async function revokeClientSecret(deps: HandlerDeps, message: Msg<'RevokeClientSecret'>) {
  const v = message.value;
  const client = await mutateClient(deps, v.client_id, v.owner_user_id, (current) => {
    if (!current.secrets.some((s) => s.id === v.secret_id)) {
      // Revoked already (a second click, a redelivery): done. Never this client's: not found, not "done".
      if ((current.revoked_secret_ids ?? []).includes(v.secret_id)) return null;
      throw new NotFoundError('secret_not_found', 'This client has no such secret.');
    }
    if (current.kind === 'confidential' && current.secrets.length === 1)
      throw new ConflictError(
        'last_secret',
        'This is the last secret of a confidential client, which cannot obtain tokens without one: generate another first.',
      );
    return {
      set: {
        secrets: current.secrets.filter((s) => s.id !== v.secret_id),
        revoked_secret_ids: [...(current.revoked_secret_ids ?? []), v.secret_id].slice(-100),
      },
      events: [
        outboxEvent(MessageTypeNames.ClientSecretRevoked, current._id, {
          client_id: current._id,
          owner_user_id: current.owner_user_id,
          secret_id: v.secret_id,
          occurred_at: Date.now(),
        }),
      ],
    };
  });
  return presentClient(client);
}
