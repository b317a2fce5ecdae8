import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SchemaRegistry } from '@kafkajs/confluent-schema-registry';
import {
  MessageTypeNames,
  createSchemaRegistryClient,
  frameConfluent,
  registerSchemas,
  registrySubject,
  schemaTextOf,
  type SchemaRegistryClient,
  type ShortlinkClicked,
} from '@platform/contracts';
import {
  createKafka,
  createPublisher,
  ensureTopics,
  runConsumer,
  type ConsumerHandle,
  type IncomingMessage,
  type KafkaClient,
} from '@platform/kafka';
import { createLogger } from '@platform/telemetry';
import { uniqueName, waitFor } from '@platform/testing';
import avro from 'avsc';
import { Kafka, logLevel, type Consumer } from 'kafkajs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadPublishedSchemas,
  startDownstreamConsumer,
  type DownstreamConsumer,
  type PlatformEvent,
} from '../../docs/examples/downstream-consumer.js';
import { startLinksStack, type LinksStack, type LinksUser } from '../support/links-stack.js';
import { shorten, visit } from '../support/links-requests.js';

// The links services with SCHEMA_REGISTRY_URL set, against the real Apicurio Registry of deploy/local
// (apicurio.sh): bodies in the Confluent wire format, read by a stock Confluent-format client library, by the
// example consumer that has only the published schemas, and by the platform's own consumers in both forms.
const registryUrl = process.env['LOCAL_SCHEMA_REGISTRY_URL'] ?? 'http://127.0.0.1:8081/apis/ccompat/v7';
const schemasDir = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../schemas');
const CREATED = MessageTypeNames.ShortlinkCreated;
const CLICKED = MessageTypeNames.ShortlinkClicked;

interface StockEvent {
  topic: string;
  headers: Record<string, string>;
  raw: Buffer;
  value: Record<string, unknown>;
}

let registry: SchemaRegistryClient;
let registered: Awaited<ReturnType<typeof registerSchemas>>;
let prefix: string;
let stack: LinksStack;
let admin: LinksUser;
let organizationId: string;
let groupGuid: string;
let stockConsumer: Consumer;
let example: DownstreamConsumer;
const stockEvents: StockEvent[] = [];
const exampleEvents: PlatformEvent[] = [];

beforeAll(async () => {
  registry = createSchemaRegistryClient({ url: registryUrl, timeoutMs: 10_000 });
  prefix = `${uniqueName('lkr')}.`;
  // What `npm run schemas:register -- --topic-prefix <prefix>` does at a release, before the producers start.
  registered = await registerSchemas(registry, { topicPrefix: prefix });
  stack = await startLinksStack({ SCHEMA_REGISTRY_URL: registryUrl, KAFKA_TOPIC_PREFIX: prefix });
  ({ organizationId, groupGuid, admin } = await stack.newOrganization());
  const topics = [`${prefix}links.events`, `${prefix}links.clicks`];

  // A downstream team's consumer with a stock Confluent-format library and nothing of the platform.
  const stock = new SchemaRegistry({ host: registryUrl });
  const kafka = new Kafka({
    clientId: `${prefix}stock`,
    brokers: process.env['KAFKA_BROKERS']!.split(','),
    logLevel: logLevel.ERROR,
  });
  stockConsumer = kafka.consumer({ groupId: `${prefix}downstream-confluent` });
  await stockConsumer.connect();
  await stockConsumer.subscribe({ topics, fromBeginning: true });
  await stockConsumer.run({
    eachMessage: async ({ topic, message }) => {
      const headers = Object.fromEntries(
        Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(Array.isArray(v) ? v[0] : v)]),
      );
      stockEvents.push({
        topic,
        headers,
        raw: message.value!,
        value: (await stock.decode(message.value!)) as Record<string, unknown>,
      });
    },
  });
  example = await startDownstreamConsumer({
    brokers: process.env['KAFKA_BROKERS']!.split(','),
    groupId: `${prefix}downstream-example`,
    topics,
    schemas: loadPublishedSchemas(schemasDir),
    fromBeginning: true,
    onEvent: (event) => void exampleEvents.push(event),
  });
}, 180_000);

afterAll(async () => {
  await stockConsumer?.disconnect();
  await example?.stop();
  await stack?.close();
});

