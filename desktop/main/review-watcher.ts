// Live updates: every job the window has seen queued or running is followed, and each new state is
// pushed to the window, so queued → running → completed shows without a refresh. All of them
// through ONE owner-wide event stream (GET /v1/events): a stream per job held a socket each, 202
// for a burst of 200. While that stream is refused or broken, the jobs are polled one after
// another (one socket) and the stream is tried again with a growing pause. A job never goes back.
import { ApiError, isTerminalStatus, type DiffReviewClient } from '../../service/client/index.ts';
import type { ReviewJob } from '../shared/ipc-contract.ts';

export interface ReviewWatcherOptions {
  client: () => DiffReviewClient;
  notify: (job: ReviewJob) => void;
  onError: (error: unknown) => void;
}

/** States the stream told of jobs not (yet) followed: a job's news can outrun its create's answer. */
const RECENT_MAX = 2000;
const STATUS_RANK = { queued: 0, running: 1, completed: 2, failed: 2 } as const;

/** Whether `next` is a later state of the job than `current` (answers and events can cross on the way). */
function isLater(current: ReviewJob, next: ReviewJob): boolean {
  const rank = STATUS_RANK[next.status] - STATUS_RANK[current.status];
  return rank > 0 || (rank === 0 && next.updated_at > current.updated_at);
}

export class ReviewWatcher {
  readonly #options: ReviewWatcherOptions;
  /** Followed jobs, with the last state the window was told. */
  readonly #watching = new Map<string, ReviewJob>();
  readonly #recent = new Map<string, ReviewJob>();
  /** Jobs whose following broke off (the service went away): followed again by resume(). */
  readonly #lost = new Map<string, ReviewJob>();
  /** The open owner-wide stream, while any job is followed. */
  #stream: AbortController | undefined;

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
      this.#watching.set(job.review_id, job);
      const told = this.#recent.get(job.review_id);
      if (told) this.#update(told);
    }
    if (this.#watching.size > 0) this.#follow();
  }

  /**
   * A job the app just made: the window is told at once, so it lists the job even while it waits
   * in the queue (no state change would tell it before the list's next refresh), then followed.
   */
  submitted(job: ReviewJob): void {
    this.#options.notify(job);
    this.watch([job]);
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
    this.#stopStream();
    this.#watching.clear();
    this.#recent.clear();
    this.#lost.clear();
  }

  #follow() {
    if (this.#stream) return;
    const controller = new AbortController();
    this.#stream = controller;
    const client = this.#options.client();
    client
      .followReviews({
        signal: controller.signal,
        onUpdate: (job) => this.#update(job),
        // What finished while the stream was not open is read once.
        onReady: (unfinished) => this.#read(client, (id) => !unfinished.has(id), controller.signal),
        // Refused (an older service, too many streams) or broken: poll, then try the stream again.
        onDown: () => this.#read(client, () => true, controller.signal),
        retryIntervalMs: 1000,
        maxRetryIntervalMs: 3000,
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        this.#stream = undefined;
        for (const [id, job] of this.#watching) this.#lost.set(id, job);
        this.#watching.clear();
        this.#options.onError(error);
      });
  }

  #stopStream() {
    this.#stream?.abort();
    this.#stream = undefined;
  }

  /** Reads the followed jobs that `which` picks, one after another; a failure ends the following (see #follow). */
  async #read(client: DiffReviewClient, which: (id: string) => boolean, signal: AbortSignal) {
    for (const id of [...this.#watching.keys()].filter(which)) {
      if (signal.aborted || !this.#watching.has(id)) continue;
      try {
        this.#update(await client.getReview(id, { signal }));
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 404)) throw error;
        this.#watching.delete(id); // deleted by retention meanwhile: nothing more to tell
      }
    }
    if (this.#watching.size === 0) this.#stopStream();
  }

  #update(job: ReviewJob) {
    const current = this.#watching.get(job.review_id);
    if (!current) {
      const known = this.#recent.get(job.review_id);
      if (known && !isLater(known, job)) return;
      this.#recent.delete(job.review_id);
      this.#recent.set(job.review_id, job);
      if (this.#recent.size > RECENT_MAX) this.#recent.delete(this.#recent.keys().next().value!);
      return;
    }
    if (!isLater(current, job)) return;
    this.#options.notify(job);
    if (!isTerminalStatus(job.status)) {
      this.#watching.set(job.review_id, job);
      return;
    }
    this.#watching.delete(job.review_id);
    if (this.#watching.size === 0) this.#stopStream();
  }
}
