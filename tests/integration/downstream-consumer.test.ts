import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@platform/testing';
import avro from 'avsc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import {
  loadPublishedSchemas,
  startDownstreamConsumer,
  type DownstreamConsumer,
  type PlatformEvent,
} from '../../docs/examples/downstream-consumer.js';
import { startLinksStack, type LinksStack, type LinksUser } from '../support/links-stack.js';
import { shorten, visit } from '../support/links-requests.js';

// The downstream side of this test knows the platform only by what it publishes: docs/asyncapi.yaml for the
// topics and headers, schemas/ for the bodies. The services run for real (links-gateway, links-worker, redirectors).
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const schemasDir = path.join(repoRoot, 'schemas');

interface AsyncApi {
  channels: Record<string, { address: string; messages: Record<string, { $ref: string }> }>;
  components: { schemas: Record<string, { required: string[]; properties: Record<string, unknown> }> };
}
const asyncapi = parseYaml(readFileSync(path.join(repoRoot, 'docs/asyncapi.yaml'), 'utf8')) as AsyncApi;

/** The topic a record type is published on, as the AsyncAPI document says (not its dead-letter topic). */
function topicOf(recordType: string): string {
  const channel = Object.values(asyncapi.channels).find(
    (c) =>
      !c.address.endsWith('.dlq') &&
      Object.values(c.messages).some((m) => m.$ref === `#/components/messages/${recordType}`),
  );
  if (!channel) throw new Error(`docs/asyncapi.yaml has no channel for ${recordType}`);
  return channel.address;
}

const CREATED = 'platform.links.events.ShortlinkCreated';
const CLICKED = 'platform.links.clicks.ShortlinkClicked';

let stack: LinksStack;
let admin: LinksUser;
let organizationId: string;
let groupGuid: string;
let consumer: DownstreamConsumer;
const events: PlatformEvent[] = [];
const schemas = loadPublishedSchemas(schemasDir);
/** The id producers write now: that of the current file. */
const currentId = (file: string) =>
  schemas.idOf(avro.Type.forSchema(JSON.parse(readFileSync(path.join(schemasDir, file), 'utf8')) as avro.Schema));

beforeAll(async () => {
  stack = await startLinksStack();
  ({ organizationId, groupGuid, admin } = await stack.newOrganization());
  // A deployment puts its KAFKA_TOPIC_PREFIX in front of topic and group names; this stack's is unique to it.
  const prefix = stack.kafka.topicPrefix;
  consumer = await startDownstreamConsumer({
    brokers: process.env['KAFKA_BROKERS']!.split(','),
    groupId: `${prefix}downstream-example`,
    topics: [topicOf(CREATED), topicOf(CLICKED)].map((topic) => `${prefix}${topic}`),
    schemas,
    fromBeginning: true,
    onEvent: (event) => void events.push(event),
  });
}, 120_000);

afterAll(async () => {
  await consumer?.stop();
  await stack?.close();
});

function expectDocumentedHeaders(event: PlatformEvent) {
  const documented = asyncapi.components.schemas['EventHeaders']!;
  for (const name of documented.required) expect(event.headers[name], `${event.type}: ${name}`).toBeTruthy();
  expect(
    Object.keys(event.headers).filter((name) => !(name in documented.properties)),
    `${event.type}: undocumented headers`,
  ).toEqual([]);
  expect(
    existsSync(path.join(schemasDir, 'history', `${event.type}@${event.schemaId}.avsc`)),
    `${event.type}@${event.schemaId} is published`,
  ).toBe(true);
}

describe('a downstream consumer with only the published contract', () => {
  let link: string;
  let created: PlatformEvent;
  let clicked: PlatformEvent;
  const started = Date.now();

  it('reads ShortlinkCreated from links.events after a shorten through the API', async () => {
    link = await shorten(stack, admin, 'https://example.com/downstream?from=test');

    created = await waitFor(() => events.find((e) => e.type === CREATED && e.value['id'] === link), {
      timeoutMs: 30_000,
      what: 'ShortlinkCreated',
    });
    expect(created).toMatchObject({
      topic: `${stack.kafka.topicPrefix}links.events`,
      key: link,
      source: '/links-worker',
      schemaId: currentId('links/events/ShortlinkCreated.avsc'),
    });
    expect(created.value).toEqual({
      id: link,
      organization_id: organizationId,
      group_guid: groupGuid,
      long_url: 'https://example.com/downstream?from=test',
      title: null,
      tags: [],
      archived: false,
      custom: false,
      redirect_status: 301,
      expiration_at: null,
      created_by: admin.user.username,
      occurred_at: expect.any(Number),
    });
    expect(created.value['occurred_at']).toBeGreaterThanOrEqual(started);
    expect(Date.parse(created.time)).toBeGreaterThanOrEqual(started);
    expectDocumentedHeaders(created);
  });

  it('reads ShortlinkClicked from links.clicks after a redirect by a redirector', async () => {
    const status = await visit(stack.redirectors[0], link, {
      'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      referer: 'https://news.example/',
    });
    expect(status).toBe(301);

    clicked = await waitFor(() => events.find((e) => e.type === CLICKED && e.value['id'] === link), {
      timeoutMs: 30_000,
      what: 'ShortlinkClicked',
    });
    expect(clicked).toMatchObject({
      topic: `${stack.kafka.topicPrefix}links.clicks`,
      key: link,
      source: '/redirector',
      schemaId: currentId('links/events/ShortlinkClicked.avsc'),
    });
    expect(clicked.value).toEqual({
      click_id: expect.any(String),
      id: link,
      organization_id: organizationId,
      group_guid: groupGuid,
      long_url: 'https://example.com/downstream?from=test',
      clicked_at: expect.any(Number),
      referrer: 'https://news.example/',
      user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
      client_ip: '127.0.0.1',
      bot: false,
      qr: false,
      qrcode_id: null,
      passed_params: '',
    });
    expect(clicked.value['clicked_at']).toBeGreaterThanOrEqual(started);
    expect(clicked.id).not.toBe(created.id);
    expectDocumentedHeaders(clicked);
  });

  it('decodes the same click with a copy of the schemas taken before the last field was added', () => {
    // A team that copied schemas/ before QR codes has the ShortlinkClicked without qrcode_id (and passed_params,
    // added later); the writer's released schema resolves the new body into its reader.
    const copy = mkdtempSync(path.join(tmpdir(), 'downstream-schemas-'));
    try {
      cpSync(schemasDir, copy, { recursive: true });
      cpSync(
        path.join(schemasDir, 'history', `${CLICKED}@41fe427db70904f7.avsc`),
        path.join(copy, 'links/events/ShortlinkClicked.avsc'),
      );
      const older = loadPublishedSchemas(copy);
      const { qrcode_id: _added, passed_params: _addedLater, ...before } = clicked.value;
      expect(older.decode(clicked.type, clicked.schemaId, clicked.body)).toEqual(before);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });
});
