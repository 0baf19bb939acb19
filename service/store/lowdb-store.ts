// The embedded store: one lowdb JSON document for tokens, unfinished jobs and the most recent
// finished ones; older finished jobs in the archive beside it (archived-reviews.ts, which keeps the
// rule that the document's copy of a review wins); idempotency keys in an expiring log of their
// own (idempotency-log.ts); the bulky parts (diffs, findings) in files of their own. lowdb
// rewrites the whole document on every write, so the document is kept small: with every job in
// it, creates slowed with every review stored (test/bench/store-scale.ts, README). This file
// decides what lives in the document and what in the archive, and opens a data dir safely.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Low } from 'lowdb';
import { isTerminal } from '../api/review-status.ts';
import type { Finding } from '../engine/types.ts';
import { ArchivedReviews } from './archived-reviews.ts';
import { withLineTexts } from './flagged-lines.ts';
import { keepDataDirPrivate } from './data-dir-modes.ts';
import { DocumentTokens } from './document-tokens.ts';
import { IdempotencyLog } from './idempotency-log.ts';
import type { InMemoryLookups } from './in-memory-lookups.ts';
import { ReviewFiles } from './review-files.ts';
import { describeSurvey, holdsReviewData, surveyDataDir, sweepLeftovers } from './data-dir-survey.ts';
import {
  documentDb,
  emptyDocument,
  readStoreDocument,
  STORE_FILE,
  StoreFileMissingError,
  type StoreDocument,
} from './store-document.ts';
import { stderrLog, type StoreLog } from './store-log.ts';
import {
  storeWrite,
  type IdempotencyRecord,
  type ReviewFilter,
  type ReviewQuery,
  type Store,
  type StoredReview,
  type StoredToken,
  type TokenType,
} from './types.ts';

/** Finished reviews the document may hold before the oldest of them move to the archive... */
const ARCHIVE_ABOVE = 400;
/** ...keeping this many of the newest in the document. */
const KEEP_FINISHED = 200;
const isUnfinished = (r: StoredReview | undefined) => r !== undefined && !isTerminal(r);

export class LowdbStore implements Store, InMemoryLookups {
  readonly #db: Low<StoreDocument>;
  readonly #files: ReviewFiles;
  /** The reviews of the document (they win over the archive's line of the same id). */
  readonly #reviews = new Map<string, StoredReview>();
  readonly #archived: ArchivedReviews;
  readonly #tokens: DocumentTokens;
  readonly #keys: IdempotencyLog;
  #pendingWrite: Promise<void> | null = null;

