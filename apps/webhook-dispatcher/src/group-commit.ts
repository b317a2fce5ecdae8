/**
 * Writes that arrive while one is under way wait for it and then go together, in one `flush`: under load a
 * batch forms by itself, and an idle writer pays no delay. Each `add` settles with its batch; a failed batch
 * rejects every one of its writes, which their callers retry (the flush must be idempotent).
 */
export function createGroupCommit<T>(flush: (items: T[]) => Promise<void>, maxBatch = 500) {
  let waiting: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  let running = false;

  async function run() {
    running = true;
    while (waiting.length > 0) {
      const batch = waiting.slice(0, maxBatch);
      waiting = waiting.slice(batch.length);
      try {
        await flush(batch.map((w) => w.item));
        for (const w of batch) w.resolve();
      } catch (error) {
        for (const w of batch) w.reject(error);
      }
    }
    running = false;
  }

  return {
    add(item: T): Promise<void> {
      return new Promise<void>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        if (!running) void run();
      });
    },
  };
}
