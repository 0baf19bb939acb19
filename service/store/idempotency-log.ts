// Idempotency keys, kept out of the lowdb document: our own client sends a key with every create,
// and each record lives 24 hours, so at one token's default rate the document would carry ~170,000
// of them and every write would rewrite them all (test/bench/README.md says what that cost).
// Instead: append-only JSON-lines segments, one per hour of the records' creation
// (`idempotency/keys-YYYY-MM-DDTHH.jsonl`), all loaded into a Map on start; expiry deletes whole
// segments. A forgotten key (a create that failed after its record was written) is a tombstone line
// in the record's own segment, after the record. A put resolves once its line is in the file, so a
// create acknowledged with a key is replayed after kill -9 and a restart.
import { mkdir, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { appendLines, NEWLINE_BYTES, scanLines, truncateTo } from './jsonl-file.ts';
import type { StoreLog } from './store-log.ts';
import { StoreWriteError, type IdempotencyRecord, type IdempotencyStore } from './types.ts';

export const IDEMPOTENCY_DIR = 'idempotency';
const SEGMENT = /^keys-(\d{4}-\d{2}-\d{2}T\d{2})\.jsonl$/;

interface Tombstone {
  owner: string;
  key: string;
  deleted: true;
}

interface PendingLine {
  hour: string;
  line: Buffer;
  done: (error?: unknown) => void;
}

export class IdempotencyLog implements IdempotencyStore {
  readonly #dir: string;
  readonly #log: StoreLog;
  /**
   * Each live record as its JSON line (canonical(), created_at last): one string per key instead of
   * an object of five, so 100,000 keys cost the garbage collector little (strings hold no pointers).
   */
  readonly #records = new Map<string, string>();
  /** Each segment's length as far as whole lines go. */
  readonly #sizes = new Map<string, number>();
  /** Lines put in this tick: one append per segment for all of them. */
  #batch: PendingLine[] = [];
  /** Appends and deletions one at a time, in order. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string, log: StoreLog) {
    this.#dir = path.join(dataDir, IDEMPOTENCY_DIR);
    this.#log = log;
  }

  get size(): number {
    return this.#records.size;
  }

  /** Reads every segment, oldest first. A torn last line (never acknowledged) is cut off, loudly. */
  async load(): Promise<void> {
    await mkdir(this.#dir, { recursive: true, mode: 0o700 });
    for (const name of await this.#segments()) {
      const hour = SEGMENT.exec(name)![1]!;
      const file = path.join(this.#dir, name);
      const { whole, tornTail } = await scanLines(file, (text, _offset, _length, line) => {
        const entry = parseEntry(text);
        if (entry === undefined) {
          this.#log.error(
            { file, line },
            'idempotency log: a damaged line was skipped (a retry of its create makes a new review)',
          );
        } else if ('deleted' in entry) {
          this.#records.delete(slot(entry.owner, entry.key));
        } else {
          this.#records.set(slot(entry.owner, entry.key), canonical(entry));
        }
      });
      this.#sizes.set(hour, whole);
      if (tornTail) {
        this.#log.warn(
          { file, bytes: tornTail.length },
          'idempotency log: dropped a torn last line (a write cut short; its create was never acknowledged)',
        );
        await truncateTo(file, whole);
      }
    }
  }

  async getIdempotency(owner: string, key: string): Promise<IdempotencyRecord | undefined> {
    const line = this.#records.get(slot(owner, key));
    return line === undefined ? undefined : (JSON.parse(line) as IdempotencyRecord);
  }

  putIdempotency(record: IdempotencyRecord): Promise<void> {
    const line = canonical(record);
    this.#records.set(slot(record.owner, record.key), line);
    return this.#append(hourOf(record.created_at), line);
  }

  deleteIdempotency(owner: string, key: string): Promise<void> {
    const line = this.#records.get(slot(owner, key));
    if (line === undefined) return Promise.resolve();
    this.#records.delete(slot(owner, key));
    const tombstone: Tombstone = { owner, key, deleted: true };
    return this.#append(hourOf(createdAtOf(line)), JSON.stringify(tombstone));
  }

  /** Forgets the records created before the date, and deletes the segments that hold only those. */
  deleteIdempotencyBefore(date: string): Promise<number> {
    let removed = 0;
    for (const [at, line] of this.#records) {
      if (createdAtOf(line) < date) {
        this.#records.delete(at);
        removed++;
      }
    }
    const cutoffHour = hourOf(date);
    return this.#serial(async () => {
      for (const name of await this.#segments()) {
        const hour = SEGMENT.exec(name)![1]!;
        if (hour >= cutoffHour) continue;
        await rm(path.join(this.#dir, name), { force: true });
        this.#sizes.delete(hour);
      }
      return removed;
    });
  }

  /** Waits for the writes under way. */
  async settled(): Promise<void> {
    await this.#queue.then(
      () => {},
      () => {},
    );
  }

  /** Resolves once the line is in its segment; lines of one tick share one append per segment. */
  #append(hour: string, text: string): Promise<void> {
    const line = Buffer.from(text, 'utf8');
    return new Promise<void>((resolve, reject) => {
      if (this.#batch.length === 0) setImmediate(() => void this.#flush());
      this.#batch.push({
        hour,
        line,
        done: (error) => (error === undefined ? resolve() : reject(new StoreWriteError(error))),
      });
    });
  }

  #flush(): Promise<void> {
    const batch = this.#batch;
    this.#batch = [];
    const byHour = new Map<string, PendingLine[]>();
    for (const pending of batch) {
      const lines = byHour.get(pending.hour);
      if (lines) lines.push(pending);
      else byHour.set(pending.hour, [pending]);
    }
    return this.#serial(async () => {
      for (const [hour, lines] of byHour) {
        try {
          const data = Buffer.concat(lines.flatMap((p) => [p.line, NEWLINE_BYTES]));
          this.#sizes.set(hour, await appendLines(this.#file(hour), this.#sizes.get(hour) ?? 0, data));
          for (const p of lines) p.done();
        } catch (error) {
          for (const p of lines) p.done(error);
        }
      }
    });
  }

  async #segments(): Promise<string[]> {
    return (await readdir(this.#dir)).filter((name) => SEGMENT.test(name)).sort();
  }

  #file(hour: string) {
    if (!/^\d{4}-\d{2}-\d{2}T\d{2}$/.test(hour)) throw new Error(`not an hour: ${JSON.stringify(hour)}`);
    return path.join(this.#dir, `keys-${hour}.jsonl`);
  }

  #serial<T>(work: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(work, work);
    this.#queue = run.catch(() => {});
    return run;
  }
}

