// Candidate lines: the added lines worth reading, and the keywords found on each. One keyword
// sieve reads the hunks of every file at once (about one line in a hundred has a keyword); a
// sweep assigns each occurrence to its line and file.
import type { DiffIndex, IndexedFile } from './diff/line-table.ts';
import { ADDED } from './diff/line-table.ts';
import { KeywordSieve, ScanScratch } from './keyword-sieve.ts';
import type { FilePlan } from './plan.ts';

/** An added line worth reading (table index `k`) and the distinct keywords found on it (none: read by every rule). */
export interface Candidate {
  k: number;
  keywords: string[];
}

/** Sieves by the set of plans they serve: costly to build (tens of thousands of table entries), the same for every review. */
export class SieveCache {
  private readonly sieves = new Map<string, KeywordSieve>();
  private readonly scratch = new ScanScratch();

  /** One sieve for the keywords of all these plans: a review reads the diff's text once. */
  sieveFor(plans: readonly FilePlan[]): KeywordSieve {
    const key = plans
      .map((plan) => plan.id)
      .sort((a, b) => a - b)
      .join(' ');
    let sieve = this.sieves.get(key);
    if (!sieve) {
      if (this.sieves.size >= 64) this.sieves.clear();
      sieve = new KeywordSieve(
        plans.flatMap((plan) => [...plan.rulesOf.keys()]),
        this.scratch,
      );
      this.sieves.set(key, sieve);
    }
    return sieve;
  }
}

/** One past the table index of the last line of `file`. */
export function lineEndOf(file: IndexedFile): number {
  const last = file.hunks[file.hunks.length - 1]!;
  return last.first + last.count;
}

/**
 * For each file: its added lines that contain a keyword of its rules, with the keywords found.
 * A file whose plan has no pre-filter gets all its added lines.
 */
export function candidateLines(
  diff: DiffIndex,
  files: readonly { file: IndexedFile; plan: FilePlan }[],
  sieves: SieveCache,
): Candidate[][] {
  const { start, end, kind } = diff.lines;
  const out = files.map((): Candidate[] => []);
  const sieved: number[] = [];
  files.forEach(({ file, plan }, f) => {
    if (!plan.everyLine) sieved.push(f);
    else
      for (let k = file.hunks[0]!.first; k < lineEndOf(file); k++)
        if (kind[k] === ADDED) out[f]!.push({ k, keywords: [] });
  });
  if (sieved.length === 0) return out;

  const sieve = sieves.sieveFor([...new Set(sieved.map((f) => files[f]!.plan))]);
  const firstLine = files[sieved[0]!]!.file.hunks[0]!.first;
  const tableEnd = lineEndOf(files[sieved[sieved.length - 1]!]!.file);
  const found = sieve.scan(diff.text, start[firstLine]!, end[tableEnd - 1]!);
  if (found.length === 0) return out;

  // Sorted by offset, the occurrences are assigned to lines and files in one sweep.
  sortByOffset(found);
  let k = firstLine;
  let s = 0;
  for (let i = 0; i < found.length / 2; i++) {
    const at = found[2 * i]!;
    while (k < tableEnd && end[k]! < at) k++;
    // Keywords lie inside a line's text: an occurrence that starts before it (in a header) is none.
    if (k >= tableEnd || kind[k] !== ADDED || start[k]! > at) continue;
    while (s < sieved.length && lineEndOf(files[sieved[s]!]!.file) <= k) s++;
    const { file, plan } = files[sieved[s]!]!;
    // A line of a file that is not sieved (no rules, or every line read anyway).
    if (file.hunks[0]!.first > k) continue;
    const keyword = sieve.keywords[found[2 * i + 1]!]!;
    if (!plan.rulesOf.has(keyword)) continue;
    const lines = out[sieved[s]!]!;
    const previous = lines[lines.length - 1];
    // Each keyword once per line, however often it occurs there: what reads the line reads it once.
    if (previous && previous.k === k) {
      if (!previous.keywords.includes(keyword)) previous.keywords.push(keyword);
    } else lines.push({ k, keywords: [keyword] });
  }
  return out;
}

/**
 * Sorts (offset, keyword) pairs by offset, keeping the order of equal ones. The sieve finds them
 * nearly in order (each at most a keyword's length before where it was found): an insertion sort
 * moves each a few places at most.
 */
function sortByOffset(pairs: number[]): void {
  for (let i = 2; i < pairs.length; i += 2) {
    const at = pairs[i]!;
    if (pairs[i - 2]! <= at) continue;
    const keyword = pairs[i + 1]!;
    let j = i - 2;
    for (; j >= 0 && pairs[j]! > at; j -= 2) {
      pairs[j + 2] = pairs[j]!;
      pairs[j + 3] = pairs[j + 1]!;
    }
    pairs[j + 2] = at;
    pairs[j + 3] = keyword;
  }
}
