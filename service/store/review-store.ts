// Reviews: the jobs' records (status, timestamps, owner), listed newest first and paged by id.
import type { ReviewFilter, ReviewQuery, StoredReview } from './types.ts';

/**
 * What every store guarantees, whatever it keeps where (the callers rely on it; each rule is tested
 * for every store in test/service/store/store-contract.ts):
 *
 * 1. **A review's first end wins.** Once a review is completed or failed (a cancel is a failure), a
 *    patch that sets a status changes nothing of it: updateReview answers the review as it is. So a
 *    late result after a cancel, a cancel after the end, a second delivery of a job or a requeue at
 *    shutdown never ends it again nor moves it back to queued or running, whoever writes first. A
 *    patch without a status still applies (the service sends none to an ended review).
 * 2. **The live record wins over any copy of it.** A store may keep a second copy of a review (lowdb:
 *    the archive beside its document; PostgreSQL: the finished reviews it keeps at hand). getReview,
 *    listReviews and countReviews answer each review as the last write through this store left it,
 *    changed or deleted, also when the write came while the store was moving the review elsewhere,
 *    and list and count it once.
 */
export interface ReviewStore {
  insertReview(review: StoredReview): Promise<void>;
  getReview(id: string): Promise<StoredReview | undefined>;
  /**
   * Applies the patch (an undefined field is removed) and answers the review as it now is; an ended
   * review and a patch with a status: the review as it was (1 above). Rejects for an unknown id.
   */
  updateReview(id: string, patch: Partial<StoredReview>): Promise<StoredReview>;
  /** Newest first. */
  listReviews(query: ReviewQuery): Promise<StoredReview[]>;
  /** How many reviews the filter matches, every page together (without reading them). */
  countReviews(filter: ReviewFilter): Promise<number>;
  /** Reviews that are queued or running, oldest first: the work to resume on start. */
  unfinishedReviews(): Promise<StoredReview[]>;
  /** Finished reviews whose last update is older than the date, with their files. */
  deleteFinishedBefore(date: string): Promise<number>;
  /**
   * For a store shared by several instances: true for the one instance that should run `task` now,
   * the first to ask once `periodMs` has passed since the last run (at `now`); false for the others.
   * A store of one process has no such method: its process runs every task.
   */
  claimPeriodicTask?(task: string, periodMs: number, now: string): Promise<boolean>;
}
