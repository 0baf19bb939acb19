// Rows of the PostgreSQL tables as the store's records and back. Timestamps are timestamptz(3) in
// the database (they sort and compare as times) and ISO strings with milliseconds in the records.
import type { JobErrorCode, ReviewStatus } from '../../api/schemas.ts';
import type { IdempotencyRecord, StoredReview, StoredToken } from '../types.ts';

export interface ReviewRow {
  review_id: string;
  owner: string;
  status: ReviewStatus;
  repository: string;
  base_commit: string | null;
  created_at: Date;
  updated_at: Date;
  started_at: Date | null;
  completed_at: Date | null;
  error_code: JobErrorCode | null;
  error_message: string | null;
  attempts: number;
}

/** A token's row: the record, with its times as the driver reads timestamptz. */
export type TokenRow = Omit<StoredToken, 'created_at' | 'expires_at' | 'last_used_at' | 'revoked_at'> & {
  created_at: Date;
  expires_at: Date | null;
  last_used_at: Date | null;
  revoked_at: Date | null;
};

export interface IdempotencyRow {
  owner: string;
  key: string;
  request_hash: string;
  review_id: string;
  created_at: Date;
}

const iso = (date: Date) => date.toISOString();
const isoOrNull = (date: Date | null) => (date === null ? null : date.toISOString());

/** Optional fields that do not apply are absent from a record, never null or undefined. */
export function toStoredReview(row: ReviewRow): StoredReview {
  const review: StoredReview = {
    review_id: row.review_id,
    owner: row.owner,
    status: row.status,
    repository: row.repository,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    attempts: row.attempts,
  };
  if (row.base_commit !== null) review.base_commit = row.base_commit;
  if (row.started_at !== null) review.started_at = iso(row.started_at);
  if (row.completed_at !== null) review.completed_at = iso(row.completed_at);
  if (row.error_code !== null) review.error = { code: row.error_code, message: row.error_message ?? '' };
  return review;
}

/** The columns a review patch sets, and their values (undefined in the patch clears a column). */
export function reviewPatchColumns(patch: Partial<StoredReview>): [column: string, value: unknown][] {
  const columns: [string, unknown][] = [];
  for (const [field, value] of Object.entries(patch) as [keyof StoredReview, unknown][]) {
    if (field === 'review_id') continue; // the key, never changed
    if (field === 'error') {
      const error = value as StoredReview['error'];
      columns.push(['error_code', error?.code ?? null], ['error_message', error?.message ?? null]);
    } else if (field === 'attempts') {
      columns.push(['attempts', value ?? 0]);
    } else {
      columns.push([REVIEW_COLUMNS[field], value ?? null]);
    }
  }
  return columns;
}

/** Record fields and their columns (one list, so no patch can name a column that is not one). */
const REVIEW_COLUMNS: Record<Exclude<keyof StoredReview, 'review_id' | 'error' | 'attempts'>, string> = {
  owner: 'owner',
  status: 'status',
  repository: 'repository',
  base_commit: 'base_commit',
  created_at: 'created_at',
  updated_at: 'updated_at',
  started_at: 'started_at',
  completed_at: 'completed_at',
};

export function toStoredToken(row: TokenRow): StoredToken {
  const token: StoredToken = {
    id: row.id,
    owner: row.owner,
    type: row.type,
    name: row.name,
    scopes: row.scopes,
    prefix: row.prefix,
    hash: row.hash,
    created_at: iso(row.created_at),
    expires_at: isoOrNull(row.expires_at),
    last_used_at: isoOrNull(row.last_used_at),
  };
  if (row.revoked_at !== null) token.revoked_at = iso(row.revoked_at);
  return token;
}

/** Token fields and their columns: the same names, checked against the record's type. */
export const TOKEN_COLUMNS: readonly (keyof StoredToken)[] = [
  'id',
  'owner',
  'type',
  'name',
  'scopes',
  'prefix',
  'hash',
  'created_at',
  'expires_at',
  'last_used_at',
  'revoked_at',
];

export function toIdempotencyRecord(row: IdempotencyRow): IdempotencyRecord {
  return {
    owner: row.owner,
    key: row.key,
    request_hash: row.request_hash,
    review_id: row.review_id,
    created_at: iso(row.created_at),
  };
}

/** A review record as a new row: the statement and its values. */
export const INSERT_REVIEW = `INSERT INTO reviews (review_id, owner, status, repository, base_commit, created_at, updated_at, started_at, completed_at, error_code, error_message, attempts)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`;

export const reviewValues = (review: StoredReview) => [
  review.review_id,
  review.owner,
  review.status,
  review.repository,
  review.base_commit ?? null,
  review.created_at,
  review.updated_at,
  review.started_at ?? null,
  review.completed_at ?? null,
  review.error?.code ?? null,
  review.error?.message ?? null,
  review.attempts,
];
