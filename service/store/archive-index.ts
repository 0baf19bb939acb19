// What the store keeps in memory of an archived review: its id, the fields listing filters on and
// retention decides by, and where its line is in the archive; the full record is read from the
// segment when asked for. Parallel columns sorted by id (typed arrays, and one table for the
// strings many reviews share) instead of an object per review: 100,000 archived reviews take about
// 7 MB instead of about 40 MB of objects, and the heap stays small enough that V8 does not grow it
// (test/bench/store-scale.ts).
import type { ArchiveLocation } from './review-archive.ts';
import type { StoredReview } from './types.ts';

export interface ArchiveEntry {
  review_id: string;
  owner: string;
  status: StoredReview['status'];
  repository: string;
  /** updated_at as milliseconds since the epoch. */
  updatedMs: number;
  at: ArchiveLocation;
}

export const entryOf = (review: StoredReview, at: ArchiveLocation): ArchiveEntry => ({
  review_id: review.review_id,
  owner: review.owner,
  status: review.status,
  repository: review.repository,
  updatedMs: Date.parse(review.updated_at),
  at,
});

/** One value per slot for each field; owner, status, repository and day are ids into the string table. */
interface Columns {
  owner: Uint32Array;
  status: Uint32Array;
  repository: Uint32Array;
  updated: Float64Array;
  day: Uint32Array;
  offset: Float64Array;
  length: Uint32Array;
}
const COLUMN_NAMES = ['owner', 'status', 'repository', 'updated', 'day', 'offset', 'length'] as const;
const newColumns = (capacity: number): Columns => ({
  owner: new Uint32Array(capacity),
  status: new Uint32Array(capacity),
  repository: new Uint32Array(capacity),
  updated: new Float64Array(capacity),
  day: new Uint32Array(capacity),
  offset: new Float64Array(capacity),
  length: new Uint32Array(capacity),
});

export class ArchiveIndex {
  #size = 0;
  #ids: string[] = [];
  #columns = newColumns(0);
  /** owner, status, repository and day values, each kept once. */
  readonly #strings: string[] = [];
  readonly #stringIds = new Map<string, number>();

  get size(): number {
    return this.#size;
  }

  /** Appends an entry while loading, in any order; seal() sorts them. */
  push(entry: ArchiveEntry): void {
    this.#reserve(this.#size + 1);
    this.#set(this.#size++, entry);
  }

