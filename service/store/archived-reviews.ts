// The archived reviews as the store sees them: old finished reviews that left the lowdb document
// for append-only segments (review-archive.ts), with a compact index of them in memory
// (archive-index.ts) and the ones read lately cached. Here are the reads that retry when retention
// rewrote a segment under them, the listing merged with the document's reviews, and retention's
// remapping of the lines it moved.
//
// THE INVARIANT: a review may be in both the document and the archive (a crash between an append
// and the document write that forgets the appended reviews; an archived review that changed again
// and came back to the document). Then the document's copy wins, always: every read, listing and
// retention decision below asks `documentCopy(id)` first, and an archived line of an id the
// document holds is never answered, listed or counted.
import { LRUCache } from 'lru-cache';
import { isTerminalStatus } from '../api/review-status.ts';
import { ArchiveIndex, entryOf } from './archive-index.ts';
import { ArchiveCutError, ReviewArchive, type ArchiveLocation } from './review-archive.ts';
import { isStoredReview } from './store-document.ts';
import type { StoreLog } from './store-log.ts';
import type { ReviewFilter, ReviewQuery, StoredReview } from './types.ts';

/** The document's copy of a review, if it holds one. */
export type DocumentCopy = (id: string) => StoredReview | undefined;

/** What #read answers for a review whose archive line is damaged. */
const DAMAGED = Symbol('damaged archive line');

export class ArchivedReviews {
  readonly #segments: ReviewArchive;
  readonly #documentCopy: DocumentCopy;
  readonly #log: StoreLog;
  /** Ids, the fields listing and retention need, and where the lines are. */
  readonly #index = new ArchiveIndex();
  /** Archived reviews read lately: a client polling an old review does not read a file each time. */
  readonly #recent = new LRUCache<string, StoredReview>({ max: 1000 });
  /** An append under way; retention waits for it (the index must not move under its offsets). */
  #appending: Promise<unknown> | null = null;
  #sweeping = false;

  constructor(dataDir: string, documentCopy: DocumentCopy, log: StoreLog) {
    this.#segments = new ReviewArchive(dataDir);
    this.#documentCopy = documentCopy;
    this.#log = log;
  }