const slot = (owner: string, key: string) => `${owner}\u0000${key}`;

/** The record's JSON with its fields in one order, created_at last (createdAtOf relies on it). */
const canonical = (r: IdempotencyRecord) =>
  JSON.stringify({
    owner: r.owner,
    key: r.key,
    request_hash: r.request_hash,
    review_id: r.review_id,
    created_at: r.created_at,
  });
/** created_at of a canonical() line: the last string value, `..."created_at":"<iso>"}`. */
const createdAtOf = (line: string) => line.slice(line.lastIndexOf('"', line.length - 3) + 1, -2);
/** `2026-11-23T20:21:03.000Z` → `2026-11-23T20`. */
const hourOf = (iso: string) => iso.slice(0, 13);

function parseEntry(text: string): IdempotencyRecord | Tombstone | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as Partial<IdempotencyRecord & Tombstone> | null;
  if (typeof v !== 'object' || v === null || typeof v.owner !== 'string' || typeof v.key !== 'string') return undefined;
  if (v.deleted === true) return { owner: v.owner, key: v.key, deleted: true };
  if (typeof v.review_id !== 'string' || typeof v.request_hash !== 'string' || typeof v.created_at !== 'string')
    return undefined;
  return { owner: v.owner, key: v.key, request_hash: v.request_hash, review_id: v.review_id, created_at: v.created_at };
}
