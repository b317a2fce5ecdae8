import { MessageTypeNames } from '@platform/contracts';
import type { Publisher } from '@platform/kafka';
import type { ClickSink } from './click-buffer.js';

export interface ClickProducer extends ClickSink {
  /** Disconnects the producer (after the click buffer has stopped: what it held is published or spooled). */
  close(): Promise<void>;
}

/** Click batches onto the clicks topic through a publisher of their own, connected with the first batch. */
export function createClickProducer(publisher: Publisher, topic: string): ClickProducer {
  let connected: Promise<void> | undefined;
  return {
    async publish(clicks) {
      // A failed connection is tried again with the next batch (the click buffer keeps the batch meanwhile).
      connected ??= publisher.connect().catch((error: unknown) => {
        connected = undefined;
        throw error;
      });
      await connected;
      await publisher.publishMany(
        clicks.map((click) => ({
          topic,
          key: click.id,
          id: click.click_id,
          type: MessageTypeNames.ShortlinkClicked,
          value: click,
        })),
      );
    },
    async close() {
      if (connected)
        await connected.then(
          () => publisher.disconnect(),
          () => undefined,
        );
    },
  };
}
