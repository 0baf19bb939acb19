// Time, injectable so that tests can move it (token expiry, retention) without waiting.
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
