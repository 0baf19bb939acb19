// The embedded store: one lowdb JSON document for tokens, idempotency keys, unfinished jobs and
// the most recent finished ones; older finished jobs in append-only segments beside it (they no
// longer change); in-memory indexes over both; the bulky parts (diffs, findings) in files of their
// own. lowdb rewrites the whole document on every write, so the document is kept small: with every
// job in it, a create at 100,000 stored reviews took 400 ms (test/bench/store-scale.ts).
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { Finding } from '../review/types.ts';
import { ReviewArchive } from './review-archive.ts';
import { ReviewFiles } from './review-files.ts';
import {
  StoreWriteError,
  type IdempotencyRecord,
  type ReviewQuery,
  type Store,
  type StoredReview,
  type StoredToken,
  type TokenType,
} from './types.ts';

interface StoreDocument {
  version: 1;
  /**
   * Unfinished reviews and the most recent finished ones, in review_id order (ids sort by creation
   * time). Older finished ones are in the archive; where a review is in both, this one wins.
   */
  reviews: StoredReview[];
  tokens: StoredToken[];
  idempotency: IdempotencyRecord[];
}

const emptyDocument = (): StoreDocument => ({ version: 1, reviews: [], tokens: [], idempotency: [] });
const TOUCH_FLUSH_MS = 2000;
/** Finished reviews the document may hold before the oldest of them move to the archive... */
const ARCHIVE_ABOVE = 400;
/** ...keeping this many of the newest in the document. */
const KEEP_FINISHED = 200;
const isFinished = (r: StoredReview) => r.status === 'completed' || r.status === 'failed';

export const STORE_FILE = 'store.json';

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

export class LowdbStore implements Store {
  readonly #db: Low<StoreDocument>;
  readonly #files: ReviewFiles;
  readonly #archive: ReviewArchive;
  /** Every review, document and archive. */
  readonly #reviews = new Map<string, StoredReview>();
  /** Every review in review_id order: listing walks it from the end. */
  #ordered: StoredReview[] = [];
  /** The ids of the reviews in the document; the others are in the archive only. */
  readonly #inDoc = new Set<string>();
  #archiving: Promise<void> | null = null;
  #sweeping = false;
  readonly #tokensByHash = new Map<string, StoredToken>();
  readonly #tokensById = new Map<string, StoredToken>();
  readonly #idempotency = new Map<string, IdempotencyRecord>();
  #pendingWrite: Promise<void> | null = null;
  #touchTimer: NodeJS.Timeout | null = null;

  private constructor(db: Low<StoreDocument>, files: ReviewFiles, archive: ReviewArchive) {
    this.#db = db;
    this.#files = files;
    this.#archive = archive;
  }

  static async open(dataDir: string): Promise<LowdbStore> {
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    const file = path.join(dataDir, STORE_FILE);
    // Parse ourselves first so a damaged file is reported, never silently replaced by an empty one.
    let initial = emptyDocument();
    try {
      const text = await readFile(file, 'utf8');
      try {
        initial = { ...emptyDocument(), ...(JSON.parse(text) as StoreDocument) };
      } catch (error) {
        throw new StoreFileCorruptError(file, error);
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // Compact JSON: the document is rewritten whole on every write, so every byte counts.
    const adapter = new DataFile<StoreDocument>(file, { parse: JSON.parse, stringify: (d) => JSON.stringify(d) });
    const db = new Low(adapter, initial);
    const files = new ReviewFiles(dataDir);
    await files.init();
    const archive = new ReviewArchive(dataDir);
    const store = new LowdbStore(db, files, archive);
    // 100,000 archived reviews take ~30 MB in memory: the values many of them share are kept once.
    const shared = new Map<string, string>();
    const once = (value: string) => {
      let kept = shared.get(value);
      if (kept === undefined) shared.set(value, (kept = value));
      return kept;
    };
    await archive.load((review) => {
      review.owner = once(review.owner);
      review.repository = once(review.repository);
      review.status = once(review.status) as StoredReview['status'];
      if (review.base_commit !== undefined) review.base_commit = once(review.base_commit);
      store.#reviews.set(review.review_id, review);
    });
    store.#index();
    return store;
  }

  #index() {
    const data = this.#db.data;
    for (const review of data.reviews) {
      this.#reviews.set(review.review_id, review); // the document wins over the archive
      this.#inDoc.add(review.review_id);
    }
    this.#ordered = [...this.#reviews.values()].sort(byId);
    for (const token of data.tokens) this.#indexToken(token);
    for (const record of data.idempotency) this.#idempotency.set(idemKey(record.owner, record.key), record);
  }

  #indexToken(token: StoredToken) {
    this.#tokensByHash.set(token.hash, token);
    this.#tokensById.set(token.id, token);
  }

