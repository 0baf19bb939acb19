// Review jobs as the API sees them: create (with idempotency and back-pressure), read, list,
// cancel, follow, SARIF, retention. Routes call this; it calls the store and the runner.
import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import { monotonicFactory } from 'ulid';
import { LIMITS } from '../api/limits.ts';
import {
  ConflictError,
  InvalidRequestError,
  NotFoundError,
  QueueFullError,
  ReviewNotSavedError,
} from '../api/errors.ts';
import {
  REVIEW_ID,
  type CreateReviewBody,
  type ListReviewsQuery,
  type ReviewJob,
  type ReviewList,
} from '../api/schemas.ts';
import type { Clock } from '../clock.ts';
import type { ReviewJobRunner } from '../jobs/job-runner.ts';
import type { ReviewEvents } from '../jobs/review-events.ts';
import type { SyncReviewLookup } from '../store/in-memory-lookups.ts';
import { isTerminal } from '../api/review-status.ts';
import { toSarif } from '../engine/index.ts';
import type { Finding } from '../engine/types.ts';
import {
  StoreWriteError,
  type IdempotencyRecord,
  type IdempotencyStore,
  type ReviewFileStore,
  type ReviewStore,
  type StoredReview,
} from '../store/types.ts';
import { toCreatedJob, toReviewJob } from './job-view.ts';
import { ownedBy } from './ownership.ts';

