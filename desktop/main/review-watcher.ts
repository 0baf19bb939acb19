// Live updates: every job the window has seen queued or running is followed (Server-Sent Events,
// falling back to polling inside the client's waitForReview) and each new state is pushed to the
// window, so queued → running → completed shows without a refresh.
import { isTerminalStatus, type DiffReviewClient } from '../../service/client/index.ts';
import type { ReviewJob } from '../shared/ipc-contract.ts';

export interface ReviewWatcherOptions {
  client: () => DiffReviewClient;
  notify: (job: ReviewJob) => void;
  onError: (error: unknown) => void;
}

export class ReviewWatcher {
  readonly #options: ReviewWatcherOptions;
  readonly #watching = new Map<string, AbortController>();
  /** Jobs whose following broke off (the service went away): followed again by resume(). */
  readonly #lost = new Map<string, ReviewJob>();

  constructor(options: ReviewWatcherOptions) {
    this.#options = options;
  }

  get size(): number {
    return this.#watching.size;
  }

  /** Follows the jobs that are not finished yet (once each). */
  watch(jobs: Iterable<ReviewJob>): void {
    for (const job of jobs) {
      this.#lost.delete(job.review_id);
      if (isTerminalStatus(job.status) || this.#watching.has(job.review_id)) continue;
      const controller = new AbortController();
      this.#watching.set(job.review_id, controller);
      this.#options
        .client()
        .waitForReview(job.review_id, {
          signal: controller.signal,
          pollIntervalMs: 1000,
          maxPollIntervalMs: 3000,
          onUpdate: (update) => this.#options.notify(update),
        })
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          this.#lost.set(job.review_id, job);
          this.#options.onError(error);
        })
        .finally(() => {
          if (this.#watching.get(job.review_id) === controller) this.#watching.delete(job.review_id);
        });
    }
  }

  /**
   * Back online: every job whose following broke off is followed again, not only those on the
   * list's first page (the window may hold many pages).
   */
  resume(): void {
    const lost = [...this.#lost.values()];
    this.#lost.clear();
    this.watch(lost);
  }

  stopAll(): void {
    for (const controller of this.#watching.values()) controller.abort();
    this.#watching.clear();
    this.#lost.clear();
  }
}
