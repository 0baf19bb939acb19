// Runs review jobs in PostgreSQL mode: pg-boss keeps the queue in the shared database, so any
// instance takes any job, and a job whose instance died (its heartbeat stops) is delivered again
// elsewhere. Delivery is at least once; the effect is once, because every state change is guarded
// in SQL (review-jobs.ts). Jobs are pulled, not polled: as many as there are free workers, at once
// again when one frees up or a NOTIFY says a job was queued, and once a second otherwise
// (pg-boss's own polling would bind throughput to its interval).
import type { Job, PgBoss } from 'pg-boss';
import type pg from 'pg';
import { ServiceUnavailableError } from '../api/errors.ts';
import { isConnectionError } from '../store/postgres/queries.ts';
import type { PostgresReviewJobs } from '../store/postgres/review-jobs.ts';
import { ReviewChanges } from '../store/postgres/review-changes.ts';
import type { ReviewFileStore, StoredReview } from '../store/types.ts';
import type { ReviewJobRunner, JobRunnerSettings, StopReason } from './job-runner-contract.ts';
import { jobIdOf, QUEUE, startReviewQueue } from './review-queue.ts';
import { INTERNAL_ERROR_MESSAGE, ReviewWorkers, timeoutMessage } from './review-workers.ts';

export interface PgBossRunnerOptions extends JobRunnerSettings {
  databaseUrl: string;
  /** The store's pool, for the review jobs' state and the wake-up NOTIFY. */
  pool: pg.Pool;
  jobs: PostgresReviewJobs;
  files: Pick<ReviewFileStore, 'readDiff'>;
  /** Seconds without a heartbeat after which a running job is given to another instance. Default 10 (pg-boss's least). */
  heartbeatSeconds?: number;
}

/** A job that ended its worker's instance this many times is failed, not tried again forever. */
const MAX_ATTEMPTS = 10;
/** Pull at least this often (a NOTIFY can be missed while the listener reconnects). */
const PULL_EVERY_MS = 1_000;
/** How often the shared backlog is counted, and running reviews are checked for a cancel missed as a NOTIFY. */
const CHECK_EVERY_MS = 1_000;

interface RunningJob {
  job: Job<{ review_id: string }>;
  controller: AbortController;
}

export class PgBossRunner implements ReviewJobRunner {
  readonly #o: PgBossRunnerOptions;
  readonly #boss: PgBoss;
  readonly #workers: ReviewWorkers;
  readonly #running = new Map<string, RunningJob>();
  readonly #runs = new Set<Promise<void>>();
  #closing = false;
  #wake: (() => void) | undefined;
  #pulling: Promise<void> | undefined;
  #timers: NodeJS.Timeout[] = [];
  /** Queued jobs of all instances as last counted, and this instance's changes to it since. */
  #counted = 0;
  #sinceCount = 0;

  private constructor(options: PgBossRunnerOptions, boss: PgBoss) {
    this.#o = options;
    this.#boss = boss;
    this.#workers = new ReviewWorkers(options.workerFile, options.concurrency, options.log);
  }

  /** Installs (or upgrades) pg-boss's schema, creates the queue, and starts pulling. */
  static async start(options: PgBossRunnerOptions): Promise<PgBossRunner> {
    const heartbeatSeconds = options.heartbeatSeconds ?? 10;
    const boss = await startReviewQueue({ ...options, heartbeatSeconds });
    const runner = new PgBossRunner(options, boss);
    // The shared backlog is counted before the first request is taken: until then, a create would
    // see an empty queue and pass the queue limit that other instances have already filled.
    await runner.#check().catch(() => {});
    runner.#begin(heartbeatSeconds);
    return runner;
  }

