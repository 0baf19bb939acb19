// Reviews: the jobs' records (status, timestamps, owner), listed newest first and paged by id.
import type { ReviewQuery, StoredReview } from './types.ts';

export interface ReviewStore {
  insertReview(review: StoredReview): Promise<void>;
  getReview(id: string): Promise<StoredReview | undefined>;
  /**
   * Optional, for a store that holds reviews in memory: the review if it is at hand now, without
   * a promise (a poll is the hottest request). undefined means "not at hand", not "absent": ask
   * getReview. A store without it (one over a database) is read through getReview alone.
   */
  peekReview?(id: string): StoredReview | undefined;
  updateReview(id: string, patch: Partial<StoredReview>): Promise<StoredReview>;
  /** Newest first. */
  listReviews(query: ReviewQuery): Promise<StoredReview[]>;
  /** Reviews that are queued or running, oldest first: the work to resume on start. */
  unfinishedReviews(): Promise<StoredReview[]>;
  /** Finished reviews whose last update is older than the date, with their files. */
  deleteFinishedBefore(date: string): Promise<number>;
}
