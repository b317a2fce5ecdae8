// How a team outside the platform reads its events: a plain kafkajs consumer in a group of its own, decoding
// with the published Avro schemas (schemas/, described by docs/asyncapi.yaml) and avsc. It imports nothing of
// the platform's code; tests/integration/downstream-consumer.test.ts runs it against the real services.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import avro from 'avsc';
import { Kafka, logLevel, type IHeaders } from 'kafkajs';

export interface PlatformEvent {
  topic: string;
  partition: number;
  offset: string;
  /** The aggregate id (a short link's `domain/hash`, an environment id...): one key, one partition, in order. */
  key: string;
  /** `ce_id`: the same on a redelivery or a re-publish. */
  id: string;
  /** `ce_type`: the Avro full name of the record. */
  type: string;
  source: string;
  time: string;
  /** `ce_schema`: the id of the schema the producer wrote the body with. */
  schemaId: string;
  headers: Record<string, string>;
  value: Record<string, unknown>;
  /** The Avro body (without the schema registry's 5-byte prefix, where the deployment has one). */
  body: Buffer;
}

export interface PublishedSchemas {
  /** The schema id of an Avro schema: the first 16 hex digits of its SHA-256 Avro fingerprint. */
  idOf(type: avro.Type): string;
  /** The body read into our reader schema; undefined for a record type our copy of the schemas does not have. */
  decode(recordType: string, schemaId: string, body: Buffer): Record<string, unknown> | undefined;
}

/**
 * Our reader schemas are the current files `<dir>/<domain>/<kind>/<Record>.avsc` as we copied them; the schema
 * a message was written with is the released file `<dir>/history/<type>@<ce_schema>.avsc`, which Avro schema
 * resolution reads into ours (every released version stays compatible both ways).
 */
export function loadPublishedSchemas(dir: string): PublishedSchemas {
  const read = (file: string) => avro.Type.forSchema(JSON.parse(readFileSync(file, 'utf8')) as avro.Schema);
  const ids = new Map<avro.Type, string>();
  const idOf = (type: avro.Type) => {
    let id = ids.get(type);
    if (id === undefined) ids.set(type, (id = type.fingerprint('sha256').toString('hex').slice(0, 16)));
    return id;
  };
  const readers = new Map<string, avro.Type>();
  for (const domain of readdirSync(dir).filter((d) => d !== 'history')) {
    for (const kind of readdirSync(path.join(dir, domain))) {
      for (const file of readdirSync(path.join(dir, domain, kind)).filter((f) => f.endsWith('.avsc'))) {
        const type = read(path.join(dir, domain, kind, file));
        readers.set(type.name!, type);
      }
    }
  }
  const resolvers = new Map<string, avro.Resolver>();
  return {
    idOf,
    decode(recordType, schemaId, body) {
      const reader = readers.get(recordType);
      if (!reader) return undefined;
      if (idOf(reader) === schemaId) return reader.fromBuffer(body) as Record<string, unknown>;
      const key = `${recordType}@${schemaId}`;
      let resolver = resolvers.get(key);
      if (!resolver) {
        resolver = reader.createResolver(read(path.join(dir, 'history', `${key}.avsc`)));
        resolvers.set(key, resolver);
      }
      return reader.fromBuffer(body, resolver) as Record<string, unknown>;
    },
  };
}

function headerStrings(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const first = Array.isArray(value) ? value[0] : value;
    if (first !== undefined) out[name] = first.toString();
  }
  return out;
}

export interface DownstreamConsumer {
  stop(): Promise<void>;
}

/**
 * Joins `groupId` on `topics` and hands every event it can read to `onEvent`, once per `ce_id`. An error thrown
 * by `onEvent` leaves the offset uncommitted, so the event comes again.
 */
export async function startDownstreamConsumer(options: {
  brokers: string[];
  groupId: string;
  topics: string[];
  schemas: PublishedSchemas;
  onEvent: (event: PlatformEvent) => Promise<void> | void;
  fromBeginning?: boolean;
}): Promise<DownstreamConsumer> {
  const kafka = new Kafka({ clientId: options.groupId, brokers: options.brokers, logLevel: logLevel.ERROR });
  const consumer = kafka.consumer({ groupId: options.groupId });
  // Delivery is at least once; a real consumer keeps the ids it handled in its own store, with its effect.
  const handled = new Set<string>();
  await consumer.connect();
  await consumer.subscribe({ topics: options.topics, fromBeginning: options.fromBeginning ?? false });
  await consumer.run({
    eachMessage: async ({ topic, partition, message }) => {
      const headers = headerStrings(message.headers);
      const { ce_id: id, ce_type: type, ce_schema: schemaId } = headers;
      if (!id || !type || !schemaId || !message.value || handled.has(id)) return;
      // A deployment with a schema registry prefixes the same Avro body with magic byte 0 and the 4-byte
      // registry id (the `schema_registry_id` header); `ce_schema` still names the writer schema.
      const body =
        headers['schema_registry_id'] !== undefined && message.value[0] === 0
          ? message.value.subarray(5)
          : message.value;
      const value = options.schemas.decode(type, schemaId, body);
      if (value === undefined) return; // a record type newer than our copy of the schemas
      await options.onEvent({
        topic,
        partition,
        offset: message.offset,
        key: message.key?.toString() ?? '',
        id,
        type,
        source: headers['ce_source'] ?? '',
        time: headers['ce_time'] ?? '',
        schemaId,
        headers,
        value,
        body,
      });
      handled.add(id);
    },
  });
  return { stop: () => consumer.disconnect() };
}
