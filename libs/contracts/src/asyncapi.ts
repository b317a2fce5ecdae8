import { createHash } from 'node:crypto';
import avro, { type Schema } from 'avsc';
import { DEAD_LETTER, TOPIC_CATALOGUE, type TopicEntry } from './topics.js';

/** An .avsc file of schemas/, by its path from the repository root. */
export interface SchemaFile {
  path: string;
  schema: Schema;
}

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** How Avro bodies are declared (AsyncAPI 3.0 multi-format schema). */
export const AVRO_SCHEMA_FORMAT = 'application/vnd.apache.avro;version=1.9.0';
/** The body is the Avro binary encoding of one record: no container file, no magic byte, no schema id. */
export const AVRO_CONTENT_TYPE = 'avro/binary';
const KAFKA_BINDING = '0.5.0';

const schemaIdOf = (type: avro.Type) => type.fingerprint('sha256').toString('hex').slice(0, 16);
const ref = (path: string): JsonObject => ({ $ref: path });
const domainOf = (topic: string) => topic.slice(0, topic.indexOf('.'));

const HEADER_DOCS: Record<string, JsonObject> = {
  ce_id: {
    type: 'string',
    description:
      'The message id (a UUID, or the stable id of an outbox entry or a click). A re-publish keeps it: consumers dedupe on it.',
  },
  ce_type: { type: 'string', description: 'The Avro full name of the record in the body (`<namespace>.<name>`).' },
  ce_source: { type: 'string', description: 'The producing process, `/<app>`.' },
  ce_time: { type: 'string', format: 'date-time', description: 'When the producer published it (ISO 8601, UTC).' },
  ce_schema: {
    type: 'string',
    pattern: '^[0-9a-f]{16}$',
    description:
      'The id of the writer schema: the first 16 hex digits of the SHA-256 Avro fingerprint of its canonical form. Every id names a published file, `schemas/history/<ce_type>@<ce_schema>.avsc`; resolve it into your reader schema.',
  },
  schema_registry_id: {
    type: 'string',
    pattern: '^[0-9]+$',
    description:
      'Only where the deployment has a schema registry (`SCHEMA_REGISTRY_URL`): the body is then in the Confluent wire format, and this is the registry id of its 4-byte prefix (ADR 0021).',
  },
  traceparent: {
    type: 'string',
    description: 'W3C Trace Context of the change that produced the message, when it was traced.',
  },
  tracestate: { type: 'string', description: 'W3C Trace Context vendor state, with traceparent.' },
};
const COMMAND_HEADER_DOCS: Record<string, JsonObject> = {
  correlation_id: { type: 'string', description: 'Matches the reply to the waiting sender.' },
  reply_to: {
    type: 'string',
    description: 'The Redis pub/sub channel of the sending replica; the reply is JSON on it, not on Kafka.',
  },
  deadline: {
    type: 'string',
    pattern: '^[0-9]+$',
    description: 'Epoch milliseconds after which the sender no longer waits for a reply.',
  },
};
const DEAD_LETTER_HEADER_DOCS: Record<string, JsonObject> = {
  error: {
    type: 'string',
    description: `On a \`<topic>${DEAD_LETTER.suffix}\` copy only: why the consumer group gave up (at most 1000 characters).`,
  },
  attempt: {
    type: 'string',
    pattern: '^[0-9]+$',
    description: `On a \`<topic>${DEAD_LETTER.suffix}\` copy only: how many times it was tried.`,
  },
};
const REQUIRED_HEADERS = ['ce_id', 'ce_type', 'ce_source', 'ce_time', 'ce_schema'];

function headersSchema(description: string, docs: Record<string, JsonObject>): JsonObject {
  return { type: 'object', description, required: REQUIRED_HEADERS, properties: docs };
}

interface PublishedRecord {
  name: string;
  shortName: string;
  topic: TopicEntry;
  file: SchemaFile;
  id: string;
  released: Array<{ id: string; path: string }>;
}

function describeRecords(files: { current: SchemaFile[]; released: SchemaFile[] }): Map<string, PublishedRecord> {
  const released = files.released.map((file) => ({ file, type: avro.Type.forSchema(file.schema) }));
  const records = new Map<string, PublishedRecord>();
  for (const topic of TOPIC_CATALOGUE) {
    for (const name of topic.records) {
      const file = files.current.find((f) => avro.Type.forSchema(f.schema).name === name);
      if (!file) throw new Error(`${name} of ${topic.name} has no file in schemas/`);
      const type = avro.Type.forSchema(file.schema);
      records.set(name, {
        name,
        shortName: name.slice(name.lastIndexOf('.') + 1),
        topic,
        file,
        id: schemaIdOf(type),
        released: released
          .filter((r) => r.type.name === name)
          .map((r) => ({ id: schemaIdOf(r.type), path: r.file.path }))
          .sort((a, b) => a.path.localeCompare(b.path)),
      });
    }
  }
  return records;
}

