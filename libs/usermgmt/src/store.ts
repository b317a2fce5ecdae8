import type { Connection, OutboxCollection } from '@platform/mongo';
import { usermgmtModels } from './models.js';
import { corsOriginsRepository } from './repositories/cors-origins.js';
import { jwtTemplatesRepository } from './repositories/jwt-templates.js';
import { redirectUrisRepository } from './repositories/redirect-uris.js';
import { usersRepository } from './repositories/users.js';
import { webhookEndpointsRepository } from './repositories/webhook-endpoints.js';

/** The user-management read and write model. Every method takes the environment (tenant) it acts in. */
export function createUsermgmtStore(connection: Connection) {
  const models = usermgmtModels(connection);
  return {
    models,
    corsOrigins: corsOriginsRepository(models),
    redirectUris: redirectUrisRepository(models),
    jwtTemplates: jwtTemplatesRepository(models),
    webhookEndpoints: webhookEndpointsRepository(models),
    users: usersRepository(models),
    /** The outbox source (collection) of each repository: a command handler names the documents it gave events. */
    sources: {
      corsOrigins: models.CorsOrigin.collection.collectionName,
      redirectUris: models.RedirectUri.collection.collectionName,
      jwtTemplates: models.JwtTemplate.collection.collectionName,
      webhookEndpoints: models.WebhookEndpoint.collection.collectionName,
      users: models.User.collection.collectionName,
    },
    /** Collections of documents with an `expires_at` (deleted webhook endpoints), for the expiry sweeper. */
    expiringCollections() {
      return [models.WebhookEndpoint.collection];
    },
    /** Collections whose documents carry outbox entries, for the relay. */
    outboxCollections(): OutboxCollection[] {
      return Object.values(models).map((m) => connection.db!.collection(m.collection.collectionName));
    },
    async ensureIndexes() {
      await Promise.all(Object.values(models).map((m) => m.init()));
    },
  };
}

export type UsermgmtStore = ReturnType<typeof createUsermgmtStore>;