  /**
   * Reads the segments into the index (the document must be loaded: it decides about torn tails).
   * Only the index stays in memory: each parsed line is garbage once indexed. A line that is JSON
   * but no review (`{}`) holds nothing to serve: it is skipped, loudly.
   */
  async load(): Promise<void> {
    await this.#segments.load(
      (value, at, file, line) => {
        if (isStoredReview(value)) this.#index.push(entryOf(value, at));
        else this.#log.error({ file, line }, 'archive: skipped a line that is not a review');
      },
      (file, whole, tail) => this.#tornTail(file, whole, tail),
    );
    this.#index.seal();
  }

  /**
   * A segment ends in a cut line. A crash in the middle of an append leaves one, and the reviews of
   * that append are still in the document (it forgets them only once the append is done): that
   * tail is dropped, with a warning. Anything else is damage that lost reviews: the start stops.
   */
  #tornTail(file: string, whole: number, tail: Buffer): void {
    const ids = [...tail.toString('utf8').matchAll(/"review_id":"(rev_[0-9A-Z]{26})"/g)].map((m) => m[1]!);
    if (ids.length === 0 || ids.some((id) => this.#documentCopy(id) === undefined)) {
      throw new ArchiveCutError(
        file,
        whole,
        tail.length,
        ids.filter((id) => this.#documentCopy(id) === undefined),
      );
    }
    this.#log.warn(
      { file, bytes: tail.length, reviews: ids },
      'archive: dropped the torn last line of an append cut short by a crash; the store file holds its reviews',
    );
  }

  /** How many ids the archive has a line for (the document may hold some of them too). */
  get size(): number {
    return this.#index.size;
  }

  /** True when the archive has a line of the id (the document may hold the review too). */
  holds(id: string): boolean {
    return this.#index.find(id) >= 0;
  }

  /** An archived review read lately, without a promise (undefined: not at hand). */
  peek(id: string): StoredReview | undefined {
    return this.#recent.get(id);
  }

  /** The review: the document's copy where there is one, else the archive's line (a damaged one throws). */
  async get(id: string): Promise<StoredReview | undefined> {
    const review = this.#documentCopy(id) ?? (await this.#read([id]))[0];
    if (review === DAMAGED) throw new Error(`the archive line of ${id} is damaged`);
    return review;
  }

  /** An archived review came back to the document (it changed again): the cached line is stale. */
  returned(id: string): void {
    this.#recent.delete(id);
  }

  /**
   * Appends the reviews and indexes them. Resolves false, having done nothing, while retention
   * runs (the caller keeps them in the document and tries again with a later write) or when the
   * append failed.
   */
  async append(reviews: readonly StoredReview[]): Promise<boolean> {
    if (this.#appending || this.#sweeping) return false;
    // What the lines say, taken now: a review may change while they are written.
    const entries = reviews.map((r) => entryOf(r, { day: '', offset: 0, length: 0 }));
    const run = this.#segments.append(reviews).then(
      (locations) => {
        for (const [i, entry] of entries.entries()) entry.at = locations[i]!;
        this.#index.add(entries);
        return true;
      },
      () => false,
    );
    this.#appending = run;
    try {
      return await run;
    } finally {
      this.#appending = null;
    }
  }

  /**
   * Newest first: the document's reviews (in id order) and the archive's, walked together from the
   * end. An archived line of an id the document holds is skipped: the document's copy is listed.
   */
  async list(document: readonly StoredReview[], query: ReviewQuery): Promise<StoredReview[]> {
    const index = this.#index;
    let i = document.length - 1;
    let j = index.size - 1;
    if (query.before !== undefined) {
      while (i >= 0 && document[i]!.review_id >= query.before) i--;
      j = index.lowerBound(query.before) - 1;
    }
    const page: (StoredReview | string)[] = [];
    while (page.length < query.limit && (i >= 0 || j >= 0)) {
      if (i >= 0 && (j < 0 || document[i]!.review_id >= index.id(j))) {
        const review = document[i--]!;
        if (matches(query, review.owner, review.status, review.repository)) page.push(review);
      } else {
        const slot = j--;
        if (this.#documentCopy(index.id(slot)) !== undefined) continue;
        if (matches(query, index.owner(slot), index.status(slot), index.repository(slot))) page.push(index.id(slot));
      }
    }
    const archivedIds = page.filter((r): r is string => typeof r === 'string');
    if (archivedIds.length === 0) return page as StoredReview[];
    const archived = new Map<string, StoredReview | undefined | typeof DAMAGED>();
    for (const [k, review] of (await this.#read(archivedIds)).entries()) archived.set(archivedIds[k]!, review);
    // One deleted by retention while it was read is left out; so is a damaged one (logged by #read).
    return page
      .map((r) => (typeof r === 'string' ? archived.get(r) : r))
      .filter((r): r is StoredReview => r !== undefined && r !== DAMAGED);
  }

  /**
   * How many reviews match the filter in both places: the document's that match, and the archive's
   * less the lines of ids the document holds (its copy is the one counted, as in list()).
   */
  count(document: readonly StoredReview[], filter: ReviewFilter): number {
    const index = this.#index;
    let n = index.count(filter.owner, filter.status, filter.repository);
    for (const review of document) {
      if (matches(filter, review.owner, review.status, review.repository)) n++;
      const slot = index.find(review.review_id);
      if (slot >= 0 && matches(filter, index.owner(slot), index.status(slot), index.repository(slot))) n--;
    }
    return n;
  }

  /**
   * Retention over both places. Collects the archived reviews finished before `date` (those the
   * document does not hold) and hands them to `document.take`, which adds the document's own and
   * takes them all out of the document; drops them from the index, persists the document, then
   * drops them from the segments. Resolves with the ids deleted.
   */
  async deleteFinishedBefore(
    date: string,
    document: { take(archivedIds: Set<string>): Set<string>; persist(): Promise<void> },
  ): Promise<Set<string>> {
    while (this.#appending) await this.#appending;
    this.#sweeping = true;
    try {
      const cutoffMs = Date.parse(date);
      const index = this.#index;
      const archivedIds = new Set<string>();
      for (let slot = 0; slot < index.size; slot++) {
        const id = index.id(slot);
        if (this.#documentCopy(id) !== undefined) continue; // the document's copy decides
        if (isTerminalStatus(index.status(slot)) && index.updatedMs(slot) < cutoffMs) archivedIds.add(id);
      }
      const ids = document.take(archivedIds);
      if (ids.size === 0) return ids;
      for (const id of ids) this.#recent.delete(id);
      // Stale archive copies of the document's doomed reviews go too, or they would resurface.
      index.removeWhere((slot) => ids.has(index.id(slot)));
      await document.persist();
      // The segments go after the document: a crash in between leaves lines that the next sweep removes.
      const { removedDays, moved } = await this.#segments.deleteBefore(date, ids);
      // Lines of a dropped segment that are still indexed are old copies of reviews the document holds.
      if (removedDays.size > 0) index.removeWhere((slot) => removedDays.has(index.day(slot)));
      for (const [day, remap] of moved) index.relocate(day, remap);
      return ids;
    } finally {
      this.#sweeping = false;
    }
  }

  /** Waits for the appends and deletions under way. */
  settled(): Promise<void> {
    return this.#segments.settled();
  }

  /**
   * Archived reviews by id, read from their segments (undefined where there is none). A line that
   * is not the one expected (retention rewrote the segment between the lookup and the read) is
   * looked up and read again once the rewrite is done; one still wrong after that is DAMAGED, and
   * logged (the others are answered all the same).
   */
  async #read(ids: readonly string[]): Promise<(StoredReview | undefined | typeof DAMAGED)[]> {
    const out: (StoredReview | undefined | typeof DAMAGED)[] = new Array(ids.length);
    let pending: number[] = [];
    for (const [i, id] of ids.entries()) {
      const recent = this.#recent.get(id);
      if (recent !== undefined) out[i] = recent;
      else pending.push(i);
    }
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) await this.#segments.settled();
      const wanted: number[] = [];
      const locations: ArchiveLocation[] = [];
      for (const i of pending) {
        const id = ids[i]!;
        const inDocument = this.#documentCopy(id); // it may have come back meanwhile
        if (inDocument !== undefined) {
          out[i] = inDocument;
          continue;
        }
        const slot = this.#index.find(id);
        if (slot < 0) continue; // out[i] stays undefined
        wanted.push(i);
        locations.push(this.#index.location(slot));
      }
      const lines = await this.#segments.read(locations);
      pending = [];
      for (const [k, i] of wanted.entries()) {
        const id = ids[i]!;
        const review = parseLine(lines[k]);
        if (review?.review_id === id) {
          this.#recent.set(id, review);
          out[i] = this.#documentCopy(id) ?? review;
        } else if (lines[k] === undefined && attempt > 0) {
          // its segment is gone (out[i] stays undefined)
        } else if (attempt < 3) {
          pending.push(i);
        } else {
          out[i] = DAMAGED;
          this.#log.error(
            { review_id: id, segment: locations[k]!.day },
            'archive: the line of a review is damaged; it is left out',
          );
        }
      }
    }
    return out;
  }
}

function matches(query: ReviewFilter, owner: string, status: string, repository: string): boolean {
  return (
    owner === query.owner &&
    (query.status === undefined || status === query.status) &&
    (query.repository === undefined || repository === query.repository)
  );
}

function parseLine(line: string | undefined): StoredReview | undefined {
  if (line === undefined) return undefined;
  try {
    return JSON.parse(line) as StoredReview;
  } catch {
    return undefined;
  }
}