  /**
   * Persists every change made before the call. Calls in the same tick share one write (one
   * serialization of the document), and steno queues a write that starts while one is running.
   */
  #persist(): Promise<void> {
    this.#pendingWrite ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      this.#pendingWrite = null;
      await this.#archiveOld();
      return this.#db.write();
    });
    return this.#pendingWrite.catch((error: unknown) => {
      throw new StoreWriteError(error);
    });
  }

  /**
   * Moves the oldest finished reviews of the document to the archive once it holds more than
   * ARCHIVE_ABOVE of them. They are appended to the archive before the document forgets them, so
   * a crash in between leaves them in both (the document's copy wins), never in neither.
   */
  async #archiveOld(): Promise<void> {
    if (this.#archiving || this.#sweeping) return;
    const finished = this.#db.data.reviews.filter(isFinished);
    if (finished.length <= ARCHIVE_ABOVE) return;
    const moving = finished.slice(0, finished.length - KEEP_FINISHED);
    const snapshot = moving.map((r) => JSON.stringify(r));
    this.#archiving = this.#archive.append(moving).then(
      () => {
        // Only those unchanged since they were appended leave the document.
        const moved = new Set(moving.filter((r, i) => JSON.stringify(r) === snapshot[i]));
        this.#db.data.reviews = this.#db.data.reviews.filter((r) => !moved.has(r));
        for (const r of moved) this.#inDoc.delete(r.review_id);
      },
      () => {}, // they stay in the document; the next write tries again
    );
    try {
      await this.#archiving;
    } finally {
      this.#archiving = null;
    }
  }

  async insertReview(review: StoredReview) {
    // Kept in id (= time) order, which listing and paging rely on, even when concurrent creates
    // arrive here out of order (their diff writes finish in any order). Nearly always an append.
    insertInOrder(this.#db.data.reviews, review);
    insertInOrder(this.#ordered, review);
    this.#reviews.set(review.review_id, review);
    this.#inDoc.add(review.review_id);
    try {
      await this.#persist();
    } catch (error) {
      // Not durable, so not acknowledged: take it back out.
      this.#reviews.delete(review.review_id);
      this.#inDoc.delete(review.review_id);
      removeFrom(this.#db.data.reviews, review);
      removeFrom(this.#ordered, review);
      throw error;
    }
  }

  async getReview(id: string) {
    return this.#reviews.get(id);
  }

  async updateReview(id: string, patch: Partial<StoredReview>) {
    const review = this.#reviews.get(id);
    if (!review) throw new Error(`no review ${id}`);
    // An archived review that changes again comes back to the document, whose copy wins.
    if (!this.#inDoc.has(id)) {
      insertInOrder(this.#db.data.reviews, review);
      this.#inDoc.add(id);
    }
    Object.assign(review, patch);
    for (const key of Object.keys(patch) as (keyof StoredReview)[]) {
      if (patch[key] === undefined) delete review[key];
    }
    await this.#persist();
    return review;
  }

  async listReviews(query: ReviewQuery) {
    const list = this.#ordered;
    const page: StoredReview[] = [];
    for (let i = list.length - 1; i >= 0 && page.length < query.limit; i--) {
      const review = list[i]!;
      if (query.before !== undefined && review.review_id >= query.before) continue;
      if (review.owner !== query.owner) continue;
      if (query.status !== undefined && review.status !== query.status) continue;
      if (query.repository !== undefined && review.repository !== query.repository) continue;
      page.push(review);
    }
    return page;
  }

  async unfinishedReviews() {
    return this.#db.data.reviews.filter((r) => r.status === 'queued' || r.status === 'running');
  }

  async deleteFinishedBefore(date: string) {
    while (this.#archiving) await this.#archiving;
    this.#sweeping = true;
    try {
      const doomed = this.#ordered.filter((r) => isFinished(r) && r.updated_at < date);
      if (doomed.length === 0) return 0;
      const ids = new Set(doomed.map((r) => r.review_id));
      this.#db.data.reviews = this.#db.data.reviews.filter((r) => !ids.has(r.review_id));
      this.#ordered = this.#ordered.filter((r) => !ids.has(r.review_id));
      for (const id of ids) {
        this.#reviews.delete(id);
        this.#inDoc.delete(id);
      }
      await this.#persist();
      // The archive and the files go after the document: a crash in between leaves records that
      // the next sweep removes, or orphan files, never records without their files.
      await this.#archive.deleteBefore(date, ids);
      await Promise.all([...ids].map((id) => this.#files.deleteAll(id)));
      return ids.size;
    } finally {
      this.#sweeping = false;
    }
  }

  writeDiff(id: string, diff: string) {
    return this.#files.writeDiff(id, diff).catch((error: unknown) => {
      throw new StoreWriteError(error);
    });
  }
  readDiff(id: string) {
    return this.#files.readDiff(id);
  }
  diffFile(id: string) {
    return this.#files.diffFile(id);
  }
  deleteDiff(id: string) {
    return this.#files.deleteDiff(id);
  }
  writeFindings(id: string, findings: Finding[]) {
    return this.#files.writeFindings(id, findings).catch((error: unknown) => {
      throw new StoreWriteError(error);
    });
  }
  readFindings(id: string) {
    return this.#files.readFindings(id);
  }

  async insertToken(token: StoredToken) {
    this.#db.data.tokens.push(token);
    this.#indexToken(token);
    try {
      await this.#persist();
    } catch (error) {
      this.#db.data.tokens = this.#db.data.tokens.filter((t) => t !== token);
      this.#tokensByHash.delete(token.hash);
      this.#tokensById.delete(token.id);
      throw error;
    }
  }

  async getTokenByHash(hash: string) {
    return this.#tokensByHash.get(hash);
  }

  async getToken(id: string) {
    return this.#tokensById.get(id);
  }

  async listTokens(owner: string, type: TokenType) {
    return this.#db.data.tokens
      .filter((t) => t.owner === owner && t.type === type && !t.revoked_at)
      .sort((a, b) => (a.id < b.id ? 1 : -1));
  }

  async updateToken(id: string, patch: Partial<StoredToken>) {
    const token = this.#tokensById.get(id);
    if (!token) throw new Error(`no token ${id}`);
    if (patch.hash !== undefined && patch.hash !== token.hash) this.#tokensByHash.delete(token.hash);
    Object.assign(token, patch);
    this.#indexToken(token);
    await this.#persist();
  }

  touchToken(id: string, at: string) {
    const token = this.#tokensById.get(id);
    if (!token) return;
    token.last_used_at = at;
    this.#touchTimer ??= setTimeout(() => {
      this.#touchTimer = null;
      this.#persist().catch(() => {}); // retried with the next write
    }, TOUCH_FLUSH_MS).unref();
  }

  async getIdempotency(owner: string, key: string) {
    return this.#idempotency.get(idemKey(owner, key));
  }

  async putIdempotency(record: IdempotencyRecord) {
    this.#idempotency.set(idemKey(record.owner, record.key), record);
    this.#db.data.idempotency.push(record);
    await this.#persist();
  }

  async deleteIdempotency(owner: string, key: string) {
    const record = this.#idempotency.get(idemKey(owner, key));
    if (!record) return;
    this.#idempotency.delete(idemKey(owner, key));
    this.#db.data.idempotency = this.#db.data.idempotency.filter((r) => r !== record);
    await this.#persist();
  }

  async deleteIdempotencyBefore(date: string) {
    const keep = this.#db.data.idempotency.filter((r) => r.created_at >= date);
    const removed = this.#db.data.idempotency.length - keep.length;
    if (removed === 0) return 0;
    for (const r of this.#db.data.idempotency) if (r.created_at < date) this.#idempotency.delete(idemKey(r.owner, r.key));
    this.#db.data.idempotency = keep;
    await this.#persist();
    return removed;
  }

  async close() {
    if (this.#touchTimer) clearTimeout(this.#touchTimer);
    this.#touchTimer = null;
    await this.#persist();
    await this.#archive.settled();
  }
}

const byId = (a: StoredReview, b: StoredReview) => (a.review_id < b.review_id ? -1 : a.review_id > b.review_id ? 1 : 0);

function insertInOrder(list: StoredReview[], review: StoredReview) {
  let at = list.length;
  while (at > 0 && list[at - 1]!.review_id > review.review_id) at--;
  list.splice(at, 0, review);
}

function removeFrom(list: StoredReview[], review: StoredReview) {
  const at = list.lastIndexOf(review);
  if (at >= 0) list.splice(at, 1);
}

const idemKey = (owner: string, key: string) => `${owner}\u0000${key}`;
