/** The time a handler sees: the system clock in services, a fake one in handler unit tests. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
