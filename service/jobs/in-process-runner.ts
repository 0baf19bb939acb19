// Runs review jobs: p-queue bounds how many run at once, piscina runs each in a worker thread,
// every job has a time limit, and jobs left unfinished by a stop are run again on the next start.
import PQueue from 'p-queue';
import type { JobErrorCode } from '../api/schemas.ts';
import type { ReviewFileStore, ReviewStore, StoredReview } from '../store/types.ts';
import type { ReviewJobRunner, JobRunnerSettings, StopReason } from './job-runner-contract.ts';
import type { ReviewTask } from './review-worker.ts';
import { INTERNAL_ERROR_MESSAGE, ReviewWorkers, timeoutMessage } from './review-workers.ts';

export interface InProcessRunnerOptions extends JobRunnerSettings {
  store: ReviewStore & ReviewFileStore;
}

export class InProcessRunner implements ReviewJobRunner {
  readonly #options: InProcessRunnerOptions;
  readonly #queue: PQueue;
  readonly #workers: ReviewWorkers;
  readonly #running = new Map<string, AbortController>();
  #closing = false;

  constructor(options: InProcessRunnerOptions) {
    this.#options = options;
    this.#queue = new PQueue({ concurrency: options.concurrency });
    this.#workers = new ReviewWorkers(options.workerFile, options.concurrency, options.log);
  }

  /** Jobs waiting for a worker. */
  get backlog(): number {
    return this.#queue.size;
  }

  enqueue(reviewId: string): void {
    if (this.#closing) return; // stays queued in the store; the next start runs it
    void this.#queue.add(() => this.#run(reviewId));
  }

  /** Puts every unfinished job of the store back in line, oldest first. */
  async recover(): Promise<number> {
    const unfinished = await this.#options.store.unfinishedReviews();
    for (const review of unfinished) {
      if (review.status === 'running') await this.#requeue(review.review_id);
      this.enqueue(review.review_id);
    }
    return unfinished.length;
  }

  /** Stops the worker of a running job (the caller has already marked it failed). */
  stop(reviewId: string, reason: StopReason): void {
    this.#running.get(reviewId)?.abort(reason);
  }

  /**
   * Stops taking work, gives running jobs `graceMs` to finish, then stops their workers and
   * leaves them queued in the store for the next start.
   */
  async close(graceMs: number): Promise<void> {
    this.#closing = true;
    this.#queue.clear();
    const drained = this.#queue.onIdle().then(() => true);
    const late = await Promise.race([drained, delay(graceMs).then(() => false)]);
    if (!late) for (const controller of this.#running.values()) controller.abort('shutdown' satisfies StopReason);
    await this.#queue.onIdle();
    await this.#workers.destroy();
  }

  async #run(reviewId: string): Promise<void> {
    const { store, clock, log, jobTimeoutMs } = this.#options;
    const review = await store.getReview(reviewId);
    if (review?.status !== 'queued' || this.#closing) return;
    const controller = new AbortController();
    this.#running.set(reviewId, controller);
    const timer = setTimeout(() => controller.abort('timeout' satisfies StopReason), jobTimeoutMs);
    const startedAt = new Date(clock.now()).toISOString();
    try {
      await this.#save(reviewId, {
        status: 'running',
        started_at: startedAt,
        updated_at: startedAt,
        attempts: review.attempts + 1,
      });
      // A store that keeps the diff in a file lets the worker read it there (see ReviewTask).
      const diffFile = store.diffFile?.(reviewId);
      const task: ReviewTask = diffFile === undefined ? { diff: await store.readDiff(reviewId) } : { diffFile };
      const result = await this.#workers.review(reviewId, { ...task, engine: this.#options.engine }, controller.signal);
      if (result.ok) {
        // what comments suppressed is kept with them (SARIF shows it as suppressed; the API's comments leave it out)
        await store.writeFindings(reviewId, [...result.findings, ...result.suppressed]);
        const now = new Date(clock.now()).toISOString();
        await this.#finish(reviewId, { status: 'completed', completed_at: now, updated_at: now });
        log.info(
          {
            review_id: reviewId,
            ms: clock.now() - Date.parse(startedAt),
            findings: result.findings.length,
            suppressed: result.suppressed.length,
            ...result.stats,
          },
          'review completed',
        );
      } else {
        await this.#fail(reviewId, result.code, result.message);
      }
    } catch (error) {
      const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
      if (reason === 'timeout') {
        await this.#fail(reviewId, 'timeout', timeoutMessage(jobTimeoutMs));
      } else if (reason === 'shutdown') {
        await this.#requeue(reviewId);
      } else if (reason !== 'cancelled') {
        // never the diff or the error's data: only what went wrong where
        log.error({ review_id: reviewId, err: error }, 'review failed unexpectedly');
        await this.#fail(reviewId, 'internal_error', INTERNAL_ERROR_MESSAGE);
      }
    } finally {
      clearTimeout(timer);
      this.#running.delete(reviewId);
    }
  }

  async #fail(reviewId: string, code: JobErrorCode, message: string) {
    const now = new Date(this.#options.clock.now()).toISOString();
    await this.#finish(reviewId, { status: 'failed', error: { code, message }, updated_at: now });
  }

  /**
   * Records a terminal state. The store keeps the first end (a cancel wins over a late result); the
   * diff goes only once this end is on disk, or a restart would run the job again.
   */
  async #finish(reviewId: string, end: Partial<StoredReview>) {
    if (await this.#save(reviewId, end)) await this.#options.store.deleteDiff(reviewId).catch(() => {});
  }

  async #requeue(reviewId: string) {
    await this.#save(reviewId, {
      status: 'queued',
      started_at: undefined,
      updated_at: new Date(this.#options.clock.now()).toISOString(),
    });
  }

  /**
   * Records a change and tells the followers. True once it is on disk; false when it could not be
   * written, or the store kept the review as it was (it had ended meanwhile: nothing to tell).
   */
  async #save(reviewId: string, change: Partial<StoredReview>): Promise<boolean> {
    const { store, events, log } = this.#options;
    let current: StoredReview | undefined;
    try {
      current = await store.updateReview(reviewId, change);
      if (!madeBy(current, change)) return false;
    } catch (error) {
      // Kept in memory; on disk the job stays unfinished and runs again after a restart.
      log.error({ review_id: reviewId, err: error }, 'could not save the job state');
      current = await store.getReview(reviewId);
      if (current) events.changed(current);
      return false;
    }
    events.changed(current);
    return true;
  }
}

/** True when the review is in the state the change sets (every change here sets status and updated_at). */
const madeBy = (review: StoredReview, change: Partial<StoredReview>) =>
  review.status === change.status &&
  review.updated_at === change.updated_at &&
  review.error?.code === change.error?.code;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
