// The worker threads that review (piscina), and how a running review is stopped: first asked
// through shared memory, terminated only as a last resort. Both runners use it.
import { Piscina } from 'piscina';
import type { Logger } from 'pino';
import type { ReviewTask, ReviewTaskResult } from './review-worker.ts';

/** How long a worker asked to stop may take before it is terminated. */
const STOP_GRACE_MS = 1_000;

/** Why the tasks waiting in a pool were ended: its worker threads could not start. */
export class WorkerStartError extends Error {
  override readonly name = 'WorkerStartError';
}

export class ReviewWorkers {
  #pool: Piscina<ReviewTask, ReviewTaskResult>;
  readonly #workerFile: string;
  readonly #threads: number;
  readonly #log: Pick<Logger, 'warn' | 'error'>;
  /** Per task on the pool: ends it (a stop's last resort, or a pool whose workers cannot start). */
  readonly #tasks = new Set<AbortController>();

  constructor(workerFile: URL | string, threads: number, log: Pick<Logger, 'warn' | 'error'>) {
    this.#log = log;
    this.#workerFile = workerFile.toString();
    this.#threads = threads;
    this.#pool = this.#newPool();
  }

  #newPool(): Piscina<ReviewTask, ReviewTaskResult> {
    const pool = new Piscina<ReviewTask, ReviewTaskResult>({
      filename: this.#workerFile,
      minThreads: 0,
      maxThreads: this.#threads,
      idleTimeout: 30_000,
    });
    // A worker that fails while it loads (a damaged install, a missing module): piscina starts no
    // other, and its tasks would wait for one until their time limit. They end now, and the next
    // task gets a new pool (the failure may pass). Unheard, this event would end the process.
    pool.on('error', (error: unknown) => {
      if (this.#pool !== pool) return;
      const { code, message } = error as { code?: string; message?: string };
      this.#log.error({ code, err: { message } }, 'the review worker could not start');
      this.#pool = this.#newPool();
      void pool.destroy().catch(() => {});
      for (const task of this.#tasks) task.abort(new WorkerStartError('the review worker could not start'));
    });
    return pool;
  }

  /**
   * Runs a task on the pool; throws the signal's reason once it is aborted. A stop is first asked
   * of the worker through shared memory, and the engine ends at its next check; only a worker
   * still busy STOP_GRACE_MS later is terminated. Terminating worker threads can bring the whole
   * process down (SIGSEGV, nodejs/node#56312), so it is kept for reviews that never yield.
   */
  async review(
    reviewId: string,
    task: ReviewTask,
    signal: AbortSignal,
  ): Promise<Exclude<ReviewTaskResult, { code: 'stopped' }>> {
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const terminate = new AbortController();
    let lastResort: NodeJS.Timeout | undefined;
    const askToStop = () => {
      Atomics.store(stop, 0, 1);
      lastResort = setTimeout(() => {
        this.#log.warn({ review_id: reviewId }, 'the review worker did not stop when asked; terminating it');
        terminate.abort(signal.reason);
      }, STOP_GRACE_MS);
    };
    signal.addEventListener('abort', askToStop, { once: true });
    this.#tasks.add(terminate);
    try {
      const result = await this.#pool.run({ ...task, stop }, { signal: terminate.signal });
      signal.throwIfAborted();
      if (!result.ok && result.code === 'stopped') throw new Error('a review stopped without being asked to');
      return result;
    } catch (error) {
      signal.throwIfAborted();
      if (terminate.signal.reason instanceof WorkerStartError) throw terminate.signal.reason;
      throw error;
    } finally {
      this.#tasks.delete(terminate);
      clearTimeout(lastResort);
      signal.removeEventListener('abort', askToStop);
    }
  }

  destroy(): Promise<void> {
    return this.#pool.destroy();
  }
}

/** The message of a job that ran past its time limit. */
export const timeoutMessage = (jobTimeoutMs: number) =>
  `The review ran past its time limit of ${Math.round(jobTimeoutMs / 100) / 10} s and was stopped. Split the diff into smaller ones.`;

export const INTERNAL_ERROR_MESSAGE = 'The review failed because of an error in the service. It was logged; try again.';
