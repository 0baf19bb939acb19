// The timers of a connection: a health check every few seconds while connected, and after a
// loss the retries with backoff (reconnect-backoff.ts). Connection (connection.ts) decides what
// each outcome means; this only keeps time.
import { ReconnectBackoff } from './reconnect-backoff.ts';

export interface ConnectionMonitorOptions {
  /** How often a healthy connection is checked. Default 5 s. */
  healthIntervalMs?: number;
  firstRetryMs?: number;
  maxRetryMs?: number;
}

export class ConnectionMonitor {
  readonly #healthIntervalMs: number;
  readonly #backoff: ReconnectBackoff;
  #healthTimer: ReturnType<typeof setInterval> | undefined;

  constructor(options: ConnectionMonitorOptions) {
    this.#healthIntervalMs = options.healthIntervalMs ?? 5000;
    this.#backoff = new ReconnectBackoff({
      ...(options.firstRetryMs === undefined ? {} : { firstMs: options.firstRetryMs }),
      ...(options.maxRetryMs === undefined ? {} : { maxMs: options.maxRetryMs }),
    });
  }

  /** Connected: the backoff starts over, and `check` runs every interval; `onLost` on a failure. */
  connected(check: () => Promise<unknown>, onLost: (error: unknown) => void): void {
    this.#backoff.reset();
    clearInterval(this.#healthTimer);
    this.#healthTimer = setInterval(() => void check().catch(onLost), this.#healthIntervalMs);
    this.#healthTimer.unref?.();
  }

  /** Runs `reconnect` after this attempt's delay; answers when, and which attempt it is. */
  retryLater(reconnect: () => void): { retryAt: number; attempt: number } {
    const retryAt = this.#backoff.schedule(reconnect);
    return { retryAt, attempt: this.#backoff.attempt };
  }

  /** A retry failed: the next waits longer. */
  retryFailed(): void {
    this.#backoff.failed();
  }

  /** "Retry now": the pending retry is dropped. */
  cancelRetry(): void {
    this.#backoff.cancel();
  }

  stop(): void {
    clearInterval(this.#healthTimer);
    this.#healthTimer = undefined;
    this.#backoff.cancel();
  }
}
