import { parentPort, workerData } from 'node:worker_threads';
import { createBulkPublisher, createKafka } from '@platform/kafka';
import { createLogger } from '@platform/telemetry';
import { unpackClicks } from './click-batch.js';
import { createClickProducer } from './click-producer.js';
import type { PublisherThreadData, ToPublisher, FromPublisher } from './click-publisher.js';

// The click publisher's thread: Avro encoding and the Kafka producer, away from the thread that answers redirects.
const data = workerData as PublisherThreadData;
const port = parentPort!;
const logger = createLogger({ name: data.name, level: data.logLevel }).child({ thread: 'click-publisher' });
const kafka = createKafka({
  brokers: data.brokers,
  clientId: data.name,
  logger,
  topicPrefix: data.topicPrefix,
  schemaRegistry: data.schemaRegistry,
});
const producer = createClickProducer(createBulkPublisher(kafka, { source: `/${data.name}` }), data.topic);

port.on('message', (message: ToPublisher) => {
  const answer = (reply: FromPublisher) => port.postMessage(reply);
  if (message.kind === 'publish') {
    // A malformed batch (a bug, never input) fails like a broker error: the click buffer keeps it and logs.
    new Promise<void>((resolve) => resolve(producer.publish(unpackClicks(message.clicks)))).then(
      () => answer({ kind: 'published', seq: message.seq }),
      (error: unknown) =>
        answer({
          kind: 'failed',
          seq: message.seq,
          error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
        }),
    );
  } else {
    void producer
      .close()
      .catch((error: unknown) => logger.warn({ err: error }, 'the click producer did not disconnect cleanly'))
      .finally(() => answer({ kind: 'closed' }));
  }
});
