// The lowdb document (store.json): its shape, and reading it so that a damaged file is reported,
// never silently replaced by an empty one. What the store does with a missing or empty one is
// decided in lowdb-store.ts (it depends on what else the data dir holds).
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import Type from 'typebox';
import { Compile } from 'typebox/compile';
import { JobErrorCode, REVIEW_ID_PATTERN, ReviewStatus } from '../api/schemas.ts';
import { atomicWrite } from './review-files.ts';
import type { IdempotencyRecord, StoredReview, StoredToken } from './types.ts';

export const STORE_FILE = 'store.json';

export interface StoreDocument {
  version: 1;
  /**
   * Unfinished reviews and the most recent finished ones, in review_id order (ids sort by creation
   * time). Older finished ones are in the archive; where a review is in both, this one wins.
   */
  reviews: StoredReview[];
  tokens: StoredToken[];
  /** Only in a document of an earlier layout: the store moves them to its idempotency log on open. */
  idempotency?: IdempotencyRecord[];
}

export const emptyDocument = (): StoreDocument => ({ version: 1, reviews: [], tokens: [] });

// What the store relies on when it reads the document back; other properties are let through.
const Text = Type.String();
const StoredReviewShape = Type.Object({
  review_id: Type.String({ pattern: REVIEW_ID_PATTERN }),
  owner: Text,
  status: ReviewStatus,
  repository: Text,
  base_commit: Type.Optional(Text),
  created_at: Text,
  updated_at: Text,
  started_at: Type.Optional(Text),
  completed_at: Type.Optional(Text),
  error: Type.Optional(Type.Object({ code: JobErrorCode, message: Text })),
  attempts: Type.Number(),
});
const StoredTokenShape = Type.Object({
  id: Text,
  owner: Text,
  type: Type.Union([Type.Literal('review'), Type.Literal('dashboard')]),
  name: Text,
  scopes: Type.Array(Text),
  prefix: Text,
  hash: Text,
  created_at: Text,
  expires_at: Type.Union([Text, Type.Null()]),
  last_used_at: Type.Union([Text, Type.Null()]),
  revoked_at: Type.Optional(Text),
});
const IdempotencyShape = Type.Object({ owner: Text, key: Text, request_hash: Text, review_id: Text, created_at: Text });
const DocumentShape = Compile(
  Type.Object({
    version: Type.Literal(1),
    reviews: Type.Array(StoredReviewShape),
    tokens: Type.Array(StoredTokenShape),
    idempotency: Type.Optional(Type.Array(IdempotencyShape)),
  }),
);
const ReviewShape = Compile(StoredReviewShape);

/** True for a value that has the shape of a stored review (an archive line, say). */
export const isStoredReview = (value: unknown): value is StoredReview => ReviewShape.Check(value);

export class StoreFileCorruptError extends Error {
  constructor(file: string, cause: unknown) {
    super(
      `The store file ${file} is not valid JSON (${(cause as Error).message}). ` +
        'It was not changed. Restore it from a backup, or move it away to start with an empty store.',
      { cause },
    );
    this.name = 'StoreFileCorruptError';
  }
}

export class StoreFileDamagedError extends Error {
  constructor(file: string, problems: string[]) {
    super(
      `The store file ${file} is valid JSON but not a Diff Review store (${problems.join('; ')}). ` +
        'It was not changed. Restore it from a backup; or, to start afresh and give up what it held, ' +
        'move the whole data dir away (or choose another with --data-dir).',
    );
    this.name = 'StoreFileDamagedError';
  }
}

export class StoreFileMissingError extends Error {
  constructor(file: string, found: 'missing' | 'empty', holds: string) {
    super(
      `The store file ${file} is ${found}, but the data dir still holds ${holds}: starting with an empty store ` +
        'would lose every review, queued job and token it listed. Nothing was changed. Restore it from a backup; ' +
        'or, to start afresh and give up that data, move the whole data dir away (or choose another with --data-dir).',
    );
    this.name = 'StoreFileMissingError';
  }
}

/**
 * What the file holds: 'missing' (no file), 'empty' (nothing, `{}`, `[]` or `null`: no store in
 * it), or the document, checked against its shape (a damaged one throws, saying where).
 */
export async function readStoreDocument(file: string): Promise<StoreDocument | 'missing' | 'empty'> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw error;
  }
  if (text.trim() === '') return 'empty';
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new StoreFileCorruptError(file, error);
  }
  if (value === null || (typeof value === 'object' && Object.keys(value).length === 0)) return 'empty';
  if (!DocumentShape.Check(value)) {
    const problems = [...DocumentShape.Errors(value)].slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`);
    throw new StoreFileDamagedError(file, problems);
  }
  return value as StoreDocument;
}

/**
 * lowdb over the file, starting from `initial`. Each write replaces the file whole, atomically,
 * mode 0600 (lowdb's own adapter follows the umask). As steno does for lowdb: one write at a time,
 * and of the writes asked for meanwhile only the latest is done (each one's promise resolves then).
 */
export function documentDb(file: string, initial: StoreDocument): Low<StoreDocument> {
  let current: Promise<void> | null = null;
  let next: { text: string; done: Promise<void> } | null = null;
  // lowdb's own temp file name: one write at a time, so one name serves.
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  const start = (text: string): Promise<void> =>
    (current = atomicWrite(file, text, 0o600, temp).finally(() => {
      current = null;
    }));
  const adapter = {
    read: async () => null,
    write(data: StoreDocument): Promise<void> {
      // Compact JSON, taken now (the document changes after this call): it is rewritten whole every time.
      const text = JSON.stringify(data);
      if (current === null) return start(text);
      if (next !== null) {
        next.text = text;
        return next.done;
      }
      const queued: { text: string; done: Promise<void> } = { text, done: Promise.resolve() };
      queued.done = current
        .catch(() => {})
        .then(() => {
          next = null;
          return start(queued.text);
        });
      next = queued;
      return queued.done;
    },
  };
  return new Low(adapter, initial);
}
