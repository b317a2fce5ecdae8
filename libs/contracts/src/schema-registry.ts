import avro from 'avsc';
import { InputError, UnavailableError } from '@platform/errors';
import { decodeWithWriter, isMessageType, schemaTextOf } from './codec.js';
import { readConfluentFrame } from './confluent-wire.js';
import type { MessageType, MessageTypes } from './generated/types.js';
import { TOPIC_CATALOGUE } from './topics.js';

/**
 * A client of the Confluent-compatible schema registry API (Confluent Schema Registry, Apicurio Registry's
 * `/apis/ccompat/v7`, Karapace). Every call has a timeout; a registry that does not answer, or answers 5xx, is
 * an UnavailableError (retriable), a 4xx an InputError.
 */
export interface SchemaRegistryClient {
  readonly url: string;
  /** The id under which `schema` is registered in `subject`. */
  lookup(subject: string, schema: string): Promise<number>;
  /** Registers `schema` as the subject's next version (or finds it registered) and answers its id. */
  register(subject: string, schema: string): Promise<number>;
  /** The schema text of a registry id. */
  schemaById(id: number): Promise<string>;
  setCompatibility(subject: string, level: CompatibilityLevel): Promise<void>;
}

export type CompatibilityLevel =
  'NONE' | 'BACKWARD' | 'BACKWARD_TRANSITIVE' | 'FORWARD' | 'FORWARD_TRANSITIVE' | 'FULL' | 'FULL_TRANSITIVE';

export interface SchemaRegistryOptions {
  /** The API root, e.g. `http://127.0.0.1:8081` or Apicurio's `http://host:8080/apis/ccompat/v7`. */
  url: string;
  timeoutMs?: number;
}

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

