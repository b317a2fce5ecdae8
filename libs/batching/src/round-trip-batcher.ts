/** One call, joined with the others waiting; `all` makes several calls that go out together when nothing is in flight. */
export interface BatchedRoundTrip<In, Out> {
  (input: In): Promise<Out>;
  all(inputs: readonly In[]): Promise<Out[]>;
}

/**
 * Joins the calls made while a store round trip is in flight into the next round trip. The first call goes out
 * at once (no added latency when calls are rare); calls arriving while it runs wait for it and then go out
 * together, so n callers arriving during one round trip cost one more round trip, not n. A batch is at most
 * `maxBatch` calls; a failed round trip fails only the calls it carried.
 */
export function roundTripBatcher<In, Out>(
  run: (inputs: In[]) => Promise<Out[]>,
  options: { maxBatch?: number } = {},
): BatchedRoundTrip<In, Out> {
  const maxBatch = options.maxBatch ?? 100;
  let waiting: Array<{ input: In; resolve: (out: Out) => void; reject: (error: unknown) => void }> = [];
  let inFlight = false;

  function next(): void {
    if (inFlight || waiting.length === 0) return;
    const batch = waiting.slice(0, maxBatch);
    waiting = waiting.slice(batch.length);
    inFlight = true;
    run(batch.map((call) => call.input))
      .then((outputs) => {
        if (outputs.length !== batch.length) {
          throw new Error(`a batched round trip answered ${outputs.length} of ${batch.length} calls`);
        }
        batch.forEach((call, i) => call.resolve(outputs[i]!));
      })
      .catch((error: unknown) => {
        for (const call of batch) call.reject(error);
      })
      .finally(() => {
        inFlight = false;
        next();
      });
  }

  const wait = (input: In) =>
    new Promise<Out>((resolve, reject) => {
      waiting.push({ input, resolve, reject });
    });
  const call = (input: In) => {
    const answer = wait(input);
    next();
    return answer;
  };
  return Object.assign(call, {
    all(inputs: readonly In[]) {
      const answers = Promise.all(inputs.map(wait));
      next();
      return answers;
    },
  });
}
