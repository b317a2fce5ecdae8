import avro from 'avsc';
import { InputError } from '@platform/errors';
import { currentSchemas, releasedSchemas } from './generated/schemas.js';
import type { MessageType, MessageTypes } from './generated/types.js';

export interface EncodedMessage {
  type: MessageType;
  /** First 16 hex chars of the schema's SHA-256 fingerprint; travels in the `schema` header. */
  schemaId: string;
  value: Buffer;
}

const readers = new Map<string, avro.Type>();
for (const [name, schema] of Object.entries(currentSchemas)) readers.set(name, avro.Type.forSchema(schema));

const writers = new Map<string, avro.Type>();
for (const [id, schema] of Object.entries(releasedSchemas)) writers.set(id, avro.Type.forSchema(schema));

const resolvers = new Map<string, unknown>();
// A fingerprint is a SHA-256 of the canonical schema: computed once per type, not once per message.
const schemaIds = new WeakMap<avro.Type, string>();

export function schemaIdOf(type: avro.Type): string {
  let id = schemaIds.get(type);
  if (id === undefined) {
    id = type.fingerprint('sha256').toString('hex').slice(0, 16);
    schemaIds.set(type, id);
  }
  return id;
}

export function isMessageType(name: string): name is MessageType {
  return readers.has(name);
}

function readerFor(type: string): avro.Type {
  const reader = readers.get(type);
  if (!reader) throw new InputError('unknown_message_type', `Unknown message type ${type}`);
  return reader;
}

/** Lists every field that does not fit the schema, by path. */
export function validateMessage(type: MessageType, value: unknown): string[] {
  const problems: string[] = [];
  readerFor(type).isValid(value, {
    errorHook(path: string[], got: unknown) {
      problems.push(`${path.join('.') || '(root)'}: unexpected ${JSON.stringify(got)?.slice(0, 80)}`);
    },
  });
  return problems;
}

export function encodeMessage<T extends MessageType>(type: T, value: MessageTypes[T]): EncodedMessage {
  const reader = readerFor(type);
  // The plain check is the fast path; only a message that fails it is walked again to name every bad field.
  if (!reader.isValid(value)) {
    throw new InputError(
      'invalid_message',
      `${type} does not match its schema: ${validateMessage(type, value).join('; ')}`,
    );
  }
  return { type, schemaId: schemaIdOf(reader), value: reader.toBuffer(value) };
}

/** Decodes with the writer's schema (by id) resolved into the current reader schema. */
export function decodeMessage<T extends MessageType>(type: T, schemaId: string, value: Buffer): MessageTypes[T] {
  const reader = readerFor(type);
  const resolver = schemaIdOf(reader) === schemaId ? undefined : resolverFor(type, reader, schemaId);
  try {
    return reader.fromBuffer(value, resolver as never) as MessageTypes[T];
  } catch (cause) {
    throw new InputError('undecodable_message', `Could not decode ${type} with schema ${schemaId}`, { cause });
  }
}

/** Whether `schemaId` is the current or a released schema of `type` (readable without asking a registry). */
export function isKnownSchema(type: MessageType, schemaId: string): boolean {
  return schemaIdOf(readerFor(type)) === schemaId || writers.get(schemaId)?.name === type;
}

/**
 * Decodes with a writer schema that came from elsewhere (a schema registry). A writer that is a released schema
 * takes the path of {@link decodeMessage}; one this build has never seen (a newer producer's) is resolved too.
 */
export function decodeWithWriter<T extends MessageType>(type: T, writer: avro.Type, value: Buffer): MessageTypes[T] {
  const schemaId = schemaIdOf(writer);
  const reader = readerFor(type);
  if (schemaIdOf(reader) === schemaId || writers.has(schemaId)) return decodeMessage(type, schemaId, value);
  if (writer.name !== type) throw new InputError('unknown_schema', `Schema ${schemaId} is ${writer.name}, not ${type}`);
  const key = `${type}@${schemaId}`;
  let resolver = resolvers.get(key);
  if (!resolver) {
    try {
      resolver = reader.createResolver(writer);
    } catch (cause) {
      throw new InputError('unknown_schema', `Schema ${schemaId} cannot be read as the current ${type}`, { cause });
    }
    resolvers.set(key, resolver);
  }
  try {
    return reader.fromBuffer(value, resolver as never) as MessageTypes[T];
  } catch (cause) {
    throw new InputError('undecodable_message', `Could not decode ${type} with schema ${schemaId}`, { cause });
  }
}

/** The current schema of a record as JSON text, as it is registered in a schema registry. */
export function schemaTextOf(type: MessageType): string {
  const schema = currentSchemas[type];
  if (!schema) throw new InputError('unknown_message_type', `Unknown message type ${type}`);
  return JSON.stringify(schema);
}

function resolverFor(type: string, reader: avro.Type, schemaId: string): unknown {
  const key = `${type}@${schemaId}`;
  let resolver = resolvers.get(key);
  if (!resolver) {
    const writer = writers.get(schemaId);
    if (!writer || writer.name !== type) {
      throw new InputError('unknown_schema', `No schema ${schemaId} is known for ${type}`);
    }
    resolver = reader.createResolver(writer);
    resolvers.set(key, resolver);
  }
  return resolver;
}

/** Whether the record type's current schema has a field of this name. */
export function hasField(type: MessageType, field: string): boolean {
  const reader = readerFor(type) as avro.types.RecordType;
  return reader.field(field) !== undefined;
}
