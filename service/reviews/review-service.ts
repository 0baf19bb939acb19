// Review jobs as the API sees them: create (create-review.ts), read, list, cancel, SARIF,
// retention. Routes call this; it calls the store and the runner.
import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import { ConflictError, NotFoundError } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';
import { isTerminal } from '../api/review-status.ts';
import type { CreateReviewBody, ListReviewsQuery, ReviewJob, ReviewList } from '../api/schemas.ts';
import type { Clock } from '../clock.ts';
import type { ReviewJobRunner } from '../jobs/job-runner-contract.ts';
import type { ReviewEvents } from '../jobs/review-events.ts';
import type { StoredFinding } from '../store/flagged-lines.ts';
import type { IdempotencyStore, ReviewFileStore, ReviewStore, StoredReview } from '../store/types.ts';
import { HOUR_MS, ReviewCreator } from './create-review.ts';
import { toReviewJob } from './job-view.ts';
import { decodeCursor, encodeCursor } from './list-cursor.ts';
import { ownedBy } from './ownership.ts';
import { addSnippets } from './sarif-snippets.ts';

/** Reviews read at a time by unfinishedOf. */
const UNFINISHED_PAGE = 500;

export interface ReviewServiceOptions {
  store: ReviewStore & ReviewFileStore & IdempotencyStore;
  runner: ReviewJobRunner;
  events: ReviewEvents;
  clock: Clock;
  /** Jobs waiting for a worker before creates are refused with 429 queue_full. */
  maxQueuedJobs: number;
  /** Finished reviews are deleted this many days after their last change. */
  retentionDays: number;
  version: string;
  /** Where a review left out of a list page (its results could not be read) is reported. */
  log?: Pick<Logger, 'error'>;
}

export class ReviewService {
  readonly #o: ReviewServiceOptions;
  /** Findings of recently read reviews: a poll of a completed job should not read a file. */
  readonly #findings = new LRUCache<string, StoredFinding[]>({ max: 1000 });
  readonly #creator: ReviewCreator;

  constructor(options: ReviewServiceOptions) {
    this.#o = options;
    this.#creator = new ReviewCreator(options);
  }

  /** Makes a review and queues its job (see ReviewCreator: queue_full, Idempotency-Key). */
  create(
    owner: string,
    body: CreateReviewBody,
    idempotencyKey?: string,
  ): Promise<{ job: ReviewJob; replayed: boolean }> {
    return this.#creator.create(owner, body, idempotencyKey);
  }

  /** The owner's review, or 404: another owner's review is not found, never forbidden. */
  async find(owner: string, id: string): Promise<StoredReview> {
    const review = await this.#o.store.getReview(id);
    if (!review || !ownedBy(review, owner)) throw new NotFoundError(`Review ${id}`);
    return review;
  }

  async get(owner: string, id: string): Promise<ReviewJob> {
    return this.view(await this.find(owner, id));
  }

