// Lookups answered without a promise, by a store that holds the records in memory (lowdb's). The
// hottest requests use them where they are given (a poll of a finished review, every token check);
// a store over a database (PostgreSQL) does not implement them, and is read through its async
// interfaces alone, with the same answers.
import type { StoredReview, StoredToken } from './types.ts';

export interface SyncReviewLookup {
  /**
   * The review if it is at hand now, whoever owns it. undefined means "not at hand", not "absent":
   * ReviewStore.getReview knows.
   */
  peekReview(id: string): StoredReview | undefined;
}

export interface SyncTokenLookup {
  /** TokenStore.getTokenByHash without a promise. Final: undefined is an unknown token. */
  getTokenByHashSync(hash: string): StoredToken | undefined;
}

/** Both lookups, as a store that holds everything in memory offers them. */
export interface InMemoryLookups extends SyncReviewLookup, SyncTokenLookup {}
