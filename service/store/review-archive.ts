// Finished reviews that left the lowdb document: append-only JSON-lines segments, one per day of
// the review's last update (`archive/reviews-YYYY-MM-DD.jsonl`). A finished review does not
// change, so it is written once, by an append, instead of in every rewrite of the document; and
// retention drops whole segments (it rewrites at most the one segment of the cut-off day).
// The archive tells where each line is (segment, offset, length): the store keeps only that and a
// few fields in memory (archive-index.ts) and reads a full record from its segment when asked.
import { mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { atomicWrite } from './review-files.ts';
import type { StoredReview } from './types.ts';

const SEGMENT = /^reviews-(\d{4}-\d{2}-\d{2})\.jsonl$/;
const NEWLINE = 0x0a;
/** Segments are read this many bytes at a time on load: a large one is never in memory whole. */
const CHUNK = 1024 * 1024;

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

/** Where one review's line is: the segment's day, the byte offset and length (without the newline). */
export interface ArchiveLocation {
  day: string;
  offset: number;
  length: number;
}

export class ReviewArchive {
  readonly #dir: string;
  /** Appends and deletions one at a time, in order. */
  #queue: Promise<unknown> = Promise.resolve();
  /** Each segment's length as far as whole lines go: an append that failed half-way is cut off by the next. */
  readonly #sizes = new Map<string, number>();

  constructor(dataDir: string) {
    this.#dir = path.join(dataDir, 'archive');
  }

  /**
   * Hands every archived review to `each` with where its line is, oldest segment first (a later
   * line of an id replaces an earlier one). Repairs a torn last line first.
   */
  async load(each: (review: StoredReview, at: ArchiveLocation) => void): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    for (const name of await this.#segments()) {
      const day = SEGMENT.exec(name)![1]!;
      const file = path.join(this.#dir, name);
      const handle = await open(file, 'r');
      let torn = false;
      try {
        let buffer = Buffer.allocUnsafe(CHUNK);
        /** Bytes of the file before buffer[0]; buffer[0, filled) holds what is not handed out yet. */
        let base = 0;
        let filled = 0;
        let line = 1;
        for (;;) {
          if (filled === buffer.length) {
            // One line longer than the buffer: make room.
            const bigger = Buffer.allocUnsafe(buffer.length * 2);
            buffer.copy(bigger, 0, 0, filled);
            buffer = bigger;
          }
          const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, base + filled);
          if (bytesRead === 0) break;
          const end = filled + bytesRead;
          let start = 0;
          for (let stop = buffer.indexOf(NEWLINE, filled); stop >= 0 && stop < end; stop = buffer.indexOf(NEWLINE, start)) {
            if (stop > start) {
              let review: StoredReview;
              try {
                review = JSON.parse(buffer.toString('utf8', start, stop)) as StoredReview;
              } catch (error) {
                throw new ArchiveCorruptError(file, line, error);
              }
              each(review, { day, offset: base + start, length: stop - start });
            }
            line++;
            start = stop + 1;
          }
          buffer.copy(buffer, 0, start, end);
          base += start;
          filled = end - start;
        }
        torn = filled > 0;
        this.#sizes.set(day, base);
      } finally {
        await handle.close();
      }
      if (torn) {
        // A crash in the middle of an append: the reviews of that append are still in the
        // document (it forgets them only after the append), so the torn tail is dropped.
        const writable = await open(file, 'r+');
        try {
          await writable.truncate(this.#sizes.get(day));
        } finally {
          await writable.close();
        }
      }
    }
  }

  /**
   * Appends the reviews to their segments; resolves once the lines are in the files, with where
   * each one is (in the order given).
   */
  append(reviews: readonly StoredReview[]): Promise<ArchiveLocation[]> {
    const byDay = new Map<string, { index: number; line: Buffer }[]>();
    for (const [index, review] of reviews.entries()) {
      const day = review.updated_at.slice(0, 10);
      const lines = byDay.get(day) ?? [];
      lines.push({ index, line: Buffer.from(JSON.stringify(review), 'utf8') });
      byDay.set(day, lines);
    }
    return this.#serial(async () => {
      const at: ArchiveLocation[] = new Array(reviews.length);
      for (const [day, lines] of byDay) {
        const file = this.#file(day);
        const handle = await open(file, 'a', 0o600);
        try {
          const known = this.#sizes.get(day) ?? 0;
          // A previous append that failed half-way left a torn line: cut it off first.
          if ((await handle.stat()).size !== known) await handle.truncate(known);
          let offset = known;
          const parts: Buffer[] = [];
          for (const { index, line } of lines) {
            at[index] = { day, offset, length: line.length };
            parts.push(line, NEWLINE_BYTES);
            offset += line.length + 1;
          }
          await handle.writeFile(Buffer.concat(parts));
          this.#sizes.set(day, offset);
        } finally {
          await handle.close();
        }
      }
      return at;
    });
  }

  /**
   * The lines at these locations, as written (undefined where a segment is gone). One open per
   * segment.
   */
  async read(locations: readonly ArchiveLocation[]): Promise<(string | undefined)[]> {
    const out: (string | undefined)[] = new Array(locations.length);
    const byDay = new Map<string, number[]>();
    for (const [i, at] of locations.entries()) {
      const list = byDay.get(at.day) ?? [];
      list.push(i);
      byDay.set(at.day, list);
    }
    await Promise.all(
      [...byDay].map(async ([day, indexes]) => {
        let handle;
        try {
          handle = await open(this.#file(day), 'r');
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
          throw error;
        }
        try {
          for (const i of indexes) {
            const { offset, length } = locations[i]!;
            const buffer = Buffer.allocUnsafe(length);
            const { bytesRead } = await handle.read(buffer, 0, length, offset);
            out[i] = buffer.toString('utf8', 0, bytesRead);
          }
        } finally {
          await handle.close();
        }
      }),
    );
    return out;
  }

  /**
   * Drops the doomed reviews (finished before `date`): segments of earlier days whole, and the
   * cut-off day's segment rewritten atomically without them. Resolves with the days whose segments
   * are gone, and for the rewritten one, where each kept line moved (old offset to new).
   */
  deleteBefore(date: string, doomed: ReadonlySet<string>): Promise<{ removedDays: Set<string>; moved: Map<string, Map<number, number>> }> {
    const cutoffDay = date.slice(0, 10);
    return this.#serial(async () => {
      const removedDays = new Set<string>();
      const moved = new Map<string, Map<number, number>>();
      for (const name of await this.#segments()) {
        const day = SEGMENT.exec(name)![1]!;
        const file = path.join(this.#dir, name);
        if (day < cutoffDay) {
          await rm(file, { force: true });
          this.#sizes.delete(day);
          removedDays.add(day);
        } else if (day === cutoffDay) {
          const bytes = await readFile(file);
          const end = Math.min(bytes.length, this.#sizes.get(day) ?? bytes.length);
          const kept: Buffer[] = [];
          const remap = new Map<number, number>();
          let size = 0;
          let dropped = 0;
          for (let start = 0; start < end; ) {
            let stop = bytes.indexOf(NEWLINE, start);
            if (stop < 0 || stop >= end) stop = end;
            if (stop > start) {
              const line = bytes.subarray(start, stop);
              if (doomed.has((JSON.parse(line.toString('utf8')) as StoredReview).review_id)) {
                dropped++;
              } else {
                remap.set(start, size);
                kept.push(line, NEWLINE_BYTES);
                size += line.length + 1;
              }
            }
            start = stop + 1;
          }
          if (remap.size === 0) {
            await rm(file, { force: true });
            this.#sizes.delete(day);
            removedDays.add(day);
          } else if (dropped > 0) {
            await atomicWrite(file, Buffer.concat(kept));
            this.#sizes.set(day, size);
            moved.set(day, remap);
          }
        }
      }
      return { removedDays, moved };
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

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }
}

const NEWLINE_BYTES = Buffer.from('\n');
