// Line review: the candidate lines of one file, lexed at most once each and checked by the rules whose
// keywords they hold; lines for the scan rules (secretlint) are gathered for one batch later.
import type { DiffIndex, IndexedFile, IndexedHunk } from './diff/line-table.ts';
import type { DiffLine } from './diff/model.ts';
import { DELETED } from './diff/line-table.ts';
import type { Candidate } from './candidates.ts';
import type { RawFinding } from './finish.ts';
import type { FilePlan } from './plan.ts';
import type { CommentSyntax } from './rules/languages.ts';
import type { LexedLine } from './rules/lexer.ts';
import { BLOCK_COMMENT_REACH, commentSyntaxOf, hasBlockComments, insideBlockComment, lexLine } from './rules/lexer.ts';
import type { AddedLine, ScanRule } from './rules/rule.ts';

/**
 * What line rules read of one line: its first 64 KiB. Longer lines are minified or generated code
 * and data, which nobody reviews by eye either (large-file and generated-file report such files);
 * the cap bounds what any rule can cost on one line. Secrets are looked for in the whole line, in
 * pieces of this length that overlap by SECRET_OVERLAP.
 */
export const MAX_LINE_READ = 64 * 1024;
/** A secret longer than this that straddles two pieces of a very long line can be missed. */
export const SECRET_OVERLAP = 1024;

/** A line, or a piece of a very long one, a scan rule will read, with what a finding on it needs. */
export interface ScanInput {
  path: string;
  /** What the rule reads: the line, or a piece of it starting at `offset`. */
  text: string;
  offset: number;
  /** The whole line. */
  line: string;
  newLine: number;
  above: string | undefined;
}

/** The line in pieces of at most MAX_LINE_READ characters that overlap by SECRET_OVERLAP (one piece, usually). */
function* pieces(text: string): Generator<{ offset: number; text: string }> {
  if (text.length <= MAX_LINE_READ) {
    yield { offset: 0, text };
    return;
  }
  for (let offset = 0; ; offset += MAX_LINE_READ - SECRET_OVERLAP) {
    yield { offset, text: text.slice(offset, offset + MAX_LINE_READ) };
    if (offset + MAX_LINE_READ >= text.length) return;
  }
}

/** What line rules read of a line. */
function readable(text: string): string {
  return text.length > MAX_LINE_READ ? text.slice(0, MAX_LINE_READ) : text;
}

export function lineText(diff: DiffIndex, k: number): string {
  return diff.text.slice(diff.lines.start[k], diff.lines.end[k]);
}

/** The hunk of `file` that holds table line `k`. */
export function hunkOf(file: IndexedFile, k: number): IndexedHunk {
  let lo = 0;
  let hi = file.hunks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (file.hunks[mid]!.first <= k) lo = mid;
    else hi = mid - 1;
  }
  return file.hunks[lo]!;
}

/** The text of the line above table line `k` in its hunk (context or added), for suppression comments. */
export function lineAbove(diff: DiffIndex, file: IndexedFile, k: number): string | undefined {
  const hunk = hunkOf(file, k);
  for (let i = k - 1; i >= hunk.first; i--) if (diff.lines.kind[i] !== DELETED) return lineText(diff, i);
  return undefined;
}

/** The lines above table line `k` in its hunk, nearest first, without deleted ones; at most BLOCK_COMMENT_REACH table lines up. */
function* linesAbove(diff: DiffIndex, file: IndexedFile, k: number): Generator<string> {
  const stop = Math.max(hunkOf(file, k).first, k - BLOCK_COMMENT_REACH);
  for (let i = k - 1; i >= stop; i--) if (diff.lines.kind[i] !== DELETED) yield lineText(diff, i);
}

/** What the lines of one file share: the diff, their hunks, and facts worked out once, when first asked. */
class FileView {
  readonly memo = new Map<unknown, unknown>();
  #hunkMemos: Map<IndexedHunk, Map<unknown, unknown>> | undefined;
  #allLines: DiffLine[] | undefined;
  #removed: Set<string> | undefined;

  readonly diff: DiffIndex;
  readonly file: IndexedFile;
  readonly path: string;
  readonly syntax: CommentSyntax;

  constructor(diff: DiffIndex, file: IndexedFile, path: string, syntax: CommentSyntax) {
    this.diff = diff;
    this.file = file;
    this.path = path;
    this.syntax = syntax;
  }

  hunkMemo(hunk: IndexedHunk): Map<unknown, unknown> {
    this.#hunkMemos ??= new Map();
    let memo = this.#hunkMemos.get(hunk);
    if (!memo) this.#hunkMemos.set(hunk, (memo = new Map()));
    return memo;
  }

  lineOf(k: number): DiffLine {
    const { kind, newLine } = this.diff.lines;
    return {
      kind: String.fromCharCode(kind[k]!) as DiffLine['kind'],
      text: readable(lineText(this.diff, k)),
      newLine: newLine[k]!,
    };
  }

  /** Every line the diff shows of the file. */
  lines(): DiffLine[] {
    if (!this.#allLines) {
      this.#allLines = [];
      for (const h of this.file.hunks)
        for (let k = h.first; k < h.first + h.count; k++) this.#allLines.push(this.lineOf(k));
    }
    return this.#allLines;
  }

