import { Worker } from 'node:worker_threads';

/**
 * What a helper thread's source receives and answers: `{ id, ...message }` in, `{ id, out }` or `{ id, error }` out.
 * Messages without an id expect no answer.
 */
type Reply = { id: number; out?: unknown; error?: string };

/**
 * A worker thread for CPU-bound work off the event loop, started on first use from `source` (CommonJS, given
 * `workerData`). It keeps the process alive only while an answer is awaited. A thread that fails or exits fails
 * what it was asked; the next call starts a new one.
 */
export class HelperThread {
  private worker: Worker | undefined;
  private generation = 0;
  private nextId = 1;
  private readonly pending = new Map<number, (reply: Reply) => void>();

  constructor(
    private readonly source: string,
    private readonly workerData?: unknown,
  ) {}

  private start(): Worker {
    const worker = new Worker(this.source, { eval: true, workerData: this.workerData });
    this.generation++;
    worker.on('message', (reply: Reply) => {
      this.pending.get(reply.id)?.(reply);
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
    });
    const fail = (error: unknown) => {
      if (this.worker === worker) this.worker = undefined;
      for (const settle of this.pending.values()) settle({ id: -1, error: String(error) });
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`helper thread exited with ${code}`)));
    worker.unref();
    return worker;
  }

  private running(): Worker {
    this.worker ??= this.start();
    return this.worker;
  }

  /**
   * A message that needs no answer: state the thread keeps for later calls. Returns the thread's generation, for
   * `postTo`; state posted to a thread is lost when it fails and a new one takes its place.
   */
  post(message: object): number {
    this.running().postMessage(message);
    return this.generation;
  }

  /** Posts only to the thread of that generation, when it still runs (releasing state it keeps). */
  postTo(generation: number, message: object): void {
    if (this.worker && this.generation === generation) this.worker.postMessage(message);
  }

  /**
   * The thread's answer to `message`. Rejects when the thread answers with an error, fails, or takes longer than
   * `timeoutMs`: then it is terminated, busy with work nobody waits for, and a new one serves the next call.
   */
  call<T>(message: object, timeoutMs?: number): Promise<T> {
    const worker = this.running();
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer =
        timeoutMs === undefined
          ? undefined
          : setTimeout(() => {
              this.pending.delete(id);
              if (this.worker === worker) this.worker = undefined;
              void worker.terminate();
              reject(new Error(`helper thread took longer than ${timeoutMs} ms`));
            }, timeoutMs);
      timer?.unref();
      this.pending.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.error !== undefined) reject(new Error(reply.error));
        else resolve(reply.out as T);
      });
      worker.ref();
      worker.postMessage({ ...message, id });
    });
  }
}
