import type { Connection, OutboxCollection } from '@platform/mongo';
import { usermgmtModels } from './models.js';
import { corsOriginsRepository } from './repositories/cors-origins.js';
import { jwtTemplatesRepository } from './repositories/jwt-templates.js';
import { redirectUrisRepository } from './repositories/redirect-uris.js';
import { usersRepository } from './repositories/users.js';
import { eventLogRepository } from './repositories/event-log.js';
import { webhookEndpointsRepository } from './repositories/webhook-endpoints.js';

function sourcesOf(models: ReturnType<typeof usermgmtModels>) {
  return {
    corsOrigins: models.CorsOrigin.collection.collectionName,
    redirectUris: models.RedirectUri.collection.collectionName,
    jwtTemplates: models.JwtTemplate.collection.collectionName,
    webhookEndpoints: models.WebhookEndpoint.collection.collectionName,
    users: models.User.collection.collectionName,
    deletedUsers: models.DeletedUser.collection.collectionName,
  };
}

/**
 * The user-management writes, each with the events that report it: owned by usermgmt-worker (a lint rule
 * keeps other apps to the store and to commands). Every method takes the environment (tenant) it acts in.
 */
export function createUsermgmtWriter(connection: Connection) {
  const models = usermgmtModels(connection);
  const webhookEndpoints = webhookEndpointsRepository(models);
  const users = usersRepository(models);
  return {
    corsOrigins: { create: corsOriginsRepository(models).create },
    redirectUris: { create: redirectUrisRepository(models).create },
    jwtTemplates: { put: jwtTemplatesRepository(models).put },
    users: { create: users.create, update: users.update, delete: users.delete },
    /** The Events API's log, written by the reaction that also fans the events out to webhook endpoints. */
    events: { recordMany: eventLogRepository(models).recordMany },
    webhookEndpoints: {
      create: webhookEndpoints.create,
      update: webhookEndpoints.update,
      rotateSecret: webhookEndpoints.rotateSecret,
      delete: webhookEndpoints.delete,
    },
    /** The outbox source (collection) of each repository: a command handler names the documents it gave events. */
    sources: sourcesOf(models),
  };
}

export type UsermgmtWriter = ReturnType<typeof createUsermgmtWriter>;

/** The user-management read model. Every method takes the environment (tenant) it reads in. */
export function createUsermgmtStore(connection: Connection) {
  const models = usermgmtModels(connection);
  const webhookEndpoints = webhookEndpointsRepository(models);
  const users = usersRepository(models);
  return {
    jwtTemplates: { get: jwtTemplatesRepository(models).get },
    webhookEndpoints: {
      get: webhookEndpoints.get,
      list: webhookEndpoints.list,
      enabledIn: webhookEndpoints.enabledIn,
    },
    users: { get: users.get, getByExternalId: users.getByExternalId, list: users.list },
    events: { list: eventLogRepository(models).list },
    /** The outbox source (collection) of each repository: a command handler names the documents it gave events. */
    sources: sourcesOf(models),
    /** Collections of documents with an `expires_at` (tombstones, the event log), for the expiry sweeper. */
    expiringCollections() {
      return [models.WebhookEndpoint.collection, models.DeletedUser.collection, models.EventLog.collection];
    },
    /** Collections whose documents carry outbox entries, for the relay (the event log has none). */
    outboxCollections(): OutboxCollection[] {
      return Object.values(models)
        .filter((m) => m !== models.EventLog)
        .map((m) => connection.db!.collection(m.collection.collectionName));
    },
    async ensureIndexes() {
      // The automatic index build may already have failed on users stored before external ids were unique:
      // give them their key, then build what is missing.
      await Promise.all(Object.values(models).map((m) => m.init().catch(() => undefined)));
      await users.backfillExternalKeys();
      await Promise.all(Object.values(models).map((m) => m.createIndexes()));
    },
  };
}

export type UsermgmtStore = ReturnType<typeof createUsermgmtStore>;