  /** The public job, with its comments once completed. */
  async view(review: StoredReview): Promise<ReviewJob> {
    if (review.status !== 'completed') return toReviewJob(review);
    // the comments are the findings no inline comment suppressed
    return toReviewJob(
      review,
      (await this.#findingsOf(review.review_id)).filter((f) => f.suppressed === undefined),
    );
  }

  async list(owner: string, query: ListReviewsQuery): Promise<ReviewList> {
    const limit = query.limit ?? LIMITS.listDefault;
    const filter = { owner, status: query.status, repository: query.repository };
    const [page, total] = await Promise.all([
      this.#o.store.listReviews({
        ...filter,
        limit: limit + 1,
        before: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
      }),
      this.#o.store.countReviews(filter),
    ]);
    const more = page.length > limit;
    // One review whose results cannot be read is left out (and logged), not the whole page.
    const views = await Promise.allSettled(page.slice(0, limit).map((r) => this.view(r)));
    const reviews: ReviewJob[] = [];
    for (const [i, view] of views.entries()) {
      if (view.status === 'fulfilled') reviews.push(view.value);
      else
        this.#o.log?.error(
          { review_id: page[i]!.review_id, cause: causeOf(view.reason) },
          'list: left out a review whose results could not be read',
        );
    }
    return { reviews, next_cursor: more ? encodeCursor(page[limit - 1]!.review_id) : null, total };
  }

  /**
   * The owner's queued and running reviews, newest first: what an owner-wide event stream tells
   * on connect. Bounded in practice by the queue limit (maxQueuedJobs) and the workers.
   */
  async unfinishedOf(owner: string): Promise<StoredReview[]> {
    const found: StoredReview[] = [];
    for (const status of ['running', 'queued'] as const) {
      for (let before: string | undefined; ; ) {
        const page = await this.#o.store.listReviews({ owner, status, limit: UNFINISHED_PAGE, before });
        found.push(...page);
        if (page.length < UNFINISHED_PAGE) break;
        before = page.at(-1)!.review_id;
      }
    }
    return found;
  }

  async cancel(owner: string, id: string): Promise<ReviewJob> {
    const review = await this.find(owner, id);
    if (isTerminal(review)) throw notCancellable(review);
    const { store, runner, events, clock } = this.#o;
    const updated = await store.updateReview(id, {
      status: 'failed',
      error: { code: 'cancelled', message: 'The review was cancelled before it finished.' },
      updated_at: new Date(clock.now()).toISOString(),
    });
    // A store shared by instances keeps the first end: the job may have finished meanwhile elsewhere.
    if (updated.error?.code !== 'cancelled') throw notCancellable(updated);
    runner.stop(id, 'cancelled');
    events.changed(updated);
    await store.deleteDiff(id).catch(() => {});
    return this.view(updated);
  }

  async sarif(owner: string, id: string): Promise<object> {
    const review = await this.find(owner, id);
    if (review.status !== 'completed') {
      throw new ConflictError(`The review is ${review.status}; SARIF is available once it is completed.`);
    }
    const stored = await this.#findingsOf(id);
    const findings = stored.filter((f) => f.suppressed === undefined);
    const suppressed = stored.flatMap((f) => (f.suppressed === undefined ? [] : [{ ...f, suppressed: f.suppressed }]));
    // the engine (its rules, secretlint) is loaded when a SARIF is first asked for, not at start
    const { toSarif } = await import('../engine/index.ts');
    // the engine lists the findings' results, then the suppressed ones: snippets in the same order
    const sarif = toSarif({
      findings,
      suppressed,
      reviewId: id,
      repository: review.repository,
      baseCommit: review.base_commit,
      toolVersion: this.#o.version,
    });
    return addSnippets(sarif, [...findings, ...suppressed]);
  }

  /** Deletes finished reviews past retention and idempotency keys past 24 hours. */
  async sweep(): Promise<{ reviews: number; keys: number }> {
    const now = this.#o.clock.now();
    const reviews = await this.#o.store.deleteFinishedBefore(
      new Date(now - this.#o.retentionDays * 24 * HOUR_MS).toISOString(),
    );
    const keys = await this.#o.store.deleteIdempotencyBefore(
      new Date(now - LIMITS.idempotencyHours * HOUR_MS).toISOString(),
    );
    return { reviews, keys };
  }

  async #findingsOf(id: string): Promise<StoredFinding[]> {
    let findings = this.#findings.get(id);
    if (!findings) {
      findings = await this.#o.store.readFindings(id);
      this.#findings.set(id, findings);
    }
    return findings;
  }
}

const notCancellable = (review: StoredReview) =>
  new ConflictError(`The review is already ${review.status}; only queued or running reviews can be cancelled.`);

/** An error's code or name: a parse error's message quotes the file, which is not for the log. */
const causeOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code ?? (error as Error)?.name ?? 'unknown';