export interface ReviewServiceOptions {
  store: ReviewStore & ReviewFileStore & IdempotencyStore;
  /** The store's synchronous lookup, where it has one (see peek). */
  atHand?: SyncReviewLookup;
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

const HOUR_MS = 60 * 60 * 1000;
/** Strictly increasing ids, also within one millisecond: lists are newest first by id, and pages by id. */
const nextUlid = monotonicFactory();
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export class ReviewService {
  readonly #o: ReviewServiceOptions;
  /** Findings of recently read reviews: a poll of a completed job should not read a file. */
  readonly #findings = new LRUCache<string, Finding[]>({ max: 1000 });
  /** Creates in progress per owner+key, so two concurrent requests with one key make one job. */
  readonly #creating = new Map<string, { requestHash: string; review: Promise<StoredReview> }>();
  /** Creates past the queue_full check whose jobs are not enqueued yet: they count as waiting. */
  #admitted = 0;

  constructor(options: ReviewServiceOptions) {
    this.#o = options;
  }

  async create(
    owner: string,
    body: CreateReviewBody,
    idempotencyKey?: string,
  ): Promise<{ job: ReviewJob; replayed: boolean }> {
    if (idempotencyKey === undefined) {
      return { job: toCreatedJob((await this.#create(owner, body)) as StoredReview), replayed: false };
    }
    if (!IDEMPOTENCY_KEY.test(idempotencyKey)) {
      throw new InvalidRequestError(
        'Idempotency-Key must be 1–255 printable ASCII characters without spaces (a UUID is a good choice).',
      );
    }
    const requestHash = hashRequest(body);
    const slot = `${owner}\u0000${idempotencyKey}`;
    const pending = this.#joinCreating(slot, requestHash, idempotencyKey);
    if (pending) return pending;
    const earlier = await this.#o.store.getIdempotency(owner, idempotencyKey);
    if (earlier && Date.parse(earlier.created_at) > this.#o.clock.now() - LIMITS.idempotencyHours * HOUR_MS) {
      const review = await this.#o.store.getReview(earlier.review_id);
      if (review) {
        if (earlier.request_hash !== requestHash) throw keyReused(idempotencyKey);
        return { job: toCreatedJob(review), replayed: true };
      }
    }
    // Asked again after the lookups: a store that answers them over the network (PostgreSQL)
    // lets concurrent requests with the key all get here, and the first of them is creating now.
    const started = this.#joinCreating(slot, requestHash, idempotencyKey);
    if (started) return started;
    // Another instance may hold the key meanwhile (a shared store claims it atomically): its review answers.
    const creating = this.#create(owner, body, { key: idempotencyKey, requestHash }).then(async (made) =>
      'heldBy' in made
        ? { review: await this.#earlier(made.heldBy, requestHash, idempotencyKey), replayed: true }
        : { review: made, replayed: false },
    );
    const review = creating.then((made) => made.review);
    review.catch(() => {}); // a failure reaches the joiners (if any) and this caller, not the process
    this.#creating.set(slot, { requestHash, review });
    try {
      const made = await creating;
      return { job: toCreatedJob(made.review), replayed: made.replayed };
    } finally {
      this.#creating.delete(slot);
    }
  }

  /** The review an earlier create with the key made (or a refusal when the bodies differ). */
  async #earlier(record: IdempotencyRecord, requestHash: string, key: string): Promise<StoredReview> {
    if (record.request_hash !== requestHash) throw keyReused(key);
    const review = await this.#o.store.getReview(record.review_id);
    // Written in one transaction with its key, so it is there unless retention removed it.
    if (!review) throw new NotFoundError(`Review ${record.review_id}`);
    return review;
  }

  /** The create in progress with this key, as a replay (or a refusal when the bodies differ). */
  #joinCreating(
    slot: string,
    requestHash: string,
    key: string,
  ): Promise<{ job: ReviewJob; replayed: boolean }> | undefined {
    const pending = this.#creating.get(slot);
    if (!pending) return undefined;
    if (pending.requestHash !== requestHash) throw keyReused(key);
    return pending.review.then((review) => ({ job: toCreatedJob(review), replayed: true }));
  }

  async #create(
    owner: string,
    body: CreateReviewBody,
    idempotency?: { key: string; requestHash: string },
  ): Promise<StoredReview | { heldBy: IdempotencyRecord }> {
    const { runner } = this.#o;
    // Checked and reserved in one step: a burst of concurrent creates all see the queue before
    // any of them is enqueued (the store writes come in between), so each one holds a place.
    if (runner.backlog + this.#admitted >= this.#o.maxQueuedJobs) {
      throw new QueueFullError(runner.backlog + this.#admitted);
    }
    this.#admitted++;
    try {
      return await this.#admit(owner, body, idempotency);
    } finally {
      this.#admitted--;
    }
  }

  async #admit(
    owner: string,
    body: CreateReviewBody,
    idempotency?: { key: string; requestHash: string },
  ): Promise<StoredReview | { heldBy: IdempotencyRecord }> {
    const { store, runner, clock, events } = this.#o;
    const now = clock.now();
    const at = new Date(now).toISOString();
    const review: StoredReview = {
      review_id: `rev_${nextUlid(now)}`,
      owner,
      status: 'queued',
      repository: body.repository,
      created_at: at,
      updated_at: at,
      attempts: 0,
    };
    if (body.base_commit !== undefined) review.base_commit = body.base_commit;
    try {
      // The diff first: a record is never without its diff (a crash in between leaves an orphan file).
      await store.writeDiff(review.review_id, body.diff);
      const record = idempotency && {
        owner,
        key: idempotency.key,
        request_hash: idempotency.requestHash,
        review_id: review.review_id,
        created_at: at,
      };
      if (record && store.insertReviewWithKey) {
        const liveSince = new Date(now - LIMITS.idempotencyHours * HOUR_MS).toISOString();
        const heldBy = await store.insertReviewWithKey(review, record, liveSince);
        if (heldBy) {
          await store.deleteDiff(review.review_id).catch(() => {});
          return { heldBy };
        }
      } else {
        await Promise.all([store.insertReview(review), record && store.putIdempotency(record)]);
      }
    } catch (error) {
      await store.deleteDiff(review.review_id).catch(() => {});
      // (an atomic claim wrote nothing when it failed: the key may be another create's by now)
      if (idempotency && !store.insertReviewWithKey)
        await store.deleteIdempotency(owner, idempotency.key).catch(() => {});
      if (error instanceof StoreWriteError) {
        throw new ReviewNotSavedError(error.message, { cause: error });
      }
      throw error;
    }
    try {
      await runner.enqueue(review.review_id);
    } catch (error) {
      // The review ended failed without running: a retry with the key must make a new one, not replay it.
      if (idempotency) await store.deleteIdempotency(owner, idempotency.key).catch(() => {});
      throw error;
    }
    events.changed(review);
    return review;
  }

  /** The owner's review, or 404: another owner's review is not found, never forbidden. */
  async find(owner: string, id: string): Promise<StoredReview> {
    const review = await this.#o.store.getReview(id);
    if (!review || !ownedBy(review, owner)) throw new NotFoundError(`Review ${id}`);
    return review;
  }

  /**
   * The review if the store has it at hand (in memory), whoever owns it, without a promise:
   * undefined means "not at hand" (find() knows), not "absent". The caller checks ownedBy().
   */
  peek(id: string): StoredReview | undefined {
    return this.#o.atHand?.peekReview(id);
  }

  async get(owner: string, id: string): Promise<ReviewJob> {
    return this.view(await this.find(owner, id));
  }

  /** The public job, with its comments once completed. */
  async view(review: StoredReview): Promise<ReviewJob> {
    return toReviewJob(review, review.status === 'completed' ? await this.#findingsOf(review.review_id) : undefined);
  }

  async list(owner: string, query: ListReviewsQuery): Promise<ReviewList> {
    const limit = query.limit ?? LIMITS.listDefault;
    const page = await this.#o.store.listReviews({
      owner,
      status: query.status,
      repository: query.repository,
      limit: limit + 1,
      before: query.cursor === undefined ? undefined : decodeCursor(query.cursor),
    });
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
    return { reviews, next_cursor: more ? encodeCursor(page[limit - 1]!.review_id) : null };
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
    return toSarif({
      findings: await this.#findingsOf(id),
      reviewId: id,
      repository: review.repository,
      baseCommit: review.base_commit,
      toolVersion: this.#o.version,
    });
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

  async #findingsOf(id: string): Promise<Finding[]> {
    let findings = this.#findings.get(id);
    if (!findings) {
      findings = await this.#o.store.readFindings(id);
      this.#findings.set(id, findings);
    }
    return findings;
  }
}

function hashRequest(body: CreateReviewBody): string {
  return createHash('sha256')
    .update(JSON.stringify([body.diff, body.repository, body.base_commit ?? null]))
    .digest('hex');
}

const notCancellable = (review: StoredReview) =>
  new ConflictError(`The review is already ${review.status}; only queued or running reviews can be cancelled.`);

const keyReused = (key: string) =>
  new InvalidRequestError(
    `Idempotency-Key "${key}" was already used with a different request body. Use a new key for a new review.`,
  );

/** An error's code or name: a parse error's message quotes the file, which is not for the log. */
const causeOf = (error: unknown) => (error as NodeJS.ErrnoException)?.code ?? (error as Error)?.name ?? 'unknown';

const encodeCursor = (reviewId: string) => Buffer.from(reviewId, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!REVIEW_ID.test(id))
    throw new InvalidRequestError('cursor is not valid: pass the next_cursor of the previous page unchanged.');
  return id;
}
