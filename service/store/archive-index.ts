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

export class ArchiveIndex {
  #size = 0;
  #ids: string[] = [];
  #owner = new Uint32Array(0);
  #status = new Uint32Array(0);
  #repository = new Uint32Array(0);
  #updated = new Float64Array(0);
  #day = new Uint32Array(0);
  #offset = new Float64Array(0);
  #length = new Uint32Array(0);
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
    const pick = <T extends Uint32Array | Float64Array>(column: T, make: (n: number) => T): T => {
      const out = make(Math.max(kept.length, 1024));
      for (let k = 0; k < kept.length; k++) out[k] = column[kept[k]!]!;
      return out;
    };
    this.#ids = kept.map((i) => ids[i]!);
    this.#owner = pick(this.#owner, (n) => new Uint32Array(n));
    this.#status = pick(this.#status, (n) => new Uint32Array(n));
    this.#repository = pick(this.#repository, (n) => new Uint32Array(n));
    this.#updated = pick(this.#updated, (n) => new Float64Array(n));
    this.#day = pick(this.#day, (n) => new Uint32Array(n));
    this.#offset = pick(this.#offset, (n) => new Float64Array(n));
    this.#length = pick(this.#length, (n) => new Uint32Array(n));
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
    return this.#strings[this.#owner[slot]!]!;
  }
  status(slot: number): StoredReview['status'] {
    // interned from an entry's status, which is one
    return this.#strings[this.#status[slot]!]! as StoredReview['status'];
  }
  repository(slot: number): string {
    return this.#strings[this.#repository[slot]!]!;
  }
  updatedMs(slot: number): number {
    return this.#updated[slot]!;
  }
  day(slot: number): string {
    return this.#strings[this.#day[slot]!]!;
  }
  location(slot: number): ArchiveLocation {
    return { day: this.#strings[this.#day[slot]!]!, offset: this.#offset[slot]!, length: this.#length[slot]! };
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
      if (this.#day[slot] !== dayId) continue;
      const offset = moved.get(this.#offset[slot]!);
      if (offset !== undefined) this.#offset[slot] = offset;
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
    this.#owner[slot] = this.#intern(entry.owner);
    this.#status[slot] = this.#intern(entry.status);
    this.#repository[slot] = this.#intern(entry.repository);
    this.#updated[slot] = entry.updatedMs;
    this.#day[slot] = this.#intern(entry.at.day);
    this.#offset[slot] = entry.at.offset;
    this.#length[slot] = entry.at.length;
  }

  #move(from: number, to: number) {
    this.#ids[to] = this.#ids[from]!;
    this.#owner[to] = this.#owner[from]!;
    this.#status[to] = this.#status[from]!;
    this.#repository[to] = this.#repository[from]!;
    this.#updated[to] = this.#updated[from]!;
    this.#day[to] = this.#day[from]!;
    this.#offset[to] = this.#offset[from]!;
    this.#length[to] = this.#length[from]!;
  }

  #reserve(capacity: number) {
    if (capacity <= this.#owner.length) return;
    const next = Math.max(capacity, Math.ceil(this.#owner.length * 1.25), 1024);
    const grow = <T extends Uint32Array | Float64Array>(old: T, make: (n: number) => T): T => {
      const array = make(next);
      array.set(old.subarray(0, this.#size) as never);
      return array;
    };
    this.#owner = grow(this.#owner, (n) => new Uint32Array(n));
    this.#status = grow(this.#status, (n) => new Uint32Array(n));
    this.#repository = grow(this.#repository, (n) => new Uint32Array(n));
    this.#updated = grow(this.#updated, (n) => new Float64Array(n));
    this.#day = grow(this.#day, (n) => new Uint32Array(n));
    this.#offset = grow(this.#offset, (n) => new Float64Array(n));
    this.#length = grow(this.#length, (n) => new Uint32Array(n));
  }
}
