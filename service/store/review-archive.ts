// Finished reviews that left the lowdb document: append-only JSON-lines segments, one per day of
// the review's last update (`archive/reviews-YYYY-MM-DD.jsonl`). A finished review does not
// change, so it is written once, by an append, instead of in every rewrite of the document; and
// retention drops whole segments (it rewrites at most the one segment of the cut-off day).
import { appendFile, mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite } from './review-files.ts';
import type { StoredReview } from './types.ts';

const SEGMENT = /^reviews-(\d{4}-\d{2}-\d{2})\.jsonl$/;
const NEWLINE = 0x0a;

export class ArchiveCorruptError extends Error {
  constructor(file: string, line: number, cause: unknown) {
    super(
      `The archive segment ${file} has a damaged line ${line} (${(cause as Error).message}). ` +
        'It was not changed. Restore it from a backup, or move it away (its reviews are then gone).',
      { cause },
    );
    this.name = 'ArchiveCorruptError';
  }
}

export class ReviewArchive {
  readonly #dir: string;
  /** Appends and deletions one at a time, in order. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.#dir = path.join(dataDir, 'archive');
  }

  /**
   * Hands every archived review to `each`, oldest segment first (a later line of an id replaces an
   * earlier one). Repairs a torn last line first.
   */
  async load(each: (review: StoredReview) => void): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    for (const name of await this.#segments()) {
      const file = path.join(this.#dir, name);
      const bytes = await readFile(file);
      const end = bytes.lastIndexOf(NEWLINE) + 1;
      if (end < bytes.length) {
        // A crash in the middle of an append: the reviews of that append are still in the
        // document (it forgets them only after the append), so the torn tail is dropped.
        const handle = await open(file, 'r+');
        try {
          await handle.truncate(end);
        } finally {
          await handle.close();
        }
      }
      const text = bytes.toString('utf8', 0, end);
      let start = 0;
      for (let line = 1; start < text.length; line++) {
        const stop = text.indexOf('\n', start);
        if (stop > start) {
          let review: StoredReview;
          try {
            review = JSON.parse(text.slice(start, stop)) as StoredReview;
          } catch (error) {
            throw new ArchiveCorruptError(file, line, error);
          }
          each(review);
        }
        start = stop + 1;
      }
    }
  }

  /** Appends the reviews to their segments; resolves once the lines are in the files. */
  append(reviews: readonly StoredReview[]): Promise<void> {
    const byDay = new Map<string, string[]>();
    for (const review of reviews) {
      const day = review.updated_at.slice(0, 10);
      const lines = byDay.get(day) ?? [];
      lines.push(JSON.stringify(review) + '\n');
      byDay.set(day, lines);
    }
    return this.#serial(async () => {
      for (const [day, lines] of byDay) await appendFile(this.#file(day), lines.join(''), { encoding: 'utf8', mode: 0o600 });
    });
  }

  /**
   * Drops the doomed reviews (finished before `date`): segments of earlier days whole, and the
   * cut-off day's segment rewritten atomically without them.
   */
  deleteBefore(date: string, doomed: ReadonlySet<string>): Promise<void> {
    const cutoffDay = date.slice(0, 10);
    return this.#serial(async () => {
      for (const name of await this.#segments()) {
        const day = SEGMENT.exec(name)![1]!;
        const file = path.join(this.#dir, name);
        if (day < cutoffDay) {
          await rm(file, { force: true });
        } else if (day === cutoffDay) {
          const lines = (await readFile(file, 'utf8')).split('\n').filter(Boolean);
          const kept = lines.filter((line) => !doomed.has((JSON.parse(line) as StoredReview).review_id));
          if (kept.length === 0) await rm(file, { force: true });
          else if (kept.length < lines.length) await atomicWrite(file, kept.map((l) => l + '\n').join(''));
        }
      }
    });
  }

  /** Waits for the appends and deletions under way. */
  settled(): Promise<void> {
    return this.#queue.then(
      () => {},
      () => {},
    );
  }

  async #segments(): Promise<string[]> {
    return (await readdir(this.#dir)).filter((name) => SEGMENT.test(name)).sort();
  }

  #file(day: string) {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a day: ${JSON.stringify(day)}`);
    return path.join(this.#dir, `reviews-${day}.jsonl`);
  }

  #serial(work: () => Promise<void>): Promise<void> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }
}
