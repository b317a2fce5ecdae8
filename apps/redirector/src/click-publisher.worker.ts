import { parentPort, workerData } from 'node:worker_threads';
import { MessageTypeNames, type ShortlinkClicked } from '@platform/contracts';
import { createKafka, createPublisher } from '@platform/kafka';
import { createLogger } from '@platform/telemetry';
import type { PublisherThreadData, ToPublisher, FromPublisher } from './click-publisher.js';

// The click publisher's thread: Avro encoding and the Kafka producer, away from the thread that answers redirects.
const data = workerData as PublisherThreadData;
const port = parentPort!;
const logger = createLogger({ name: data.name, level: data.logLevel }).child({ thread: 'click-publisher' });
const publisher = createPublisher(createKafka({ brokers: data.brokers, clientId: data.name, logger, topicPrefix: data.topicPrefix, schemaRegistry: data.schemaRegistry }), { source: `/${data.name}` });
let connected: Promise<void> | undefined;

async function publish(clicks: ShortlinkClicked[]): Promise<void> {
  // A failed connection is tried again with the next batch (the click buffer keeps the batch meanwhile).
  connected ??= publisher.connect().catch((error: unknown) => {
    connected = undefined;
    throw error;
  });
  await connected;
  await publisher.publishMany(clicks.map((click) => ({ topic: data.topic, key: click.id, id: click.click_id, type: MessageTypeNames.ShortlinkClicked, value: click })));
}

port.on('message', (message: ToPublisher) => {
  const answer = (reply: FromPublisher) => port.postMessage(reply);
  if (message.kind === 'publish') {
    publish(message.clicks).then(
      () => answer({ kind: 'published', seq: message.seq }),
      (error: unknown) => answer({ kind: 'failed', seq: message.seq, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }),
    );
  } else {
    void (connected ? publisher.disconnect() : Promise.resolve())
      .catch((error: unknown) => logger.warn({ err: error }, 'the click producer did not disconnect cleanly'))
      .finally(() => answer({ kind: 'closed' }));
  }
});
