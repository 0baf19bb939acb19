// Making a review: the queue_full check, the diff and record written before the job is queued,
// and Idempotency-Key (a key and the same body within 24 h answer the first review, also when
// the requests arrive together, on one instance or on several).
import { createHash } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import { InvalidRequestError, NotFoundError, QueueFullError, ReviewNotSavedError } from '../api/errors.ts';
import { LIMITS } from '../api/limits.ts';
import type { CreateReviewBody, ReviewJob } from '../api/schemas.ts';
import type { Clock } from '../clock.ts';
import type { ReviewJobRunner } from '../jobs/job-runner-contract.ts';
import type { ReviewEvents } from '../jobs/review-events.ts';
import {
  type IdempotencyRecord,
  type IdempotencyStore,
  type ReviewFileStore,
  type ReviewStore,
  StoreWriteError,
  type StoredReview,
} from '../store/types.ts';
import { toCreatedJob } from './job-view.ts';

export interface ReviewCreatorOptions {
  store: ReviewStore & ReviewFileStore & IdempotencyStore;
  runner: ReviewJobRunner;
  events: ReviewEvents;
  clock: Clock;
  /** Jobs waiting for a worker before creates are refused with 429 queue_full. */
  maxQueuedJobs: number;
}

export const HOUR_MS = 60 * 60 * 1000;
/** Strictly increasing ids, also within one millisecond: lists are newest first by id, and pages by id. */
const nextUlid = monotonicFactory();
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

export class ReviewCreator {
  readonly #o: ReviewCreatorOptions;
  /** Creates in progress per owner+key, so two concurrent requests with one key make one job. */
  readonly #creating = new Map<string, { requestHash: string; review: Promise<StoredReview> }>();
  /** Creates past the queue_full check whose jobs are not enqueued yet: they count as waiting. */
  #admitted = 0;

  constructor(options: ReviewCreatorOptions) {
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
}

function hashRequest(body: CreateReviewBody): string {
  return createHash('sha256')
    .update(JSON.stringify([body.diff, body.repository, body.base_commit ?? null]))
    .digest('hex');
}

const keyReused = (key: string) =>
  new InvalidRequestError(
    `Idempotency-Key "${key}" was already used with a different request body. Use a new key for a new review.`,
  );
