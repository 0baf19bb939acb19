// A store for @fastify/rate-limit whose counts live elsewhere (the PostgreSQL database, in that
// mode), so that every instance spends one budget per token instead of a budget each. Like
// SharedRateLimitStore, routes of one group share a count (the key is token id + groupId). A
// counter that cannot be reached fails the request (503), not open.

/** Counts events per key in fixed windows; answers the count so far and the time left. */
export interface WindowCounter {
  countInWindow(key: string, windowMs: number): Promise<{ count: number; msLeft: number }>;
}

type Reply = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** The store class the plugin instantiates (it passes its options, which this store does not need). */
export function countedRateLimitStore(counter: WindowCounter) {
  return class CountedRateLimitStore {
    incr(key: string, reply: Reply, timeWindow: number): void {
      counter.countInWindow(key, timeWindow).then(
        ({ count, msLeft }) => reply(null, { current: count, ttl: msLeft }),
        (error: Error) => reply(error),
      );
    }

    child(): this {
      return this;
    }
  };
}
