import { ConflictError, NotFoundError } from '@platform/errors';
import { changeWithEvents, insertValidated, isDuplicateKeyError, outboxEvent, withEvents } from '@platform/mongo';
import { roundTripBatcher } from '@platform/batching';
import { MessageTypeNames } from '@platform/contracts';
import type { UsermgmtModels, WebhookEndpointDoc } from '../models.js';
import type { WebhookEndpointStatus } from '../rules/events.js';
import { paginate, type PageRequest } from '@platform/mongo';
import { presentWebhookEndpoint } from '../presenters.js';

export const MAX_WEBHOOK_ENDPOINTS = 50;
const TOMBSTONE_MS = 24 * 60 * 60 * 1000;

function changed(
  doc: Omit<WebhookEndpointDoc, 'outbox' | 'has_outbox'>,
  change: 'created' | 'updated' | 'deleted',
  now: Date,
) {
  return outboxEvent(MessageTypeNames.WebhookEndpointChanged, doc._id, {
    environment_id: doc.environment_id,
    webhook_endpoint_id: doc._id,
    change,
    endpoint_url: doc.endpoint_url,
    events: doc.events,
    status: doc.status,
    occurred_at: now.getTime(),
  });
}

function notFound(id: string): never {
  throw new NotFoundError('entity_not_found', `Webhook endpoint not found: '${id}'.`);
}

function duplicateUrl(url: string): never {
  throw new ConflictError('duplicate_endpoint_url', `A webhook endpoint with the URL ${url} already exists.`, {
    issues: [{ field: 'endpoint_url', code: 'duplicate_endpoint_url', message: `${url} is already registered` }],
  });
}

