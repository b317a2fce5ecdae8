import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessageTypeNames, type ShortlinkClicked } from '@platform/contracts';
import {
  createBulkPublisher,
  createKafka,
  createPublisher,
  ensureTopics,
  type KafkaClient,
  type Publisher,
} from '@platform/kafka';
import { testLogger } from '../support/test-logger.js';
import { resolveInfra, uniqueName, waitFor } from '@platform/testing';

// The bulk publisher (ADR 0022) must write what the kafkajs publisher writes: the same partition for a key, the
// same key, body and headers, in the same order. The same clicks go through each onto a topic of its own.
const infra = resolveInfra();
const logger = testLogger('bulk-publisher-test');
const name = uniqueName('bulk');
const clients: KafkaClient[] = [];
const publishers: Publisher[] = [];

interface Seen {
  partition: number;
  key: string;
  value: string;
  headers: Array<[string, string]>;
}

const click = (i: number): ShortlinkClicked => ({
  click_id: `bulk-test:${name}:${i}`,
  id: `sho.rt/${(i % 37).toString(36)}-${'é'.repeat(i % 3)}k${i % 37}`,
  organization_id: `o_${i % 5}`,
  group_guid: 'Bg0001',
  long_url: `https://example.com/landing/${i % 37}`,
  clicked_at: 1_764_000_000_000 + i,
  referrer: i % 4 === 0 ? null : 'https://news.example.com/ünïcode',
  user_agent: i % 3 === 0 ? null : 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0',
  client_ip: '203.0.113.7',
  bot: i % 7 === 0,
  qr: i % 11 === 0,
  qrcode_id: i % 11 === 0 ? 'qr1' : null,
  passed_params: '',
});

async function read(client: KafkaClient, count: number): Promise<Seen[]> {
  const seen: Seen[] = [];
  const consumer = client.kafka.consumer({ groupId: uniqueName('reader') });
  await consumer.connect();
  await consumer.subscribe({ topic: `${client.topicPrefix}links.clicks`, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ partition, message }) => {
      const headers = Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)] as [string, string]);
      seen.push({ partition, key: message.key!.toString('hex'), value: message.value!.toString('hex'), headers });
    },
  });
  try {
    await waitFor(() => seen.length >= count, { what: `${count} clicks`, timeoutMs: 30_000 });
    return seen;
  } finally {
    await consumer.disconnect();
  }
}

beforeAll(async () => {
  for (const kind of ['kafkajs', 'bulk']) {
    const client = createKafka({
      brokers: infra.kafkaBrokers.split(','),
      clientId: 'redirector',
      logger,
      topicPrefix: `${name}.${kind}.`,
    });
    await ensureTopics(client, [{ topic: 'links.clicks', partitions: 12 }]);
    clients.push(client);
  }
  publishers.push(
    createPublisher(clients[0]!, { source: '/redirector' }),
    createBulkPublisher(clients[1]!, { source: '/redirector' }),
  );
  for (const publisher of publishers) await publisher.connect();
});

afterAll(async () => {
  for (const publisher of publishers) await publisher.disconnect();
});

describe('createBulkPublisher', () => {
  it('writes the records the kafkajs publisher writes: partition, key, body and headers, alone or joined', async () => {
    const clicks = Array.from({ length: 300 }, (_, i) => click(i));
    const messages = clicks.map((c) => ({
      topic: 'links.clicks',
      key: c.id,
      id: c.click_id,
      type: MessageTypeNames.ShortlinkClicked,
      value: c,
    }));
    const concurrent = messages.slice(0, 40).map((m) => ({ ...m, id: `${m.id}:together` }));
    for (const publisher of publishers) {
      await publisher.publishMany(messages.slice(0, 250));
      await publisher.publishMany(messages.slice(250));
      await publisher.publish(messages[0]!);
      // Single publishes made together (a gateway's commands, ADR 0037) go out joined, each with its own record.
      const ids = await Promise.all(concurrent.map((message) => publisher.publish(message)));
      expect(ids).toEqual(concurrent.map((message) => message.id));
    }
    const total = messages.length + 1 + concurrent.length;
    const [byKafkajs, byBulk] = await Promise.all(clients.map((client) => read(client, total)));
    // ce_time is the batch's clock reading: the same form, not the same instant.
    const comparable = (seen: Seen[]) =>
      seen
        .map((s) => ({ ...s, headers: s.headers.map(([k, v]) => [k, k === 'ce_time' ? v.replace(/\d/g, '0') : v]) }))
        .sort((a, b) => a.partition - b.partition || 0);
    expect(byBulk).toHaveLength(total);
    expect(new Set(byBulk!.map((s) => s.partition)).size).toBeGreaterThan(6);
    // Within a partition, the order of publishing.
    expect(comparable(byBulk!)).toEqual(comparable(byKafkajs!));
    expect(byBulk![0]!.headers.map(([k]) => k)).toEqual(['ce_id', 'ce_type', 'ce_source', 'ce_time', 'ce_schema']);
  });
});
