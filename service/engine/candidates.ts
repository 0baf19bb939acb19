// Candidate lines: the added lines worth reading, and the keywords found on each. One keyword
// matcher reads the hunks of every file at once (about one line in a hundred has a keyword); a
// sweep assigns each occurrence to its line and file.
import type { DiffIndex, IndexedFile } from './diff/line-table.ts';
import { ADDED } from './diff/line-table.ts';
import { KeywordMatcher } from './keyword-matcher.ts';
import type { FilePlan } from './plan.ts';

/** An added line worth reading (table index `k`) and the distinct keywords found on it (none: read by every rule). */
export interface Candidate {
  k: number;
  keywords: string[];
}

/**
 * Matchers by the set of plans they serve: built once, the same for every review (compiling the
 * keywords' regex is not free: test/bench/README.md).
 */
export class MatcherCache {
  readonly #matchers = new Map<string, KeywordMatcher>();

  /** One matcher for the keywords of all these plans: a review reads the diff's text once. */
  matcherFor(plans: readonly FilePlan[]): KeywordMatcher {
    const key = plans
      .map((plan) => plan.id)
      .sort((a, b) => a - b)
      .join(' ');
    let matcher = this.#matchers.get(key);
    if (!matcher) {
      if (this.#matchers.size >= 64) this.#matchers.clear();
      matcher = new KeywordMatcher(plans.flatMap((plan) => [...plan.rulesOf.keys()]));
      this.#matchers.set(key, matcher);
    }
    return matcher;
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
  matchers: MatcherCache,
): Candidate[][] {
  const { start, end, kind } = diff.lines;
  const out = files.map((): Candidate[] => []);
  const filtered: number[] = [];
  files.forEach(({ file, plan }, f) => {
    if (!plan.everyLine) filtered.push(f);
    else
      for (let k = file.hunks[0]!.first; k < lineEndOf(file); k++)
        if (kind[k] === ADDED) out[f]!.push({ k, keywords: [] });
  });
  if (filtered.length === 0) return out;

  const matcher = matchers.matcherFor([...new Set(filtered.map((f) => files[f]!.plan))]);
  const firstLine = files[filtered[0]!]!.file.hunks[0]!.first;
  const tableEnd = lineEndOf(files[filtered[filtered.length - 1]!]!.file);
  const found = matcher.scan(diff.text, start[firstLine]!, end[tableEnd - 1]!);
  if (found.length === 0) return out;

  // In text order, the occurrences are assigned to lines and files in one sweep.
  let k = firstLine;
  let s = 0;
  for (let i = 0; i < found.length / 2; i++) {
    const at = found[2 * i]!;
    while (k < tableEnd && end[k]! < at) k++;
    // Keywords lie inside a line's text: an occurrence that starts before it (in a header) is none.
    if (k >= tableEnd || kind[k] !== ADDED || start[k]! > at) continue;
    while (s < filtered.length && lineEndOf(files[filtered[s]!]!.file) <= k) s++;
    const { file, plan } = files[filtered[s]!]!;
    // A line of a file that is not pre-filtered (no rules, or every line read anyway).
    if (file.hunks[0]!.first > k) continue;
    const keyword = matcher.keywords[found[2 * i + 1]!]!;
    if (!plan.rulesOf.has(keyword)) continue;
    const lines = out[filtered[s]!]!;
    const previous = lines[lines.length - 1];
    // Each keyword once per line, however often it occurs there: what reads the line reads it once.
    if (previous && previous.k === k) {
      if (!previous.keywords.includes(keyword)) previous.keywords.push(keyword);
    } else lines.push({ k, keywords: [keyword] });
  }
  return out;
}
