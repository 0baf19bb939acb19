// Finished reviews that left the lowdb document: append-only JSON-lines segments, one per day of
// the review's last update (`archive/reviews-YYYY-MM-DD.jsonl`). A finished review does not
// change, so it is written once, by an append, instead of in every rewrite of the document; and
// retention drops whole segments (it rewrites at most the one segment of the cut-off day).
// The archive tells where each line is (segment, offset, length): the store keeps only that and a
// few fields in memory (archive-index.ts) and reads a full record from its segment when asked.
import { type FileHandle, mkdir, open, readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { appendLines, NEWLINE_BYTES, scanLines, truncateTo } from './jsonl-file.ts';
import { atomicWrite } from './review-files.ts';
import type { StoredReview } from './types.ts';

export const ARCHIVE_DIR = 'archive';
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

export class ArchiveCutError extends Error {
  constructor(file: string, whole: number, tail: number, ids: string[]) {
    const held =
      ids.length > 0 ? `review ${ids.join(', ')}, which the store file does not hold` : 'a review it cannot name';
    super(
      `The archive segment ${file} ends in a cut line (${tail} bytes after byte ${whole}, no newline) holding ${held}: ` +
        'the file was cut short (a copy or a disk fault), not torn by a crash while appending, and the reviews that ' +
        'followed it are gone from it. It was not changed. Restore it from a backup; or, to keep its whole lines ' +
        `and give up the rest, cut it to them: truncate -s ${whole} '${file}'`,
    );
    this.name = 'ArchiveCutError';
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
    this.#dir = path.join(dataDir, ARCHIVE_DIR);
  }

  /**
   * Hands every line's value to `each` with where the line is and its line number, oldest segment
   * first (a later line of an id replaces an earlier one). A line that is not JSON stops the load.
   * A segment whose last line is cut (no newline) is handed to `tornTail`, which decides: it
   * resolves to drop that tail, or throws.
   */
  async load(
    each: (value: unknown, at: ArchiveLocation, file: string, line: number) => void,
    tornTail: (file: string, whole: number, tail: Buffer) => Promise<void> | void,
  ): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    for (const name of await this.#segments()) {
      const day = SEGMENT.exec(name)![1]!;
      const file = path.join(this.#dir, name);
      const { whole, tornTail: tail } = await scanLines(file, (text, offset, length, line) => {
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch (error) {
          throw new ArchiveCorruptError(file, line, error);
        }
        each(value, { day, offset, length }, file, line);
      });
      if (tail) {
        await tornTail(file, whole, tail);
        await truncateTo(file, whole);
      }
      this.#sizes.set(day, whole);
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
        let offset = this.#sizes.get(day) ?? 0;
        const parts: Buffer[] = [];
        for (const { index, line } of lines) {
          at[index] = { day, offset, length: line.length };
          parts.push(line, NEWLINE_BYTES);
          offset += line.length + 1;
        }
        this.#sizes.set(day, await appendLines(this.#file(day), this.#sizes.get(day) ?? 0, Buffer.concat(parts)));
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
        let handle: FileHandle;
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
  deleteBefore(
    date: string,
    doomed: ReadonlySet<string>,
  ): Promise<{ removedDays: Set<string>; moved: Map<string, Map<number, number>> }> {
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
