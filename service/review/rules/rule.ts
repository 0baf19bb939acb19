// What a rule is. Most rules are data: an id, a severity, the files they apply to, keywords as a
// cheap pre-filter and a pattern over one view of an added line (its code, its comment, or its text).
import type { Severity } from '../../api/schemas.ts';
import type { DiffLine, FileDiff, ParsedDiff } from '../diff/parse.ts';
import type { LexedLine } from './lexer.ts';

export interface RuleMeta {
  id: string;
  severity: Severity;
  /** One line: what the rule finds. */
  summary: string;
  /** What to do about it. */
  help: string;
}

/** An added line as line rules see it. `code` and `comment` keep the columns of `text`. */
export interface AddedLine extends LexedLine {
  text: string;
  path: string;
  /** The line above in the diff (context or added), if the hunk has one. */
  previous: DiffLine | undefined;
  /** The lines of the hunk (context, deleted, added) and this line's index among them. */
  hunk: readonly DiffLine[];
  index: number;
}

/** Where on the line the rule matched (1-based; endColumn is exclusive, as in SARIF). */
export interface LineMatch {
  column: number;
  endColumn: number;
  /** Replaces the rule's default message (without the `rule-id: ` prefix). */
  message?: string;
}

export interface LineRule extends RuleMeta {
  kind: 'line';
  /** Which files the rule reads. */
  files: (path: string) => boolean;
  /** The rule is only asked about lines containing at least one of these (case-sensitive). */
  keywords: readonly string[];
  /** Default message, without the `rule-id: ` prefix. */
  message: string;
  check(line: AddedLine): LineMatch | null;
}

export interface FileFinding {
  line: number;
  message?: string;
}

/** A rule about a whole file: at most one finding, on one of its added lines. */
export interface FileRule extends RuleMeta {
  kind: 'file';
  message: string;
  check(file: FileDiff, diff: ParsedDiff): FileFinding | null;
}

export interface ScanFinding {
  line: number;
  column: number;
  endColumn: number;
  message: string;
}

/**
 * A rule that scans many lines of one file at once, possibly asynchronously (secretlint).
 * `prefilter` picks the lines worth scanning; the others are never handed to `scan`.
 */
export interface ScanRule extends RuleMeta {
  kind: 'scan';
  files: (path: string) => boolean;
  prefilter: RegExp;
  scan(path: string, lines: ReadonlyArray<{ text: string; newLine: number }>): Promise<ScanFinding[]>;
}

export type Rule = LineRule | FileRule | ScanRule;

/** A rule given as a pattern over one view of the line. */
export interface PatternRuleSpec extends RuleMeta {
  files: (path: string) => boolean;
  keywords: readonly string[];
  message: string;
  /** Which view of the line the pattern reads: code (strings and comments blanked), comment, or raw text. */
  in: 'code' | 'comment' | 'text';
  pattern: RegExp;
  /** The finding is dropped when this matches the line's text (e.g. a reason or an issue reference). */
  unless?: RegExp;
}

export function patternRule(spec: PatternRuleSpec): LineRule {
  const { in: view, pattern, unless, ...meta } = spec;
  return {
    kind: 'line',
    ...meta,
    check(line) {
      const haystack = view === 'code' ? line.code : view === 'comment' ? line.comment : line.text;
      const m = pattern.exec(haystack);
      if (!m) return null;
      if (unless && unless.test(line.text)) return null;
      return { column: m.index + 1, endColumn: m.index + 1 + m[0].length };
    },
  };
}

/** The line up to its comment: code and string literals, for rules that read string arguments. */
export function withoutComment(line: AddedLine): string {
  const start = line.comment.search(/\S/);
  return start < 0 ? line.text : line.text.slice(0, start);
}

/** The character at `index` is code, not inside a string or a comment. */
export function isCodeAt(line: AddedLine, index: number): boolean {
  const c = line.code[index];
  return c !== undefined && c !== ' ' && line.code[index] === line.text[index];
}
