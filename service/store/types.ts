// What the service keeps (the records), and the Store: the union of the interfaces by concern
// (review-store.ts, review-file-store.ts, token-store.ts, idempotency-store.ts). The store knows
// nothing of HTTP; the lowdb implementation is the embedded default.
import type { JobErrorCode, ReviewScope, ReviewStatus } from '../api/schemas.ts';
import type { IdempotencyStore } from './idempotency-store.ts';
import type { ReviewFileStore } from './review-file-store.ts';
import type { ReviewStore } from './review-store.ts';
import type { TokenStore } from './token-store.ts';

export type { IdempotencyStore, ReviewFileStore, ReviewStore, TokenStore };

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

/** Which of an owner's reviews a list or a count is about. */
export interface ReviewFilter {
  owner: string;
  status?: ReviewStatus;
  repository?: string;
}

export interface ReviewQuery extends ReviewFilter {
  limit: number;
  /** Only reviews older than this review_id (ids sort by time). */
  before?: string;
}

/**
 * Everything the service keeps, split by concern so that each caller takes only the part it uses
 * (the lowdb store implements all of them; a PostgreSQL one will too).
 */
export interface Store extends ReviewStore, ReviewFileStore, TokenStore, IdempotencyStore {
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

/** The same write, failing with a StoreWriteError (so the client hears 503) when it fails. */
export function storeWrite<T>(write: Promise<T>): Promise<T> {
  return write.catch((error: unknown) => {
    throw new StoreWriteError(error);
  });
}
