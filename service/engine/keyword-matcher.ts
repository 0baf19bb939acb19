// The engine's one pass over a diff: where the rules' keywords occur. One regular expression, the
// keywords as an alternation, run by V8's own regex engine: measured against the multi-pattern
// library modern-ahocorasick on the engine benchmark's 1 MB diff (~1,000 keywords), it was faster
// to build and to run (the library matches grapheme clusters through Intl.Segmenter once the text
// holds a character above U+007F), and costs no dependency. Figures: test/bench/README.md.
import { escapeRegExp } from './rules/secrets/format.ts';

export class KeywordMatcher {
  /** The distinct keywords, longest first: a found keyword is reported by its index here. */
  readonly keywords: readonly string[];
  readonly #indexOf: Map<string, number>;
  readonly #alternation: RegExp;
  /** For each keyword: the other keywords it begins with ("sk_live_" begins with "sk_"). */
  readonly #shorterAtSameStart: readonly (readonly number[])[];

  /** Keywords are case-sensitive literals; any characters. */
  constructor(keywords: Iterable<string>) {
    this.keywords = [...new Set(keywords)]
      .filter((keyword) => keyword.length > 0)
      .sort((a, b) => b.length - a.length || (a < b ? -1 : a > b ? 1 : 0));
    this.#indexOf = new Map(this.keywords.map((keyword, i) => [keyword, i]));
    // Longest first: where several keywords start at one place, the regex reports the longest,
    // and the others there are its beginnings.
    this.#alternation = new RegExp(this.keywords.map(escapeRegExp).join('|') || '(?!)', 'g');
    this.#shorterAtSameStart = this.keywords.map((keyword) => {
      const shorter: number[] = [];
      for (let length = 1; length < keyword.length; length++) {
        const i = this.#indexOf.get(keyword.slice(0, length));
        if (i !== undefined) shorter.push(i);
      }
      return shorter;
    });
  }

  /**
   * Every occurrence of a keyword inside `text[from .. to)`, overlapping ones included, as pairs
   * in one array: its offset in `text`, then the index of the keyword in `keywords`. In text order.
   */
  scan(text: string, from = 0, to = text.length): number[] {
    const found: number[] = [];
    // A slice, so that the search stops at `to` (V8 makes it a view of the text, not a copy).
    const range = from === 0 && to === text.length ? text : text.slice(from, to);
    const alternation = this.#alternation;
    alternation.lastIndex = 0;
    for (let match = alternation.exec(range); match !== null; match = alternation.exec(range)) {
      const at = match.index;
      const keyword = this.#indexOf.get(match[0])!;
      found.push(from + at, keyword);
      for (const shorter of this.#shorterAtSameStart[keyword]!) found.push(from + at, shorter);
      // The next search starts one character on: keywords may overlap ("xoxe.xoxb-" holds "xoxb-").
      alternation.lastIndex = at + 1;
    }
    return found;
  }
}