  /** Sorts what push() added by id; of two entries with one id, the one pushed later wins. */
  seal(): void {
    const ids = this.#ids;
    const order = Array.from({ length: this.#size }, (_, i) => i).sort((a, b) => {
      const x = ids[a]!;
      const y = ids[b]!;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    const kept: number[] = [];
    for (const i of order) {
      if (kept.length > 0 && ids[kept[kept.length - 1]!] === ids[i]) kept[kept.length - 1] = i;
      else kept.push(i);
    }
    const picked = newColumns(Math.max(kept.length, 1024));
    for (const name of COLUMN_NAMES) {
      const from = this.#columns[name];
      const to = picked[name];
      for (let k = 0; k < kept.length; k++) to[k] = from[kept[k]!]!;
    }
    this.#ids = kept.map((i) => ids[i]!);
    this.#columns = picked;
    this.#size = kept.length;
  }

  /** The slot of an id, or -1. */
  find(id: string): number {
    let lo = 0;
    let hi = this.#size - 1;
    const ids = this.#ids;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const at = ids[mid]!;
      if (at < id) lo = mid + 1;
      else if (at > id) hi = mid - 1;
      else return mid;
    }
    return -1;
  }

  /** The first slot whose id is not below `id` (the size when there is none). */
  lowerBound(id: string): number {
    let lo = 0;
    let hi = this.#size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#ids[mid]! < id) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  id(slot: number): string {
    return this.#ids[slot]!;
  }
  owner(slot: number): string {
    return this.#strings[this.#columns.owner[slot]!]!;
  }
  status(slot: number): StoredReview['status'] {
    // interned from an entry's status, which is one
    return this.#strings[this.#columns.status[slot]!]! as StoredReview['status'];
  }
  repository(slot: number): string {
    return this.#strings[this.#columns.repository[slot]!]!;
  }
  updatedMs(slot: number): number {
    return this.#columns.updated[slot]!;
  }
  day(slot: number): string {
    return this.#strings[this.#columns.day[slot]!]!;
  }
  location(slot: number): ArchiveLocation {
    return { day: this.day(slot), offset: this.#columns.offset[slot]!, length: this.#columns.length[slot]! };
  }

  /**
   * How many entries belong to `owner` (and have `status` and `repository`, when given), compared
   * as ids of the string table: no string is read per entry.
   */
  count(owner: string, status?: string, repository?: string): number {
    const ownerId = this.#stringIds.get(owner);
    const statusId = status === undefined ? -1 : this.#stringIds.get(status);
    const repositoryId = repository === undefined ? -1 : this.#stringIds.get(repository);
    if (ownerId === undefined || statusId === undefined || repositoryId === undefined) return 0;
    const columns = this.#columns;
    let n = 0;
    for (let slot = 0; slot < this.#size; slot++) {
      if (columns.owner[slot] !== ownerId) continue;
      if (statusId >= 0 && columns.status[slot] !== statusId) continue;
      if (repositoryId >= 0 && columns.repository[slot] !== repositoryId) continue;
      n++;
    }
    return n;
  }

  /** Adds entries (a later one of an id replaces an earlier one, here or already in the index). */
  add(entries: ArchiveEntry[]): void {
    const fresh: ArchiveEntry[] = [];
    const byId = new Map<string, ArchiveEntry>();
    for (const entry of entries) byId.set(entry.review_id, entry);
    for (const entry of byId.values()) {
      const slot = this.find(entry.review_id);
      if (slot >= 0) this.#set(slot, entry);
      else fresh.push(entry);
    }
    if (fresh.length === 0) return;
    fresh.sort((a, b) => (a.review_id < b.review_id ? -1 : 1));
    // Merge from the end, in place: nearly always the new ids are the largest and nothing moves.
    this.#reserve(this.#size + fresh.length);
    let i = this.#size - 1;
    let j = fresh.length - 1;
    let to = this.#size + fresh.length - 1;
    while (j >= 0) {
      if (i >= 0 && this.#ids[i]! > fresh[j]!.review_id) this.#move(i--, to--);
      else this.#set(to--, fresh[j--]!);
    }
    this.#size += fresh.length;
  }

  /** Removes the slots for which `doomed` is true. */
  removeWhere(doomed: (slot: number) => boolean): void {
    let to = 0;
    for (let from = 0; from < this.#size; from++) {
      if (doomed(from)) continue;
      if (to !== from) this.#move(from, to);
      to++;
    }
    this.#ids.length = to;
    this.#size = to;
  }

  /** Where the lines of a rewritten segment moved (old offset to new). */
  relocate(day: string, moved: Map<number, number>): void {
    const dayId = this.#stringIds.get(day);
    if (dayId === undefined) return;
    for (let slot = 0; slot < this.#size; slot++) {
      if (this.#columns.day[slot] !== dayId) continue;
      const offset = moved.get(this.#columns.offset[slot]!);
      if (offset !== undefined) this.#columns.offset[slot] = offset;
    }
  }

  #intern(value: string): number {
    let id = this.#stringIds.get(value);
    if (id === undefined) {
      id = this.#strings.length;
      this.#strings.push(value);
      this.#stringIds.set(value, id);
    }
    return id;
  }

  #set(slot: number, entry: ArchiveEntry) {
    this.#ids[slot] = entry.review_id;
    this.#columns.owner[slot] = this.#intern(entry.owner);
    this.#columns.status[slot] = this.#intern(entry.status);
    this.#columns.repository[slot] = this.#intern(entry.repository);
    this.#columns.updated[slot] = entry.updatedMs;
    this.#columns.day[slot] = this.#intern(entry.at.day);
    this.#columns.offset[slot] = entry.at.offset;
    this.#columns.length[slot] = entry.at.length;
  }

  #move(from: number, to: number) {
    this.#ids[to] = this.#ids[from]!;
    for (const name of COLUMN_NAMES) {
      const column = this.#columns[name];
      column[to] = column[from]!;
    }
  }

  #reserve(capacity: number) {
    if (capacity <= this.#columns.owner.length) return;
    const grown = newColumns(Math.max(capacity, Math.ceil(this.#columns.owner.length * 1.25), 1024));
    for (const name of COLUMN_NAMES) grown[name].set(this.#columns[name].subarray(0, this.#size));
    this.#columns = grown;
  }
}