export function webhookEndpointsRepository(models: UsermgmtModels) {
  const { WebhookEndpoint } = models;
  const live = (environmentId: string, id: string) => ({ _id: id, environment_id: environmentId, deleted_at: null });

  // The fan-out handles batches of several partitions at once: those of one environment share one read.
  const enabledIn = roundTripBatcher(async (environmentIds: string[]) => {
    const distinct = [...new Set(environmentIds)];
    const found = await Promise.all(
      distinct.map((environmentId) =>
        WebhookEndpoint.find({ environment_id: environmentId, deleted_at: null, status: 'enabled' })
          .sort({ _id: 1 })
          .lean<WebhookEndpointDoc[]>()
          .exec(),
      ),
    );
    const byEnvironment = new Map(distinct.map((id, i) => [id, found[i]!]));
    return environmentIds.map((id) => byEnvironment.get(id)!);
  });
  return {
    async create(
      input: {
        environmentId: string;
        id: string;
        endpointUrl: string;
        events: string[];
        sealedSecret: string;
        rateLimit: number | null;
        ordered: boolean;
      },
      now = new Date(),
    ): Promise<WebhookEndpointDoc> {
      const existing = await WebhookEndpoint.findOne({
        _id: input.id,
        environment_id: input.environmentId,
      }).lean<WebhookEndpointDoc>();
      if (existing) return existing;
      const count = await WebhookEndpoint.countDocuments({ environment_id: input.environmentId, deleted_at: null });
      if (count >= MAX_WEBHOOK_ENDPOINTS) {
        throw new ConflictError(
          'webhook_endpoint_limit_reached',
          `An environment may have at most ${MAX_WEBHOOK_ENDPOINTS} webhook endpoints.`,
        );
      }
      const doc: Omit<WebhookEndpointDoc, 'outbox' | 'has_outbox'> = {
        _id: input.id,
        environment_id: input.environmentId,
        endpoint_url: input.endpointUrl,
        url_key: input.endpointUrl,
        events: input.events,
        status: 'enabled',
        sealed_secret: input.sealedSecret,
        previous_sealed_secret: null,
        previous_secret_expires_at: null,
        rate_limit: input.rateLimit,
        ordered: input.ordered,
        created_at: now,
        updated_at: now,
        deleted_at: null,
        expires_at: null,
      };
      try {
        const stored = withEvents(doc, [changed(doc, 'created', now)]);
        await insertValidated(WebhookEndpoint, stored);
        return stored;
      } catch (error) {
        if (!isDuplicateKeyError(error)) throw error;
        const replay = await WebhookEndpoint.findOne({
          _id: input.id,
          environment_id: input.environmentId,
        }).lean<WebhookEndpointDoc>();
        if (replay) return replay;
        duplicateUrl(input.endpointUrl);
      }
    },

    async update(
      input: {
        environmentId: string;
        id: string;
        endpointUrl?: string | null;
        events?: string[] | null;
        status?: WebhookEndpointStatus | null;
        /** A number sets the limit, null removes it, undefined leaves it as it is. */
        rateLimit?: number | null;
        ordered?: boolean | null;
      },
      now = new Date(),
    ): Promise<WebhookEndpointDoc> {
      const current = await WebhookEndpoint.findOne(live(input.environmentId, input.id)).lean<WebhookEndpointDoc>();
      if (!current) notFound(input.id);
      const next: WebhookEndpointDoc = {
        ...current,
        endpoint_url: input.endpointUrl ?? current.endpoint_url,
        url_key: input.endpointUrl ?? current.endpoint_url,
        events: input.events ?? current.events,
        status: input.status ?? current.status,
        rate_limit: input.rateLimit === undefined ? (current.rate_limit ?? null) : input.rateLimit,
        ordered: input.ordered ?? current.ordered ?? false,
        updated_at: now,
      };
      try {
        const doc = await WebhookEndpoint.findOneAndUpdate(
          live(input.environmentId, input.id),
          changeWithEvents(
            {
              endpoint_url: next.endpoint_url,
              url_key: next.url_key,
              events: next.events,
              status: next.status,
              rate_limit: next.rate_limit,
              ordered: next.ordered,
              updated_at: now,
            },
            [changed(next, 'updated', now)],
          ),
          { new: true },
        ).lean<WebhookEndpointDoc>();
        if (!doc) notFound(input.id);
        return doc;
      } catch (error) {
        if (isDuplicateKeyError(error)) duplicateUrl(next.endpoint_url);
        throw error;
      }
    },

    /**
     * Secret rotation: a new secret becomes current; the old one keeps signing beside it for
     * `previousValidForMs` (0 revokes it at once). Replaying the same command returns the same secret.
     */
    async rotateSecret(
      input: { environmentId: string; id: string; commandId: string; sealedSecret: string; previousValidForMs: number },
      now = new Date(),
    ): Promise<WebhookEndpointDoc> {
      const current = await WebhookEndpoint.findOne(live(input.environmentId, input.id)).lean<
        WebhookEndpointDoc & { rotated_by?: string }
      >();
      if (!current) notFound(input.id);
      if (current.rotated_by === input.commandId) return current;
      const doc = await WebhookEndpoint.findOneAndUpdate(
        { ...live(input.environmentId, input.id), sealed_secret: current.sealed_secret },
        changeWithEvents(
          {
            sealed_secret: input.sealedSecret,
            previous_sealed_secret: input.previousValidForMs > 0 ? current.sealed_secret : null,
            previous_secret_expires_at:
              input.previousValidForMs > 0 ? new Date(now.getTime() + input.previousValidForMs) : null,
            rotated_by: input.commandId,
            updated_at: now,
          },
          [changed({ ...current, updated_at: now }, 'updated', now)],
        ),
        { new: true, strict: false },
      ).lean<WebhookEndpointDoc>();
      if (!doc) notFound(input.id);
      return doc;
    },

    /** Soft delete: the tombstone keeps the outbox until it is relayed, and remembers which command deleted it. */
    async delete(input: { environmentId: string; id: string; commandId: string }, now = new Date()): Promise<void> {
      const current = await WebhookEndpoint.findOne({ _id: input.id, environment_id: input.environmentId }).lean<
        WebhookEndpointDoc & { deleted_by?: string }
      >();
      if (!current) notFound(input.id);
      if (current.deleted_at) {
        if (current.deleted_by === input.commandId) return;
        notFound(input.id);
      }
      const result = await WebhookEndpoint.updateOne(
        live(input.environmentId, input.id),
        changeWithEvents(
          {
            deleted_at: now,
            deleted_by: input.commandId,
            url_key: input.id,
            status: 'disabled',
            updated_at: now,
            expires_at: new Date(now.getTime() + TOMBSTONE_MS),
          },
          [changed({ ...current, status: 'disabled' }, 'deleted', now)],
        ),
        { strict: false },
      );
      if (result.matchedCount === 0) notFound(input.id);
    },

    async get(environmentId: string, id: string): Promise<WebhookEndpointDoc | null> {
      return WebhookEndpoint.findOne(live(environmentId, id)).lean<WebhookEndpointDoc>();
    },

    /** A page of endpoints, each with its secret (`openSecret` unseals it). */
    async list(environmentId: string, page: PageRequest, openSecret: (sealed: string) => string) {
      return paginate(
        page,
        (filter, sort, limit) =>
          WebhookEndpoint.find({ ...filter, environment_id: environmentId, deleted_at: null })
            .sort({ _id: sort })
            .limit(limit)
            .lean<WebhookEndpointDoc[]>()
            .exec(),
        (doc) => presentWebhookEndpoint(doc, openSecret(doc.sealed_secret)),
      );
    },

    /** The enabled endpoints of an environment, whatever they subscribe to (the fan-out of a batch filters them). */
    enabledIn: (environmentId: string): Promise<WebhookEndpointDoc[]> => enabledIn(environmentId),
  };
}
