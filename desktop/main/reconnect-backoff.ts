// When to try a lost connection again: exponential backoff, doubling from the first delay up to
// the longest. No dependency fits: ky retries one request, while this schedules attempts the
// window shows (attempt number, time of the next try) and "Retry now" cuts short.

export interface ReconnectBackoffOptions {
  /** Delay before the first retry. Default 1 s. */
  firstMs?: number;
  /** Longest delay. Default 30 s. */
  maxMs?: number;
}

export class ReconnectBackoff {
  readonly #firstMs: number;
  readonly #maxMs: number;
  #attempt = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: ReconnectBackoffOptions = {}) {
    this.#firstMs = options.firstMs ?? 1000;
    this.#maxMs = options.maxMs ?? 30_000;
  }

  /** Failed retries since the connection was last good (0 before the first retry). */
  get attempt(): number {
    return this.#attempt;
  }

  /** Runs `retry` after this attempt's delay (replacing any pending one); returns when, in epoch ms. */
  schedule(retry: () => void): number {
    this.cancel();
    const delay = Math.min(this.#firstMs * 2 ** this.#attempt, this.#maxMs);
    this.#timer = setTimeout(retry, delay);
    this.#timer.unref?.();
    return Date.now() + delay;
  }

  /** A retry failed: the next one waits twice as long. */
  failed(): void {
    this.#attempt += 1;
  }

  /** Connected again: the next loss starts from the first delay. */
  reset(): void {
    this.#attempt = 0;
  }

  cancel(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }
}