  get backlog(): number {
    return Math.max(0, this.#counted + this.#sinceCount);
  }

  async enqueue(reviewId: string): Promise<void> {
    try {
      await this.#boss.send(QUEUE, { review_id: reviewId }, { id: jobIdOf(reviewId) });
    } catch (error) {
      // The review is saved but has no job: it ends now rather than wait forever (the caller
      // answers 503 and was never given its id). Should even this fail, it stays queued.
      const message = 'The review could not be queued (the database was out of reach). Submit it again.';
      const at = new Date(this.#o.clock.now()).toISOString();
      await this.#o.jobs.finish(reviewId, { at, error: { code: 'internal_error', message } }).catch(() => {});
      throw new ServiceUnavailableError({ cause: error });
    }
    this.#sinceCount++;
    this.#pullNow();
    // the other instances wake too; a lost NOTIFY only costs them a second
    await ReviewChanges.announceJob(this.#o.pool).catch(() => {});
  }

  /**
   * pg-boss keeps the jobs, and delivers a stopped instance's again by itself. What it cannot know
   * is a review saved whose job never was (its instance died between the two writes): queued
   * reviews a while old get their job now. A review's job id is derived from the review's, so for
   * those that have one this changes nothing.
   */
  async recover(): Promise<number> {
    const stranded = await this.#o.jobs.queuedBefore(new Date(this.#o.clock.now() - STRANDED_AFTER_MS).toISOString());
    let added = 0;
    for (let i = 0; i < stranded.length; i += 1000) {
      const jobs = stranded.slice(i, i + 1000).map((id) => ({ id: jobIdOf(id), data: { review_id: id } }));
      added += (await this.#boss.insert(QUEUE, jobs, { returnId: true }))?.length ?? 0;
    }
    if (added > 0) this.#pullNow();
    return added;
  }

  stop(reviewId: string, reason: StopReason): void {
    this.#running.get(reviewId)?.controller.abort(reason);
  }

  /** A review changed on some instance (a NOTIFY): one this instance runs that has ended was cancelled. */
  reviewChanged(reviewId: string, status: StoredReview['status'] | 'deleted'): void {
    if (status !== 'queued' && status !== 'running') this.stop(reviewId, 'cancelled');
  }

  /** A job was queued on some instance. */
  jobQueued(): void {
    this.#pullNow();
  }

  async close(graceMs: number): Promise<void> {
    this.#closing = true;
    this.#pullNow();
    await this.#pulling;
    const drained = Promise.all(this.#runs).then(() => true);
    const inTime = await Promise.race([drained, delay(graceMs).then(() => false)]);
    if (!inTime) for (const { controller } of this.#running.values()) controller.abort('shutdown' satisfies StopReason);
    await Promise.all(this.#runs);
    for (const timer of this.#timers) clearInterval(timer); // heartbeats went on while reviews finished
    await this.#boss.stop({ graceful: false, close: true }).catch(() => {});
    await this.#workers.destroy();
  }

  #begin(heartbeatSeconds: number) {
    this.#pulling = this.#pull();
    const beat = () => {
      const held = [...this.#running.values()].map(({ job }) => ({ id: job.id, retryCount: job.retryCount }));
      if (held.length > 0) void this.#boss.touch(QUEUE, held).catch(() => {});
    };
    this.#timers.push(
      setInterval(beat, (heartbeatSeconds * 1000) / 3).unref(),
      setInterval(() => void this.#check().catch(() => {}), CHECK_EVERY_MS).unref(),
    );
  }

  /** Counts the shared backlog, and stops running reviews that ended elsewhere (a cancel missed as a NOTIFY). */
  async #check() {
    const before = this.#sinceCount;
    const [queued, ended] = await Promise.all([
      this.#o.jobs.queued(),
      this.#running.size === 0 ? [] : this.#o.jobs.ended([...this.#running.keys()]),
    ]);
    this.#counted = queued;
    // Changes made while the count was on its way: those after its snapshot are not in it.
    this.#sinceCount -= before;
    for (const id of ended) this.stop(id, 'cancelled');
  }

  #pullNow() {
    this.#wake?.();
  }

  async #pull(): Promise<void> {
    let failing = false;
    while (!this.#closing) {
      const free = this.#o.concurrency - this.#running.size;
      let full = false;
      if (free > 0) {
        try {
          const jobs = await this.#boss.fetch<{ review_id: string }>(QUEUE, { batchSize: free });
          failing = false;
          full = jobs.length === free;
          for (const job of jobs) this.#track(this.#run(job));
        } catch (error) {
          if (!failing)
            this.#o.log.warn({ code: (error as { code?: string }).code }, 'could not fetch review jobs; retrying');
          failing = true;
        }
      }
      if (full && !this.#closing) continue; // there may be more: no pause while workers are free
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, PULL_EVERY_MS);
        this.#wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.#wake = undefined;
    }
  }

  #track(run: Promise<void>) {
    this.#runs.add(run);
    void run.finally(() => {
      this.#runs.delete(run);
      this.#pullNow();
    });
  }

  async #run(job: Job<{ review_id: string }>): Promise<void> {
    const { jobs, clock, log, jobTimeoutMs } = this.#o;
    const reviewId = job.data.review_id;
    const now = () => new Date(clock.now()).toISOString();
    // fetched as the instance began to stop: another instance takes it at once
    if (this.#closing) return this.#handBack(job, 'the instance stopped').catch(() => {});
    const controller = new AbortController();
    this.#running.set(reviewId, { job, controller });
    // The limit is per delivery: one redelivered after its instance died gets a whole new limit
    // (the attempt that died did not finish; attempts are capped at MAX_ATTEMPTS).
    const timer = setTimeout(() => controller.abort('timeout' satisfies StopReason), jobTimeoutMs);
    try {
      const started = await jobs.start(reviewId, now());
      if (!started) return await this.#settle(job); // ended meanwhile (a cancel, or another delivery finished it)
      if (started.attempts === 1) this.#sinceCount--; // no longer waiting (a retried one was counted as running)
      this.#o.events.changed(started);
      if (started.attempts > MAX_ATTEMPTS) {
        log.error(
          { review_id: reviewId, attempts: started.attempts },
          'a review was given up after its workers kept dying',
        );
        return await this.#end(job, { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE });
      }
      const diff = await this.#o.files.readDiff(reviewId);
      const result = await this.#workers.review(reviewId, { diff, engine: this.#o.engine }, controller.signal);
      if (result.ok) {
        const done = await jobs.finish(reviewId, { at: now(), findings: [...result.findings, ...result.suppressed] });
        if (done) {
          this.#o.events.changed(done);
          log.info(
            {
              review_id: reviewId,
              findings: result.findings.length,
              suppressed: result.suppressed.length,
              ...result.stats,
            },
            'review completed',
          );
        }
        await this.#settle(job);
      } else {
        await this.#end(job, { code: result.code, message: result.message });
      }
    } catch (error) {
      const reason = controller.signal.aborted ? (controller.signal.reason as StopReason) : undefined;
      try {
        if (reason === 'timeout') await this.#end(job, { code: 'timeout', message: timeoutMessage(jobTimeoutMs) });
        else if (reason === 'cancelled') await this.#settle(job);
        else if (reason === 'shutdown') await this.#handBack(job, 'the instance stopped');
        else if (error instanceof ServiceUnavailableError || isConnectionError(error)) {
          // The database went out of reach mid-run (restarting, a connection cut): not the
          // review's fault, so it runs again rather than fail; if even the hand-back cannot be
          // written, its heartbeat stops and pg-boss delivers it again once the database is back.
          log.warn(
            { review_id: reviewId, code: connectionCode(error) },
            'the database was out of reach during a review; it will run again',
          );
          await this.#handBack(job, 'the database was out of reach');
        } else {
          // never the diff or the error's data: only what went wrong where
          log.error({ review_id: reviewId, err: error }, 'review failed unexpectedly');
          await this.#end(job, { code: 'internal_error', message: INTERNAL_ERROR_MESSAGE });
        }
      } catch (again) {
        // The database is out of reach: the job stays active in pg-boss, its heartbeat stops, and
        // it is delivered again once the database is back.
        log.warn(
          { review_id: reviewId, code: connectionCode(again) },
          'could not record the end of a review; it will run again',
        );
      }
    } finally {
      clearTimeout(timer);
      this.#running.delete(reviewId);
    }
  }

  /** Fails the review (unless it ended meanwhile) and settles its job. */
  async #end(job: Job<{ review_id: string }>, error: NonNullable<StoredReview['error']>) {
    const done = await this.#o.jobs.finish(job.data.review_id, {
      at: new Date(this.#o.clock.now()).toISOString(),
      error,
    });
    if (done) this.#o.events.changed(done);
    await this.#settle(job);
  }

  /** The job's work is done (whatever the review's outcome): pg-boss forgets it. */
  async #settle(job: Job<{ review_id: string }>) {
    await this.#boss.complete(QUEUE, { id: job.id, retryCount: job.retryCount });
  }

  /** The review goes back to queued and its job to the queue, for any instance to run at once. */
  async #handBack(job: Job<{ review_id: string }>, reason: string) {
    // (a review not started yet is still queued: requeue() leaves it as it is)
    const requeued = await this.#o.jobs.requeue(job.data.review_id, new Date(this.#o.clock.now()).toISOString());
    if (requeued) this.#o.events.changed(requeued);
    await this.#boss.fail(QUEUE, { id: job.id, retryCount: job.retryCount }, { reason });
  }
}

/** A queued review older than this without a job was stranded (its create's job is sent at once). */
const STRANDED_AFTER_MS = 60_000;

/** The driver's code of a failure to reach the database (never its message: it may name the host). */
const connectionCode = (error: unknown) =>
  ((error as { cause?: { code?: string } }).cause ?? (error as { code?: string }))?.code;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());
