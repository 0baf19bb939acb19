// The lowdb document (store.json): its shape, and reading it so that a damaged file is reported,
// never silently replaced by an empty one.
import { readFile } from 'node:fs/promises';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
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

/** The document in the file, or undefined when there is no file. */
export async function readStoreDocument(file: string): Promise<StoreDocument | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    return { ...emptyDocument(), ...(JSON.parse(text) as StoreDocument) };
  } catch (error) {
    throw new StoreFileCorruptError(file, error);
  }
}

/** lowdb over the file, starting from `initial`. */
export function documentDb(file: string, initial: StoreDocument): Low<StoreDocument> {
  // Compact JSON: the document is rewritten whole on every write, so every byte counts.
  const adapter = new DataFile<StoreDocument>(file, { parse: JSON.parse, stringify: (d) => JSON.stringify(d) });
  return new Low(adapter, initial);
}
