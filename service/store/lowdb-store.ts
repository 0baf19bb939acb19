// The embedded store: one lowdb JSON document for tokens, idempotency keys, unfinished jobs and
// the most recent finished ones; older finished jobs in append-only segments beside it (they no
// longer change), of which only a compact index is in memory (archive-index.ts); the bulky parts
// (diffs, findings) in files of their own. lowdb rewrites the whole document on every write, so the document is kept small: with every
// job in it, a create at 100,000 stored reviews took 400 ms (test/bench/store-scale.ts).
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Low } from 'lowdb';
import { DataFile } from 'lowdb/node';
import type { Finding } from '../engine/types.ts';
import { LRUCache } from 'lru-cache';
import { ArchiveIndex, entryOf } from './archive-index.ts';
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
  /** The reviews of the document (they win over the archive's line of the same id). */
  readonly #reviews = new Map<string, StoredReview>();
  /** The archived reviews: ids, the fields listing and retention need, where the lines are. */
  #index = new ArchiveIndex();
  /** Archived reviews read lately: a client polling an old review does not read a file each time. */
  readonly #recent = new LRUCache<string, StoredReview>({ max: 1000 });
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
    // Only the index stays in memory: each parsed line is garbage as soon as it is indexed.
    await archive.load((review, at) => store.#index.push(entryOf(review, at)));
    store.#index.seal();
    store.#indexDocument();
    return store;
  }

  #indexDocument() {
    const data = this.#db.data;
    data.reviews.sort(byId);
    for (const review of data.reviews) this.#reviews.set(review.review_id, review); // the document wins over the archive
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
    // What the lines say, taken now: a review may change while they are written.
    const entries = moving.map((r) => entryOf(r, { day: '', offset: 0, length: 0 }));
    this.#archiving = this.#archive.append(moving).then(
      (locations) => {
        // Every line written is indexed; the document's copy wins where it still has one.
        for (const [i, entry] of entries.entries()) entry.at = locations[i]!;
        this.#index.add(entries);
        // Only those unchanged since they were appended leave the document.
        const moved = new Set(moving.filter((r, i) => JSON.stringify(r) === snapshot[i]));
        this.#db.data.reviews = this.#db.data.reviews.filter((r) => !moved.has(r));
        for (const r of moved) this.#reviews.delete(r.review_id);
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
    this.#reviews.set(review.review_id, review);
    try {
      await this.#persist();
    } catch (error) {
      // Not durable, so not acknowledged: take it back out.
      this.#reviews.delete(review.review_id);
      removeFrom(this.#db.data.reviews, review);
      throw error;
    }
  }

  async getReview(id: string) {
    return this.#reviews.get(id) ?? (await this.#readArchived([id]))[0];
  }

  /** What getReview answers without reading a file: the document's review or a recently read archived one. */
  peekReview(id: string): StoredReview | undefined {
    return this.#reviews.get(id) ?? this.#recent.get(id);
  }

  /**
   * Archived reviews by id, read from their segments (undefined where there is none). A line that
   * is not the one expected (retention rewrote the segment between the lookup and the read) is
   * looked up and read again once the rewrite is done.
   */
  async #readArchived(ids: readonly string[]): Promise<(StoredReview | undefined)[]> {
    const out: (StoredReview | undefined)[] = new Array(ids.length);
    let pending: number[] = [];
    for (const [i, id] of ids.entries()) {
      const recent = this.#recent.get(id);
      if (recent !== undefined) out[i] = recent;
      else pending.push(i);
    }
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await this.#archive.settled();
      const wanted: number[] = [];
      const locations = [];
      for (const i of pending) {
        const id = ids[i]!;
        const inDoc = this.#reviews.get(id); // it may have come back meanwhile
        if (inDoc !== undefined) {
          out[i] = inDoc;
          continue;
        }
        const slot = this.#index.find(id);
        if (slot < 0) continue; // out[i] stays undefined
        wanted.push(i);
        locations.push(this.#index.location(slot));
      }
      const lines = await this.#archive.read(locations);
      pending = [];
      for (const [k, i] of wanted.entries()) {
        const review = parseLine(lines[k]);
        if (review?.review_id === ids[i]) {
          this.#recent.set(ids[i]!, review);
          out[i] = this.#reviews.get(ids[i]!) ?? review;
        } else if (lines[k] === undefined && attempt > 0) {
          // its segment is gone (out[i] stays undefined)
        } else if (attempt < 3) {
          pending.push(i);
        } else {
          throw new Error(`the archive line of ${ids[i]} could not be read`);
        }
      }
    }
    return out;
  }

  async updateReview(id: string, patch: Partial<StoredReview>) {
    let review = this.#reviews.get(id);
    if (!review) {
      // An archived review that changes again comes back to the document, whose copy wins.
      const archived = (await this.#readArchived([id]))[0];
      if (!archived) throw new Error(`no review ${id}`);
      review = this.#reviews.get(id);
      if (!review) {
        review = { ...archived };
        insertInOrder(this.#db.data.reviews, review);
        this.#reviews.set(id, review);
        this.#recent.delete(id);
      }
    }
    Object.assign(review, patch);
    for (const key of Object.keys(patch) as (keyof StoredReview)[]) {
      if (patch[key] === undefined) delete review[key];
    }
    await this.#persist();
    return review;
  }

  async listReviews(query: ReviewQuery) {
    // Two lists in id order, the document's and the archive's: walked together from the end.
    const doc = this.#db.data.reviews;
    const index = this.#index;
    let i = doc.length - 1;
    let j = index.size - 1;
    if (query.before !== undefined) {
      while (i >= 0 && doc[i]!.review_id >= query.before) i--;
      j = index.lowerBound(query.before) - 1;
    }
    const page: (StoredReview | string)[] = [];
    while (page.length < query.limit && (i >= 0 || j >= 0)) {
      if (i >= 0 && (j < 0 || doc[i]!.review_id >= index.id(j))) {
        const review = doc[i--]!;
        if (review.owner !== query.owner) continue;
        if (query.status !== undefined && review.status !== query.status) continue;
        if (query.repository !== undefined && review.repository !== query.repository) continue;
        page.push(review);
      } else {
        const slot = j--;
        if (this.#reviews.has(index.id(slot))) continue; // the document's copy is the one listed
        if (index.owner(slot) !== query.owner) continue;
        if (query.status !== undefined && index.status(slot) !== query.status) continue;
        if (query.repository !== undefined && index.repository(slot) !== query.repository) continue;
        page.push(index.id(slot));
      }
    }
    const archivedIds = page.filter((r): r is string => typeof r === 'string');
    if (archivedIds.length === 0) return page as StoredReview[];
    const archived = new Map<string, StoredReview | undefined>();
    for (const [k, review] of (await this.#readArchived(archivedIds)).entries()) archived.set(archivedIds[k]!, review);
    // One deleted by retention while it was read is left out.
    return page.map((r) => (typeof r === 'string' ? archived.get(r) : r)).filter((r): r is StoredReview => r !== undefined);
  }

  async unfinishedReviews() {
    return this.#db.data.reviews.filter((r) => r.status === 'queued' || r.status === 'running');
  }

  async deleteFinishedBefore(date: string) {
    while (this.#archiving) await this.#archiving;
    this.#sweeping = true;
    try {
      const cutoffMs = Date.parse(date);
      const ids = new Set<string>();
      for (const r of this.#db.data.reviews) if (isFinished(r) && r.updated_at < date) ids.add(r.review_id);
      const index = this.#index;
      for (let slot = 0; slot < index.size; slot++) {
        const id = index.id(slot);
        if (this.#reviews.has(id)) continue; // the document's copy decides
        const status = index.status(slot);
        if ((status === 'completed' || status === 'failed') && index.updatedMs(slot) < cutoffMs) ids.add(id);
      }
      if (ids.size === 0) return 0;
      this.#db.data.reviews = this.#db.data.reviews.filter((r) => !ids.has(r.review_id));
      for (const id of ids) {
        this.#reviews.delete(id);
        this.#recent.delete(id);
      }
      index.removeWhere((slot) => ids.has(index.id(slot)));
      await this.#persist();
      // The archive and the files go after the document: a crash in between leaves records that
      // the next sweep removes, or orphan files, never records without their files.
      const { removedDays, moved } = await this.#archive.deleteBefore(date, ids);
      // Lines of a dropped segment that are still indexed are old copies of reviews the document holds.
      if (removedDays.size > 0) index.removeWhere((slot) => removedDays.has(index.day(slot)));
      for (const [day, remap] of moved) index.relocate(day, remap);
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

  getTokenByHashSync(hash: string): StoredToken | undefined {
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

function parseLine(line: string | undefined): StoredReview | undefined {
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line) as StoredReview;
  } catch {
    return undefined;
  }
}

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
