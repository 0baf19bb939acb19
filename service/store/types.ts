// What the service keeps, and the Store interface over it. The store knows nothing of HTTP;
// the lowdb implementation is the embedded default (a PostgreSQL one can follow the same interface).
import type { JobErrorCode, ReviewScope, ReviewStatus } from '../api/schemas.ts';
import type { Finding } from '../engine/types.ts';

export interface StoredReview {
  review_id: string;
  owner: string;
  status: ReviewStatus;
  repository: string;
  base_commit?: string;
  created_at: string;
  updated_at: string;
  started_at?: string;
  completed_at?: string;
  error?: { code: JobErrorCode; message: string };
  /** How many times a worker picked the job up (restarts re-run unfinished jobs). */
  attempts: number;
}

export type TokenType = 'review' | 'dashboard';
export type Scope = ReviewScope | 'tokens:read' | 'tokens:write';

export interface StoredToken {
  id: string;
  owner: string;
  type: TokenType;
  name: string;
  scopes: Scope[];
  prefix: string;
  /** SHA-256 of the secret, hex. The secret itself is never stored. */
  hash: string;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at?: string;
}

export interface IdempotencyRecord {
  owner: string;
  key: string;
  /** SHA-256 of the request body's fields, to tell a replay from a reuse of the key. */
  request_hash: string;
  review_id: string;
  created_at: string;
}

export interface ReviewQuery {
  owner: string;
  status?: ReviewStatus;
  repository?: string;
  limit: number;
  /** Only reviews older than this review_id (ids sort by time). */
  before?: string;
}

export interface Store {
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

  writeDiff(id: string, diff: string): Promise<void>;
  readDiff(id: string): Promise<string>;
  /** Where the diff is on disk, for a store that keeps it in a file (the worker reads it there). */
  diffFile?(id: string): string;
  deleteDiff(id: string): Promise<void>;
  writeFindings(id: string, findings: Finding[]): Promise<void>;
  readFindings(id: string): Promise<Finding[]>;

  insertToken(token: StoredToken): Promise<void>;
  getTokenByHash(hash: string): Promise<StoredToken | undefined>;
  /**
   * Optional, for a store that holds every token in memory: getTokenByHash without a promise (every
   * authenticated request looks its token up). Its answer is final: undefined is an unknown token.
   */
  getTokenByHashSync?(hash: string): StoredToken | undefined;
  getToken(id: string): Promise<StoredToken | undefined>;
  /** Not revoked, newest first. */
  listTokens(owner: string, type: TokenType): Promise<StoredToken[]>;
  updateToken(id: string, patch: Partial<StoredToken>): Promise<void>;
  /** Best-effort, coalesced: last_used_at is not worth a write per request. */
  touchToken(id: string, at: string): void;

  getIdempotency(owner: string, key: string): Promise<IdempotencyRecord | undefined>;
  putIdempotency(record: IdempotencyRecord): Promise<void>;
  deleteIdempotency(owner: string, key: string): Promise<void>;
  deleteIdempotencyBefore(date: string): Promise<number>;

  /** Writes what is pending and releases the files. */
  close(): Promise<void>;
}

/** The store could not persist a change (disk full, read-only, permissions). Answered 503. */
export class StoreWriteError extends Error {
  constructor(cause: unknown) {
    super(`the data store could not be written: ${(cause as NodeJS.ErrnoException)?.code ?? String(cause)}`, { cause });
    this.name = 'StoreWriteError';
  }
}