export function createSchemaRegistryClient(options: SchemaRegistryOptions): SchemaRegistryClient {
  const url = options.url.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 5000;

  async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${url}${path}`, {
        method,
        headers: { accept: CONTENT_TYPE, ...(body === undefined ? {} : { 'content-type': CONTENT_TYPE }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (cause) {
      throw new UnavailableError(
        'schema_registry_unavailable',
        `The schema registry at ${url} did not answer ${method} ${path} within ${timeoutMs} ms`,
        { cause },
      );
    }
    const text = await response.text().catch(() => '');
    if (response.ok) return JSON.parse(text) as T;
    const detail = `${method} ${path}: ${response.status} ${text.slice(0, 300)}`;
    if (response.status >= 500 || response.status === 429)
      throw new UnavailableError('schema_registry_unavailable', `The schema registry at ${url} failed ${detail}`);
    throw new InputError(
      response.status === 404 ? 'schema_not_registered' : 'schema_registry_rejected',
      `The schema registry at ${url} refused ${detail}`,
    );
  }

  const subjectPath = (subject: string) => `/subjects/${encodeURIComponent(subject)}`;
  return {
    url,
    async lookup(subject, schema) {
      return (await call<{ id: number }>('POST', subjectPath(subject), { schema })).id;
    },
    async register(subject, schema) {
      return (await call<{ id: number }>('POST', `${subjectPath(subject)}/versions`, { schema })).id;
    },
    async schemaById(id) {
      return (await call<{ schema: string }>('GET', `/schemas/ids/${id}`)).schema;
    },
    async setCompatibility(subject, level) {
      await call('PUT', `/config/${encodeURIComponent(subject)}`, { compatibility: level });
    },
  };
}

/**
 * TopicRecordNameStrategy (`<topic>-<record full name>`): a topic carries several record types, which under
 * TopicNameStrategy (`<topic>-value`) would have to be compatible with one another. `topic` is the name on the
 * broker, the deployment's prefix included.
 */
export function registrySubject(topic: string, type: MessageType): string {
  return `${topic}-${type}`;
}

/**
 * ADR 0005: every schema is compatible backward and forward with every released version of its record. A
 * deprecated record is a subject of its own, so it never constrains its successor.
 */
export const REGISTRY_COMPATIBILITY: CompatibilityLevel = 'FULL_TRANSITIVE';

/** The registry ids a producer writes and the writer schemas a consumer reads, each asked once per process. */
export interface RegistrySchemas {
  readonly url: string;
  /** The id of the current schema of `type` in the subject of `topic` (registered at release). */
  idOf(topic: string, type: MessageType): Promise<number>;
  writerOf(registryId: number): Promise<avro.Type>;
  /** Decodes a value in the Confluent wire format into the current schema of `type`. */
  decode<T extends MessageType>(type: T, value: Buffer): Promise<MessageTypes[T]>;
}

export function createRegistrySchemas(client: SchemaRegistryClient): RegistrySchemas {
  const ids = new Map<string, Promise<number>>();
  const writers = new Map<number, Promise<avro.Type>>();

  // A failed answer is not kept: the next message asks again.
  function cached<K, V>(map: Map<K, Promise<V>>, key: K, load: () => Promise<V>): Promise<V> {
    let value = map.get(key);
    if (!value) {
      value = load();
      map.set(key, value);
      value.catch(() => map.delete(key));
    }
    return value;
  }

  const schemas: RegistrySchemas = {
    url: client.url,
    idOf(topic, type) {
      const subject = registrySubject(topic, type);
      return cached(ids, subject, () =>
        client.lookup(subject, schemaTextOf(type)).catch((error: unknown) => {
          if (error instanceof InputError && error.code === 'schema_not_registered') {
            throw new InputError(
              'schema_not_registered',
              `${type} is not registered in ${subject} at ${client.url}: run npm run schemas:register`,
              { cause: error },
            );
          }
          throw error;
        }),
      );
    },
    writerOf(registryId) {
      return cached(writers, registryId, async () => {
        const text = await client.schemaById(registryId);
        let writer: avro.Type;
        try {
          writer = avro.Type.forSchema(JSON.parse(text) as avro.Schema);
        } catch (cause) {
          throw new InputError('unknown_schema', `Registry schema ${registryId} is not an Avro schema`, { cause });
        }
        if (!writer.name || !isMessageType(writer.name))
          throw new InputError(
            'unknown_schema',
            `Registry schema ${registryId} is ${writer.name ?? 'unnamed'}, no record of this platform`,
          );
        return writer;
      });
    },
    async decode(type, value) {
      const frame = readConfluentFrame(value);
      if (!frame)
        throw new InputError(
          'undecodable_message',
          `${type}: the body does not start with the schema registry's magic byte and id`,
        );
      let writer: avro.Type;
      try {
        writer = await schemas.writerOf(frame.registryId);
      } catch (error) {
        if (error instanceof InputError && error.code === 'schema_not_registered')
          throw new InputError('unknown_schema', `No schema ${frame.registryId} in the registry at ${client.url}`, {
            cause: error,
          });
        throw error;
      }
      return decodeWithWriter(type, writer, frame.body);
    },
  };
  return schemas;
}

/**
 * Registers the current schema of every record of every catalogue topic, under the deployment's topic names,
 * with the subjects' compatibility set first, so that the registry refuses a schema that breaks ADR 0005.
 */
export async function registerSchemas(
  client: SchemaRegistryClient,
  options: { topicPrefix?: string; compatibility?: CompatibilityLevel } = {},
): Promise<Array<{ subject: string; type: MessageType; id: number }>> {
  const registered: Array<{ subject: string; type: MessageType; id: number }> = [];
  for (const topic of TOPIC_CATALOGUE) {
    for (const type of topic.records) {
      const subject = registrySubject(`${options.topicPrefix ?? ''}${topic.name}`, type);
      await client.setCompatibility(subject, options.compatibility ?? REGISTRY_COMPATIBILITY);
      registered.push({ subject, type, id: await client.register(subject, schemaTextOf(type)) });
    }
  }
  return registered;
}
