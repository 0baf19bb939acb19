// The new side of a hunk as source text: its context and added lines (deleted ones left out), in
// order, with each row's new-file line and whether the diff added it. What the structural stage
// parses: a fragment of the file, which tree-sitter parses tolerantly.
import type { DiffIndex, IndexedHunk } from '../diff/line-table.ts';
import { ADDED, DELETED } from '../diff/line-table.ts';

export interface HunkSource {
  text: string;
  /** Per row of `text`: its new-file line. */
  lines: Int32Array;
  /** Per row: 1 when the diff added it. */
  added: Uint8Array;
  /** Per row: the line as the diff has it (before any dedent). */
  rows: string[];
  /** Columns taken off the start of every row (common indentation, for languages where it is syntax). */
  dedent: number;
  /** Rows of text before the hunk's first (a prelude the language needs). */
  preludeRows: number;
  /** Rows left out of the parse (blank in `text`) for their length: minified or generated code. */
  longRows: number;
}

/**
 * Rows longer than this are parsed as blank: tree-sitter's error recovery on one long line of
 * broken code grows faster than its length (test/bench/README.md),
 * and code people write and review keeps its lines far shorter.
 */
export const MAX_PARSED_ROW = 2000;

export function hunkSource(
  diff: DiffIndex,
  hunk: IndexedHunk,
  options: {
    prelude?: string;
    dedent?: boolean;
    blockComments?: boolean;
    wrap?: { unless: RegExp; before: string; after: string };
  },
): HunkSource {
  const { start, end, kind, newLine } = diff.lines;
  const rows: number[] = [];
  for (let k = hunk.first; k < hunk.first + hunk.count; k++) if (kind[k] !== DELETED) rows.push(k);
  let dedent = 0;
  if (options.dedent) {
    dedent = Number.POSITIVE_INFINITY;
    for (const k of rows) {
      let i = start[k]!;
      while (i < end[k]! && (diff.text[i] === ' ' || diff.text[i] === '\t')) i++;
      if (i < end[k]!) dedent = Math.min(dedent, i - start[k]!);
    }
    if (dedent === Number.POSITIVE_INFINITY) dedent = 0;
  }
  const lines = rows.map((k) => diff.text.slice(start[k], end[k]));
  let longRows = 0;
  const texts = lines.map((line) => {
    if (line.length > MAX_PARSED_ROW) {
      longRows++;
      return '';
    }
    return dedent > 0 ? line.slice(dedent) : line;
  });
  const body = texts.join('\n');
  let prelude = options.prelude && !texts.some((text) => text.includes('<?')) ? options.prelude : '';
  let after = '';
  if (options.wrap && !options.wrap.unless.test(body)) {
    prelude = options.wrap.before;
    after = options.wrap.after;
  }
  // a hunk that starts inside a block comment (its first delimiter closes one): open it first, so
  // that the comment's words (a `command` in backticks, an example) are not read as code
  if (options.blockComments && startsInBlockComment(body)) prelude += '/*\n';
  const preludeRows = prelude ? prelude.split('\n').length - 1 : 0;
  return {
    text: prelude + body + after,
    lines: Int32Array.from(rows, (k) => newLine[k]!),
    added: Uint8Array.from(rows, (k) => (kind[k] === ADDED ? 1 : 0)),
    rows: lines,
    dedent,
    preludeRows,
    longRows,
  };
}

/** The first block-comment delimiter of the text closes a comment (`*/ ` before any `; /*`). */
function startsInBlockComment(text: string): boolean {
  const close = text.indexOf('*/');
  if (close < 0) return false;
  const open = text.indexOf('/*');
  return open < 0 || close < open;
}
