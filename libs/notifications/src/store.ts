import type { Connection, OutboxCollection } from '@platform/mongo';
import { notificationModels } from './models.js';
import { inboxRepository } from './repositories/inbox.js';
import { outgoingRepository } from './repositories/outgoing.js';
import { preferencesRepository } from './repositories/preferences.js';
import { settingsRepository } from './repositories/settings.js';

/**
 * The notifications read model (the gateway's and the notifier's reads). Every read of a user's data takes the
 * deployment (tenant) and the user first; the dispatcher's sweeps are the only reads across deployments.
 */
export function createNotificationsStore(connection: Connection) {
  const models = notificationModels(connection);
  const inbox = inboxRepository(models);
  const outgoing = outgoingRepository(models);
  const preferences = preferencesRepository(models);
  const settings = settingsRepository(models);
  return {
    inbox: {
      get: inbox.get,
      owns: inbox.owns,
      list: inbox.list,
      after: inbox.after,
      unreadCount: inbox.unreadCount,
    },
    preferences: { list: preferences.list, disabledTemplate: preferences.disabledTemplate },
    settings: { get: settings.get, pausedAmong: settings.pausedAmong },
    outgoing: {
      get: outgoing.get,
      laneHead: outgoing.laneHead,
      lanePending: outgoing.lanePending,
      pendingLanes: outgoing.pendingLanes,
      dueLanes: outgoing.dueLanes,
    },
    /** Collections whose documents carry outbox entries, for the relay. */
    outboxCollections(): OutboxCollection[] {
      return [models.Inbox, models.Outgoing, models.Settings, models.ReadMark].map((m) =>
        connection.db!.collection(m.collection.collectionName),
      );
    },
    async ensureIndexes() {
      await Promise.all(Object.values(models).map((m) => m.init()));
    },
  };
}

export type NotificationsStore = ReturnType<typeof createNotificationsStore>;

/**
 * The notifications writes, each with the events that report it (through @platform/mongo's outbox helpers):
 * owned by the notifier (a lint rule keeps other apps out).
 */
export function createNotificationsWriter(connection: Connection) {
  const models = notificationModels(connection);
  const inbox = inboxRepository(models);
  return {
    inbox: inbox.writes,
    /** The stored unread count: every change of the inbox that may move it goes between `begin` and `end`. */
    unread: inbox.unreadCounter,
    readMarks: inbox.readMarkWrites,
    outgoing: outgoingRepository(models).writes,
    settings: settingsRepository(models).writes,
    preferences: preferencesRepository(models).writes,
  };
}

export type NotificationsWriter = ReturnType<typeof createNotificationsWriter>;
