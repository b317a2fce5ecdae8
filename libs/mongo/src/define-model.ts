import type { Connection, Model, Schema } from 'mongoose';

/** A model bound to one connection, created once even when a factory runs twice (tests, hot reload). */
export function defineModel<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}