  private constructor(db: Low<StoreDocument>, files: ReviewFiles, dataDir: string, log: StoreLog) {
    this.#db = db;
    this.#files = files;
    this.#archived = new ArchivedReviews(dataDir, (id) => this.#reviews.get(id), log);
    this.#keys = new IdempotencyLog(dataDir, log);
    this.#tokens = new DocumentTokens(
      () => this.#db.data,
      () => this.#persist(),
    );
  }

  /**
   * Opens the store of a data dir. Refuses (and changes nothing) when the document is damaged, or
   * missing or empty while the data dir still holds earlier reviews' data: starting empty would
   * drop every review, queued job and token it listed.
   */
  static async open(dataDir: string, options: { log?: StoreLog } = {}): Promise<LowdbStore> {
    const log = options.log ?? stderrLog;
    await mkdir(dataDir, { recursive: true, mode: 0o700 });
    await keepDataDirPrivate(dataDir, log);
    const file = path.join(dataDir, STORE_FILE);
    const found = await readStoreDocument(file);
    const survey = await surveyDataDir(dataDir);
    if (typeof found === 'string') {
      if (holdsReviewData(survey)) throw new StoreFileMissingError(file, found, describeSurvey(survey));
      if (found === 'empty')
        log.warn({ file }, 'the store file was empty and the data dir holds no reviews: starting with an empty store');
    }
    const db = documentDb(file, typeof found === 'string' ? emptyDocument() : found);
    const files = new ReviewFiles(dataDir);
    await files.init();
    const store = new LowdbStore(db, files, dataDir, log);
    store.#indexDocument();
    await store.#archived.load();
    await store.#keys.load();
    await sweepLeftovers(
      survey,
      files,
      {
        diff: (id) => isUnfinished(store.#reviews.get(id)),
        results: (id) => store.#reviews.has(id) || store.#archived.holds(id),
      },
      log,
    );
    await store.#moveKeysOutOfDocument();
    return store;
  }

  #indexDocument() {
    const data = this.#db.data;
    data.reviews.sort(byId);
    for (const review of data.reviews) this.#reviews.set(review.review_id, review); // the document wins over the archive
  }

  /** A document of an earlier layout holds idempotency keys: into the log first, then out of the document. */
  async #moveKeysOutOfDocument() {
    const legacy = this.#db.data.idempotency;
    if (legacy === undefined) return;
    await Promise.all(legacy.map((record) => this.#keys.putIdempotency(record)));
    delete this.#db.data.idempotency;
    await this.#persist();
  }

  /**
   * Persists every change made before the call. Calls in the same tick share one write (one
   * serialization of the document), and documentDb queues a write that starts while one is running.
   */
  #persist(): Promise<void> {
    this.#pendingWrite ??= new Promise<void>((resolve) => setImmediate(resolve)).then(async () => {
      this.#pendingWrite = null;
      await this.#archiveOld();
      return this.#db.write();
    });
    return storeWrite(this.#pendingWrite);
  }

  /**
   * Moves the oldest finished reviews of the document to the archive once it holds more than
   * ARCHIVE_ABOVE of them. They are appended to the archive before the document forgets them, so
   * a crash in between leaves them in both (the document's copy wins), never in neither.
   */
  async #archiveOld(): Promise<void> {
    const finished = this.#db.data.reviews.filter(isTerminal);
    if (finished.length <= ARCHIVE_ABOVE) return;
    const moving = finished.slice(0, finished.length - KEEP_FINISHED);
    const snapshot = moving.map((r) => JSON.stringify(r));
    // If not appended, they stay in the document and the next write tries again.
    if (!(await this.#archived.append(moving))) return;
    // Only those unchanged since they were appended leave the document: the archive's line of one
    // that changed meanwhile is older than the change, which the document keeps (ReviewStore, rule 2).
    const moved = new Set(moving.filter((r, i) => JSON.stringify(r) === snapshot[i]));
    this.#db.data.reviews = this.#db.data.reviews.filter((r) => !moved.has(r));
    for (const r of moved) this.#reviews.delete(r.review_id);
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

  getReview(id: string) {
    return this.#archived.get(id);
  }

  /** What getReview answers without reading a file: the document's review or a recently read archived one. */
  peekReview(id: string): StoredReview | undefined {
    return this.#reviews.get(id) ?? this.#archived.peek(id);
  }

  async updateReview(id: string, patch: Partial<StoredReview>) {
    const current = this.#reviews.get(id) ?? (await this.#archived.get(id));
    if (!current) throw new Error(`no review ${id}`);
    // The first end wins (ReviewStore): an ended review takes no other status. Nothing is awaited
    // from here to the change below, so a patch checked here is never applied over another end.
    if (patch.status !== undefined && isTerminal(current)) return this.#reviews.get(id) ?? current;
    let review = this.#reviews.get(id);
    if (!review) {
      // An archived review that changes again comes back to the document, whose copy wins.
      review = { ...current };
      insertInOrder(this.#db.data.reviews, review);
      this.#reviews.set(id, review);
      this.#archived.returned(id);
    }
    Object.assign(review, patch);
    for (const key of Object.keys(patch) as (keyof StoredReview)[]) {
      if (patch[key] === undefined) delete review[key];
    }
    await this.#persist();
    return review;
  }

  listReviews(query: ReviewQuery) {
    return this.#archived.list(this.#db.data.reviews, query);
  }

  async countReviews(filter: ReviewFilter) {
    return this.#archived.count(this.#db.data.reviews, filter);
  }

  async unfinishedReviews() {
    return this.#db.data.reviews.filter(isUnfinished);
  }

  async deleteFinishedBefore(date: string) {
    const ids = await this.#archived.deleteFinishedBefore(date, {
      take: (archivedIds) => {
        const ids = new Set(archivedIds);
        for (const r of this.#db.data.reviews) if (isTerminal(r) && r.updated_at < date) ids.add(r.review_id);
        if (ids.size === 0) return ids;
        this.#db.data.reviews = this.#db.data.reviews.filter((r) => !ids.has(r.review_id));
        for (const id of ids) this.#reviews.delete(id);
        return ids;
      },
      persist: () => this.#persist(),
    });
    // The files go after the document and the archive: a crash in between leaves orphan files, never records without their files.
    await Promise.all([...ids].map((id) => this.#files.deleteAll(id)));
    return ids.size;
  }

  writeDiff(id: string, diff: string) {
    return storeWrite(this.#files.writeDiff(id, diff));
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
  async writeFindings(id: string, findings: Finding[]) {
    // The diff is still there (the job deletes it once its end is recorded): the lines' texts come from it.
    const diff = findings.length === 0 ? undefined : await this.#files.readDiff(id).catch(() => undefined);
    return storeWrite(this.#files.writeFindings(id, withLineTexts(diff, findings)));
  }
  readFindings(id: string) {
    return this.#files.readFindings(id);
  }

  insertToken(token: StoredToken) {
    return this.#tokens.insertToken(token);
  }
  getTokenByHash(hash: string) {
    return this.#tokens.getTokenByHash(hash);
  }
  getTokenByHashSync(hash: string): StoredToken | undefined {
    return this.#tokens.getTokenByHashSync(hash);
  }
  getToken(id: string) {
    return this.#tokens.getToken(id);
  }
  listTokens(owner: string, type: TokenType) {
    return this.#tokens.listTokens(owner, type);
  }
  updateToken(id: string, patch: Partial<StoredToken>) {
    return this.#tokens.updateToken(id, patch);
  }
  touchToken(id: string, at: string) {
    this.#tokens.touchToken(id, at);
  }

  getIdempotency(owner: string, key: string) {
    return this.#keys.getIdempotency(owner, key);
  }
  putIdempotency(record: IdempotencyRecord) {
    return this.#keys.putIdempotency(record);
  }
  deleteIdempotency(owner: string, key: string) {
    return this.#keys.deleteIdempotency(owner, key);
  }
  deleteIdempotencyBefore(date: string) {
    return this.#keys.deleteIdempotencyBefore(date);
  }

  async close() {
    this.#tokens.stop();
    await this.#persist();
    await Promise.all([this.#archived.settled(), this.#keys.settled()]);
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