  /** The file's removed lines, trimmed. */
  removedLines(): Set<string> {
    if (!this.#removed) {
      this.#removed = new Set();
      const { kind } = this.diff.lines;
      for (const h of this.file.hunks)
        for (let k = h.first; k < h.first + h.count; k++)
          if (kind[k] === DELETED) this.#removed.add(lineText(this.diff, k).trim());
    }
    return this.#removed;
  }
}

/**
 * A candidate line as line rules see it. A class, not an object literal with closures: the
 * engine makes one per candidate line, and getters on a prototype cost no allocation.
 */
class CandidateLine implements AddedLine {
  readonly text: string;
  readonly keywords: readonly string[];
  readonly indexInHunk: number;
  readonly hunkMemo: Map<unknown, unknown>;
  readonly #view: FileView;
  readonly #k: number;
  readonly #hunk: IndexedHunk;
  /** The whole line (`text` is what rules read of it). */
  readonly #whole: string;
  #lexed: LexedLine | undefined;

  constructor(view: FileView, k: number, hunk: IndexedHunk, whole: string, keywords: readonly string[]) {
    this.#view = view;
    this.#k = k;
    this.#hunk = hunk;
    this.#whole = whole;
    this.keywords = keywords;
    this.text = readable(whole);
    this.indexInHunk = k - hunk.first;
    this.hunkMemo = view.hunkMemo(hunk);
  }

  get path(): string {
    return this.#view.path;
  }
  get fileMemo(): Map<unknown, unknown> {
    return this.#view.memo;
  }
  get code(): string {
    return this.#lex().code;
  }
  get comment(): string {
    return this.#lex().comment;
  }
  /** Lexed when a rule first reads code or comment: rules that read the raw text (secrets) need none. */
  #lex(): LexedLine {
    this.#lexed ??= lexLine(this.text, this.#view.syntax);
    return this.#lexed;
  }
  wasRemoved(): boolean {
    return this.#view.removedLines().has(this.#whole.trim());
  }
  fileLines(): readonly DiffLine[] {
    return this.#view.lines();
  }
  lineAt(offset: number): DiffLine | undefined {
    const k = this.#k + offset;
    if (k < this.#hunk.first || k >= this.#hunk.first + this.#hunk.count) return undefined;
    return this.#view.lineOf(k);
  }
}

/** Runs the plan's line rules on the candidate lines of `file` and gathers its scan rules' lines. */
export function reviewLines(
  diff: DiffIndex,
  file: IndexedFile,
  path: string,
  plan: FilePlan,
  prefilter: boolean,
  candidates: readonly Candidate[],
  raw: RawFinding[],
  scanInputs: Map<ScanRule, ScanInput[]>,
): void {
  if (candidates.length === 0) return;
  const syntax = commentSyntaxOf(path);
  const blockComments = hasBlockComments(syntax);
  const { newLine } = diff.lines;
  const view = new FileView(diff, file, path, syntax);
  const allLine = plan.line.map((_, i) => i);
  const allScan = plan.scan.map((_, i) => i);
  for (const { k, keywords } of candidates) {
    const text = lineText(diff, k);
    // The rules that have a keyword found on the line (every rule without a pre-filter), in rule order.
    let lineRules = allLine;
    let scanRules = allScan;
    if (!plan.everyLine) {
      const first = plan.rulesOf.get(keywords[0]!)!;
      lineRules = first.line;
      scanRules = first.scan;
      if (keywords.length > 1) {
        lineRules = [...new Set(keywords.flatMap((keyword) => plan.rulesOf.get(keyword)!.line))].sort((a, b) => a - b);
        scanRules = [...new Set(keywords.flatMap((keyword) => plan.rulesOf.get(keyword)!.scan))].sort((a, b) => a - b);
      }
    }
    for (const s of scanRules) {
      const rule = plan.scan[s]!;
      // The rule's own keywords found on the line.
      const found = plan.everyLine
        ? rule.keywords
        : keywords.filter((keyword) => plan.rulesOf.get(keyword)!.scan.includes(s));
      for (const piece of pieces(text)) {
        if (!prefilter || rule.accepts(piece.text, found)) {
          scanInputs
            .get(rule)!
            .push({ path, ...piece, line: text, newLine: newLine[k]!, above: lineAbove(diff, file, k) });
        }
      }
    }
    if (lineRules.length === 0) continue;
    const line = new CandidateLine(view, k, hunkOf(file, k), text, keywords);
    for (const r of lineRules) {
      const rule = plan.line[r]!;
      const match = rule.check(line);
      if (!match) continue;
      // A match in code on a line of a block comment (a JSDoc example) is none.
      if ((rule.reads ?? 'code') === 'code' && blockComments && insideBlockComment(linesAbove(diff, file, k))) continue;
      raw.push({
        rule,
        file: path,
        line: newLine[k]!,
        column: match.column,
        endColumn: match.endColumn,
        message: match.message ?? rule.message,
        text,
        above: lineAbove(diff, file, k),
        ...(match.secret ? { secret: match.secret } : {}),
        ...(match.generic ? { generic: true } : {}),
      });
    }
  }
}
