// Reviews: the jobs' records (status, timestamps, owner), listed newest first and paged by id.
import type { ReviewFilter, ReviewQuery, StoredReview } from './types.ts';

export interface ReviewStore {
  insertReview(review: StoredReview): Promise<void>;
  getReview(id: string): Promise<StoredReview | undefined>;
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