/** The body is magic byte 0 and the id registered for its topic and record, as its header says. */
function expectRegistryForm(event: StockEvent, type: string) {
  const subject = registrySubject(event.topic, type as never);
  const id = registered.find((r) => r.subject === subject)?.id;
  expect(id, subject).toBeDefined();
  expect(event.raw[0]).toBe(0);
  expect(event.raw.readUInt32BE(1)).toBe(id);
  expect(event.headers['schema_registry_id']).toBe(String(id));
  expect(event.headers['ce_type']).toBe(type);
}

describe('events with a schema registry', () => {
  let link: string;

  it('registers every record of the catalogue as <topic>-<record>, FULL_TRANSITIVE, and the registry refuses a breaking change', async () => {
    const subject = `${prefix}links.events-${CREATED}`;
    expect(registered.map((r) => r.subject)).toContain(subject);
    const config = (await (await fetch(`${registryUrl}/config/${encodeURIComponent(subject)}`)).json()) as {
      compatibilityLevel: string;
    };
    expect(config.compatibilityLevel).toBe('FULL_TRANSITIVE');
    const schema = JSON.parse(schemaTextOf(CREATED)) as { fields: unknown[] };
    const breaking = JSON.stringify({ ...schema, fields: [...schema.fields, { name: 'region', type: 'string' }] });
    await expect(registry.register(subject, breaking)).rejects.toMatchObject({ code: 'schema_registry_rejected' });
    // Registering the same schemas again (the next release without changes) answers the same ids.
    expect(await registry.register(subject, schemaTextOf(CREATED))).toBe(
      registered.find((r) => r.subject === subject)!.id,
    );
  });

  it('a stock Confluent-format client decodes ShortlinkCreated after a shorten', async () => {
    link = await shorten(stack, admin, 'https://example.com/registry');
    const created = await waitFor(
      () => stockEvents.find((e) => e.headers['ce_type'] === CREATED && e.value['id'] === link),
      { timeoutMs: 30_000, what: 'ShortlinkCreated' },
    );
    expectRegistryForm(created, CREATED);
    expect(created.value).toEqual({
      id: link,
      organization_id: organizationId,
      group_guid: groupGuid,
      long_url: 'https://example.com/registry',
      title: null,
      tags: [],
      archived: false,
      custom: false,
      redirect_status: 301,
      expiration_at: null,
      created_by: admin.user.username,
      occurred_at: expect.any(Number),
    });
  });

  it('a stock Confluent-format client decodes ShortlinkClicked after a redirect, and the platform reacts to it', async () => {
    expect(
      await visit(stack.redirectors[0], link, { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' }),
    ).toBe(301);
    const clicked = await waitFor(
      () => stockEvents.find((e) => e.headers['ce_type'] === CLICKED && e.value['id'] === link),
      { timeoutMs: 30_000, what: 'ShortlinkClicked' },
    );
    expectRegistryForm(clicked, CLICKED);
    expect(clicked.value).toMatchObject({
      id: link,
      organization_id: organizationId,
      group_guid: groupGuid,
      bot: false,
      qr: false,
      qrcode_id: null,
      passed_params: '',
    });
    // links-reactions (a platform consumer group) read the framed click: the link is marked as redirected.
    await waitFor(async () => (await stack.store.getLink(organizationId, link))?.redirected_at != null, {
      timeoutMs: 30_000,
      what: 'first redirect marked',
    });
  });

  it('the example consumer with only the published schemas reads the same events', async () => {
    for (const type of [CREATED, CLICKED]) {
      const stock = stockEvents.find((e) => e.headers['ce_type'] === type && e.value['id'] === link)!;
      const event = await waitFor(() => exampleEvents.find((e) => e.type === type && e.value['id'] === link), {
        timeoutMs: 30_000,
        what: type,
      });
      expect(event.value).toEqual(stock.value);
      expect(event.body.equals(stock.raw.subarray(5))).toBe(true);
    }
  });
});

describe("the platform's consumers during the move to the registry", () => {
  let plain: KafkaClient;
  let withRegistry: KafkaClient;
  let consumers: ConsumerHandle[] = [];
  const topicPrefix = `${uniqueName('lkr')}.`;
  const logger = createLogger({ name: 'schema-registry-test', level: 'silent' });
  const brokers = () => process.env['KAFKA_BROKERS']!.split(',');
  const click = (clickId: string): ShortlinkClicked => ({
    click_id: clickId,
    id: 'sho.rt/abc',
    organization_id: 'o1',
    group_guid: 'g1',
    long_url: 'https://example.com/',
    clicked_at: 1_700_000_000_000,
    referrer: null,
    user_agent: null,
    client_ip: null,
    bot: false,
    qr: false,
    qrcode_id: null,
    passed_params: '',
  });

  beforeAll(async () => {
    plain = createKafka({ brokers: brokers(), clientId: 'registry-test', logger, topicPrefix });
    withRegistry = createKafka({
      brokers: brokers(),
      clientId: 'registry-test',
      logger,
      topicPrefix,
      schemaRegistry: { url: registryUrl, timeoutMs: 10_000 },
    });
    await ensureTopics(plain, ['links.clicks']);
    const subject = registrySubject(`${topicPrefix}links.clicks`, CLICKED);
    await registry.setCompatibility(subject, 'FULL_TRANSITIVE');
    await registry.register(subject, schemaTextOf(CLICKED));
  }, 60_000);

  afterAll(async () => {
    await Promise.all(consumers.map((c) => c.stop()));
    consumers = [];
  });

  async function consume(client: KafkaClient, group: string) {
    const got: Array<IncomingMessage<typeof CLICKED>> = [];
    const handle = await runConsumer({
      client,
      groupId: `${group}`,
      topics: ['links.clicks'],
      handlers: { [CLICKED]: async (m: IncomingMessage<typeof CLICKED>) => void got.push(m) },
    });
    consumers.push(handle);
    await handle.ready;
    return got;
  }

  it('read the header form, the registry form, and a writer schema only the registry knows', async () => {
    const both = await consume(withRegistry, 'with-registry');
    const transitional = await consume(plain, 'without-registry');

    const headerForm = createPublisher(plain, { source: '/registry-test' });
    const registryForm = createPublisher(withRegistry, { source: '/registry-test' });
    await headerForm.connect();
    await registryForm.connect();
    await headerForm.publish({ topic: 'links.clicks', key: 'sho.rt/abc', type: CLICKED, value: click('header') });
    await registryForm.publish({ topic: 'links.clicks', key: 'sho.rt/abc', type: CLICKED, value: click('registry') });
    await headerForm.disconnect();
    await registryForm.disconnect();

    // A producer of a later release whose ShortlinkClicked has a field this build has never seen.
    const current = JSON.parse(schemaTextOf(CLICKED)) as { fields: unknown[] };
    const newer = {
      ...current,
      fields: [...current.fields, { name: 'campaign', type: ['null', 'string'], default: null }],
    };
    const newerId = await registry.register(
      registrySubject(`${topicPrefix}links.clicks`, CLICKED),
      JSON.stringify(newer),
    );
    const newerType = avro.Type.forSchema(newer as avro.Schema);
    const body = newerType.toBuffer({ ...click('newer'), campaign: 'spring' });
    const producer = plain.kafka.producer();
    await producer.connect();
    await producer.send({
      topic: `${topicPrefix}links.clicks`,
      messages: [
        {
          key: 'sho.rt/abc',
          value: frameConfluent(newerId, body),
          headers: {
            ce_id: 'newer-1',
            ce_type: CLICKED,
            ce_source: '/a-later-release',
            ce_time: new Date().toISOString(),
            ce_schema: newerType.fingerprint('sha256').toString('hex').slice(0, 16),
            schema_registry_id: String(newerId),
          },
        },
      ],
    });
    await producer.disconnect();

    await waitFor(() => both.length >= 3 || undefined, { timeoutMs: 30_000, what: 'three clicks with the registry' });
    expect(both.map((m) => m.value)).toEqual([click('header'), click('registry'), click('newer')]);
    expect(both.map((m) => m.meta.raw['schema_registry_id'] !== undefined)).toEqual([false, true, true]);

    // Without SCHEMA_REGISTRY_URL, a consumer still reads framed bodies of released schemas (by ce_schema);
    // one written with a schema it cannot know is dead-lettered, as an unknown header-form schema is.
    await waitFor(() => transitional.length >= 2 || undefined, {
      timeoutMs: 30_000,
      what: 'two clicks without the registry',
    });
    expect(transitional.map((m) => m.value)).toEqual([click('header'), click('registry')]);
  });
});