function message(record: PublishedRecord): JsonObject {
  const commands = record.topic.kind === 'commands';
  const doc = (record.file.schema as { doc?: string }).doc;
  return {
    name: record.name,
    title: record.shortName,
    ...(doc ? { summary: doc } : {}),
    contentType: AVRO_CONTENT_TYPE,
    headers: {
      allOf: [
        ref(`#/components/schemas/${commands ? 'CommandHeaders' : 'EventHeaders'}`),
        { type: 'object', properties: { ce_type: { const: record.name } } },
      ],
    },
    payload: { schemaFormat: AVRO_SCHEMA_FORMAT, schema: record.file.schema as Json },
    ...(commands ? { correlationId: { location: '$message.header#/correlation_id' } } : {}),
    bindings: {
      kafka: {
        key: { type: 'string', description: `UTF-8: ${record.topic.key}.` },
        schemaIdLocation: 'header',
        bindingVersion: KAFKA_BINDING,
      },
    },
    'x-schema-file': record.file.path,
    'x-schema-id': record.id,
    'x-released-schemas': Object.fromEntries(record.released.map((r) => [r.id, r.path])),
    // The Kafka binding holds one schemaIdLocation; the registry form a deployment may switch on is stated here.
    'x-schema-registry': {
      schemaIdLocation: 'payload',
      schemaIdPayloadEncoding: 'confluent',
      schemaLookupStrategy: 'TopicRecordNameStrategy',
      subject: `<KAFKA_TOPIC_PREFIX>${record.topic.name}-${record.name}`,
      compatibility: 'FULL_TRANSITIVE',
    },
  };
}

function channel(
  topic: TopicEntry,
  address: string,
  partitions: number,
  retentionMs: number,
  description: string,
): JsonObject {
  return {
    address,
    title: address,
    description,
    messages: Object.fromEntries(
      topic.records.map((name) => [name.slice(name.lastIndexOf('.') + 1), ref(`#/components/messages/${name}`)]),
    ),
    tags: [{ name: topic.kind }, { name: domainOf(topic.name) }],
    bindings: {
      kafka: {
        topic: address,
        partitions,
        topicConfiguration: { 'cleanup.policy': ['delete'], 'retention.ms': retentionMs },
        bindingVersion: KAFKA_BINDING,
      },
    },
  };
}

const days = (ms: number) => `${ms / (24 * 3600_000)} days`;

function topicDescription(topic: TopicEntry): string {
  const consumers = topic.consumerGroups.length
    ? topic.consumerGroups.map((g) => `\`${g.group}\` (${g.app}: ${g.purpose})`).join('; ')
    : 'none inside the platform';
  return [
    `${topic.kind === 'commands' ? 'Commands to' : 'Events of'} ${topic.owner}. Produced by ${topic.producers.join(', ')}.`,
    `Key: ${topic.key}. ${topic.partitions} partitions, kept ${days(topic.retentionMs)}.`,
    `Known consumer groups: ${consumers}.`,
    `A message its consumer group gives up on is copied to \`${topic.name}${DEAD_LETTER.suffix}\`.`,
  ].join('\n');
}

const operationId = (...parts: string[]) => parts.join('.').replace(/[^\w.-]/g, '_');

function groupIdSchema(group: string): JsonObject {
  if (!group.includes('<replica>')) return { type: 'string', const: group };
  const [prefix, suffix] = group.split('<replica>') as [string, string];
  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return {
    type: 'string',
    pattern: `^${escape(prefix)}.+${escape(suffix)}$`,
    description: `${group}: one group per replica, named by its replica id.`,
  };
}

function operations(topic: TopicEntry): Record<string, JsonObject> {
  const channelRef = ref(`#/channels/${topic.name}`);
  const out: Record<string, JsonObject> = {
    [operationId('send', topic.name)]: {
      action: 'send',
      channel: channelRef,
      title: `${topic.producers.join(', ')} ${topic.producers.length > 1 ? 'send' : 'sends'} to ${topic.name}`,
      'x-producers': [...topic.producers],
    },
  };
  for (const group of topic.consumerGroups) {
    out[operationId('receive', topic.name, group.group.replace('<replica>', 'replica'))] = {
      action: 'receive',
      channel: channelRef,
      title: `${group.app} reads ${topic.name} in the group ${group.group}`,
      description: group.purpose,
      bindings: { kafka: { groupId: groupIdSchema(group.group), bindingVersion: KAFKA_BINDING } },
      'x-app': group.app,
    };
  }
  return out;
}

