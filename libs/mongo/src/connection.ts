import mongoose, { type Connection } from 'mongoose';
import { UnavailableError } from '@platform/errors';
import { announceOutboxWrites } from './outbox-writes.js';

export type MongoConnection = Connection;

/**
 * One connection per process (never mongoose's global). Only features that FerretDB 1.x also serves
 * are used anywhere: no transactions, change streams, TTL or partial indexes, $lookup or $facet.
 */
export async function connectMongo(options: {
  url: string;
  dbName: string;
  appName: string;
}): Promise<MongoConnection> {
  const connection = mongoose.createConnection(options.url, {
    dbName: options.dbName,
    appName: options.appName,
    serverSelectionTimeoutMS: 5000,
    connectTimeoutMS: 5000,
    socketTimeoutMS: 30000,
    maxPoolSize: 20,
    autoIndex: true,
    autoCreate: true,
    // Outbox writes are announced to the process's relay from the driver's command events (outbox-writes.ts).
    monitorCommands: true,
  });
  try {
    await connection.asPromise();
    announceOutboxWrites(connection.getClient());
  } catch (cause) {
    throw new UnavailableError('mongo_unavailable', `MongoDB at ${redact(options.url)} did not answer`, { cause });
  }
  return connection;
}

export async function pingMongo(connection: MongoConnection, timeoutMs = 2000): Promise<void> {
  const db = connection.db;
  if (!db) throw new UnavailableError('mongo_unavailable', 'MongoDB is not connected');
  await db.command({ ping: 1 }, { timeoutMS: timeoutMs });
}

function redact(url: string): string {
  return url.replace(/\/\/[^@/]*@/, '//***@');
}