/**
 * The AsyncAPI 3.0 document of every topic of the catalogue (libs/contracts/src/topics.ts) with the Avro
 * schemas of schemas/: what `npm run asyncapi:gen` writes to docs/asyncapi.yaml.
 */
export function buildAsyncApiDocument(files: { current: SchemaFile[]; released: SchemaFile[] }): JsonObject {
  const records = describeRecords(files);
  const channels: JsonObject = {};
  const ops: JsonObject = {};
  for (const topic of TOPIC_CATALOGUE) {
    channels[topic.name] = channel(topic, topic.name, topic.partitions, topic.retentionMs, topicDescription(topic));
    const dlq = `${topic.name}${DEAD_LETTER.suffix}`;
    channels[dlq] = channel(
      topic,
      dlq,
      DEAD_LETTER.partitions,
      DEAD_LETTER.retentionMs,
      `Dead letters of ${topic.name}: the original message (key, body, headers) with \`error\` and \`attempt\` headers, written by the consumer group that gave up. Kept ${days(DEAD_LETTER.retentionMs)}: \`cli dlq list ${topic.name}\` shows them, \`cli dlq replay ${topic.name}\` publishes them to ${topic.name} again (group \`dlq-replay.${topic.name}\`).`,
    );
    Object.assign(ops, operations(topic));
  }
  const version = createHash('sha256')
    .update(JSON.stringify([TOPIC_CATALOGUE, [...records.values()].map((r) => r.id)]))
    .digest('hex')
    .slice(0, 12);
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Platform topics',
      version: `0.0.0-${version}`,
      description: [
        'Every Kafka topic of the platform, generated from the topic catalogue (libs/contracts/src/topics.ts) and the Avro schemas of schemas/ by `npm run asyncapi:gen`; a test fails when this file is stale. How to subscribe: docs/events.md.',
        '',
        'Names: a deployment puts its `KAFKA_TOPIC_PREFIX` (empty by default) in front of every topic and consumer group named here.',
        'Bodies: the Avro binary encoding of the record named by the `ce_type` header, written with the schema whose id is the `ce_schema` header (`schemas/history/<ce_type>@<ce_schema>.avsc`). Read them with your own reader schema through Avro schema resolution: every schema is fully compatible (backward and forward) with each of its released versions.',
        'With a schema registry (a deployment that sets `SCHEMA_REGISTRY_URL`), bodies are in the Confluent wire format instead: magic byte 0, the 4-byte big-endian registry id (also in the `schema_registry_id` header), then the same Avro binary; `ce_schema` still names the writer schema. Subjects follow TopicRecordNameStrategy, `<topic>-<ce_type>` (`x-schema-registry` on each message), so stock Confluent deserializers read every topic (docs/events.md, ADR 0021).',
        'Keys: UTF-8 strings, the aggregate id, so the messages of one aggregate stay in order on one partition. Delivery is at least once: dedupe on `ce_id`.',
      ].join('\n'),
    },
    defaultContentType: AVRO_CONTENT_TYPE,
    servers: {
      local: {
        host: '127.0.0.1:9092',
        protocol: 'kafka',
        protocolVersion: '3.9',
        description: 'The broker `npm start` (deploy/local) runs, no authentication.',
      },
      kubernetes: {
        host: 'kafka-kafka-bootstrap:9092',
        protocol: 'kafka',
        protocolVersion: '3.9',
        description: "The prod overlay's Strimzi cluster (k8s/), inside the cluster.",
      },
    },
    channels,
    operations: ops,
    components: {
      schemas: {
        EventHeaders: headersSchema('Headers of every message on an event topic (all values UTF-8 strings).', {
          ...HEADER_DOCS,
          ...DEAD_LETTER_HEADER_DOCS,
        }),
        CommandHeaders: headersSchema(
          'Headers of every message on a command topic (all values UTF-8 strings); a command sent by a gateway also carries its reply address.',
          { ...HEADER_DOCS, ...COMMAND_HEADER_DOCS, ...DEAD_LETTER_HEADER_DOCS },
        ),
      },
      messages: Object.fromEntries(
        [...records.values()].sort((a, b) => a.name.localeCompare(b.name)).map((r) => [r.name, message(r)]),
      ),
    },
  };
}
