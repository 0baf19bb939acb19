// What a rule is. Most rules are data: an id, a severity, the files they apply to, keywords as a
// cheap pre-filter and a pattern over one view of an added line (its code, its comment, or its text).
import type { YamlDocument, YamlFound } from '../structure/yaml-tree.ts';
import type { Severity } from '../../api/schemas.ts';
import type { DiffLine, FileDiff } from '../diff/model.ts';
import type { SyntaxLanguage } from '../structure/languages.ts';
import type { EngineConfig } from '../types.ts';
import type { LexedLine } from './lexer.ts';

export interface RuleMeta {
  id: string;
  severity: Severity;
  /** One line: what the rule finds. */
  summary: string;
  /** What to do about it. */
  help: string;
  /** Whether a configuration turns the rule on (default: always, unless configured off). */
  enabled?: (config: EngineConfig | undefined) => boolean;
  /** Findings no inline comment can suppress (those about the suppressions themselves). */
  unsuppressible?: boolean;
}

/**
 * An added line as line rules see it. `code` and `comment` keep the columns of `text`. A rule
 * must cost time linear in the line's length (no pattern that retries a long run from each of
 * its characters: test/service/engine/linear-time.test.ts); `text` is at most the first 64 KiB
 * of the line (MAX_LINE_READ).
 */
export interface AddedLine extends LexedLine {
  text: string;
  path: string;
  /** The line `offset` lines away in the same hunk (context, deleted or added), if there is one. */
  lineAt(offset: number): DiffLine | undefined;
  /**
   * The keywords of the file's rules found on the line by the pre-filter, each once; empty when
   * there is no pre-filter (every rule reads every line). Where each occurs is for the rule to find.
   */
  keywords: readonly string[];
  /**
   * The same text (ignoring indentation) is on a line the diff removes from this file: the line
   * was moved or kept, not written now. Worked out once per file, when a rule first asks.
   */
  wasRemoved(): boolean;
  /** The line's position in its hunk (0-based): `lineAt(-indexInHunk)` is the hunk's first line. */
  indexInHunk: number;
  /**
   * Shared by the lines of one hunk in one review: a rule that needs a fact about the whole hunk
   * works it out once (keyed by the rule) instead of once per line, which would be quadratic.
   */
  hunkMemo: Map<unknown, unknown>;
  /** The same for the file: facts about all its hunks, worked out once (with `fileLines`). */
  fileMemo: Map<unknown, unknown>;
  /** Every line of every hunk of the file (context, deleted, added), in order: what the diff shows of it. */
  fileLines(): readonly DiffLine[];
}

/** Where a secret lies on a line: 0-based offsets into its text, `end` exclusive. */
export interface SecretSpan {
  start: number;
  end: number;
}

/** Where on the line the rule matched (1-based; endColumn is exclusive, as in SARIF). */
export interface LineMatch {
  column: number;
  endColumn: number;
  /** Replaces the rule's default message (without the `rule-id: ` prefix). */
  message?: string;
  /** The secret the finding is about: left out of the finding's fingerprint. */
  secret?: SecretSpan;
  /** Recognised by a generic name only: another finding of the same rule on the line (a named kind) is reported instead. */
  generic?: boolean;
}

export interface LineRule extends RuleMeta {
  kind: 'line';
  /** Which files the rule reads. */
  files: (path: string) => boolean;
  /**
   * The rule is only asked about lines containing at least one of these (case-sensitive, three
   * characters at least): every line the rule can match must contain one.
   */
  keywords: readonly string[];
  /** The keywords for one file, when they depend on its language (a subset of `keywords`). */
  keywordsFor?: (path: string) => readonly string[];
  /** Default message, without the `rule-id: ` prefix. */
  message: string;
  /**
   * One problem per file however many lines show it (a committed .env file): only the first
   * finding in a file is reported, and this says how many lines in all.
   */
  oncePerFile?: { more: (lines: number) => string };
  /**
   * Which view of the line the rule's matches are in (default `code`). A match in code on a line
   * inside a block comment (a JSDoc example without leading `*`) is dropped.
   */
  reads?: 'code' | 'comment' | 'text';
  check(line: AddedLine): LineMatch | null;
  /**
   * What the rule looks for in the syntax tree, in the languages the structural stage parses
   * (service/engine/structure/): files of those languages are read there, not line by line.
   */
  syntax?: SyntaxPart;
}

/** What makes a sink's argument dangerous. */
export type SinkDanger =
  /** SQL text built with a value that is not constant (followed through assignments). */
  | 'sql'
  /** Any text built from literal text and a value that is not constant (a fragment of SQL). */
  | 'built-string'
  /** Anything but a constant. */
  | 'not-constant'
  /** The call itself, whatever its arguments. */
  | 'any'
  /** A value made by an MD5 or SHA-1 hasher (its digest), followed through names and receivers. */
  | 'weak-hash'
  /** Shell: the output of a download ($(curl …)), followed through variables. */
  | 'download';

/** Calls a rule reports, in one language. */
export interface SyntaxSink {
  /**
   * Callees as written: `eval` is the bare name only; `.execute` a method of that name on any
   * receiver, or the bare name; `pickle.loads` that qualified name; `new Function` a creation.
   */
  calls: readonly string[];
  /** The argument judged (0-based; default 0), or `any`: the call is reported when any argument is. */
  argument?: number | 'any';
  danger: SinkDanger;
  /** Only calls whose text matches (`shell=True` among subprocess's arguments). */
  when?: RegExp;
  /** Not calls whose text matches (a safe mode passed as an option). */
  unless?: RegExp;
  /** Replaces the rule's message. */
  message?: string;
}

/** What a rule looks for in one language. */
export interface LanguageSyntax {
  /** More keywords for hunks in this language (see SyntaxPart). */
  keywords?: readonly string[];
  sinks?: readonly SyntaxSink[];
  /**
   * A tree-sitter query for what is not a call (a trust manager whose check is empty, HTML
   * assigned to innerHTML): each `@finding` capture is a finding; when the match also captures
   * `@value`, only if the value is not constant.
   */
  query?: string;
  /** The message of the query's findings (default: the rule's). */
  queryMessage?: string;
  /** What makes a query's `@value` dangerous (default: not-constant). */
  queryDanger?: SinkDanger;
  /**
   * YAML, which has no tree-sitter grammar here: what to report in the hunk's parsed documents;
   * `file()` parses every hunk of the file (for a fact about the whole file, once asked).
   */
  yaml?: (documents: readonly YamlDocument[], path: string, file: () => readonly YamlDocument[]) => YamlFound[];
  /**
   * YAML: the shell scripts the documents hold (ci-scripts.ts); the stage parses them with the
   * bash grammar where they stand and runs the rule's bash syntax on them.
   */
  scripts?: (documents: readonly YamlDocument[], path: string) => YamlFound[];
}

export interface SyntaxPart {
  /**
   * A hunk is parsed for the rule only when its text (context and added lines) contains one of
   * these, or of its language's (case-sensitive). Precise keywords keep most reviews from
   * loading a grammar at all.
   */
  keywords: readonly string[];
  /** Hunks that match this are parsed too (for what keywords cannot say: `update … set` in any case). Linear. */
  hunkPattern?: RegExp;
  /** The rule's line part still reads these files too (the syntax finds what lines cannot; one finding per line either way). */
  linesToo?: boolean;
  languages: Partial<Record<SyntaxLanguage, LanguageSyntax>>;
}

export interface FileFinding {
  line: number;
  message?: string;
  /** The line may hold secrets (a .env line): it is left out of the finding's fingerprint. */
  secretLine?: boolean;
}

/** A file of the diff as file rules see it: its headers and a few facts about its lines. */
export interface ReviewedFile extends Omit<FileDiff, 'hunks'> {
  /** Sum of (text length + 1) over every line of every hunk. */
  hunkChars: number;
  /** New-file line of its first added line, or null. */
  firstAddedLine: number | null;
  /** The file's first lines (its first hunk's first few, deleted ones left out, joined by newlines) when the diff starts at its top; else null. */
  head: string | null;
}

/** A rule about a whole file: at most one finding, on one of its added lines. */
export interface FileRule extends RuleMeta {
  kind: 'file';
  message: string;
  /** `files` are all the files of the diff (for rules that look at other files of the change). */
  check(file: ReviewedFile, files: readonly ReviewedFile[]): FileFinding | null;
}

export interface ScanFinding {
  /** Which of the lines given to `scan`. */
  index: number;
  column: number;
  endColumn: number;
  message: string;
  /** The secret the finding is about: left out of the finding's fingerprint. */
  secret?: SecretSpan;
}

/**
 * A rule that scans many lines at once (all the candidate lines of a review), possibly
 * asynchronously (secretlint). Only lines that contain one of `keywords` and pass `accepts` are
 * handed to `scan`.
 */
export interface ScanRule extends RuleMeta {
  kind: 'scan';
  files: (path: string) => boolean;
  /** As a line rule's keywords: every line the rule can match contains one. */
  keywords: readonly string[];
  /** The exact pre-filter of a line, given which of `keywords` it contains. */
  accepts(text: string, found: readonly string[]): boolean;
  scan(lines: ReadonlyArray<{ path: string; text: string }>): Promise<ScanFinding[]>;
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
  /**
   * Shell: a command goes on over lines that end in a backslash (a Dockerfile's RUN, a script's
   * long pipeline). The pattern reads them joined; a match must begin on this line.
   */
  continued?: boolean;
}

/** How many continuation lines a command is read over. */
const MAX_CONTINUED = 20;

/** The line's view with the lines its trailing backslashes continue it over (each backslash and line break a space). */
function continuedText(line: AddedLine, text: string): string {
  let joined = text;
  for (let offset = 1; offset <= MAX_CONTINUED && /\\\s*$/.test(joined); offset++) {
    const next = line.lineAt(offset);
    if (next === undefined || next.kind === '-') break;
    joined = `${joined.replace(/\\\s*$/, ' ')}${next.text}`;
  }
  return joined;
}

/**
 * The rule, except on lines the diff only moved or kept (the same text is removed elsewhere in
 * the file), and except where the line the added one replaces already said it (an edited line
 * that kept its `# type: ignore`): a suppression that was already there is not the change's doing.
 */
export function unlessMoved(rule: LineRule): LineRule {
  return {
    ...rule,
    check(line) {
      const match = rule.check(line);
      if (!match || line.wasRemoved()) return null;
      const said = line.text.slice(match.column - 1, match.endColumn - 1);
      return said.trim() !== '' && replacedLine(line)?.includes(said) ? null : match;
    },
  };
}

/**
 * The removed line an added line takes the place of: in a change block (removed lines, then added
 * lines), the removed line at the same position. Undefined when the added line is new.
 */
function replacedLine(line: AddedLine): string | undefined {
  let added = 0;
  while (line.lineAt(-added - 1)?.kind === '+') added++;
  let removed = 0;
  while (line.lineAt(-added - removed - 1)?.kind === '-') removed++;
  if (added >= removed) return undefined;
  return line.lineAt(-added - removed + added)?.text;
}

export function patternRule(spec: PatternRuleSpec): LineRule {
  const { in: view, pattern, unless, continued, ...meta } = spec;
  return {
    kind: 'line',
    ...meta,
    reads: view,
    check(line) {
      const own = view === 'code' ? line.code : view === 'comment' ? line.comment : line.text;
      const haystack = continued ? continuedText(line, own) : own;
      const m = pattern.exec(haystack);
      if (!m || m.index >= own.length) return null;
      if (unless?.test(line.text)) return null;
      const span = spanOf(m);
      return { column: span.column, endColumn: Math.min(span.endColumn, own.length + 1) };
    },
  };
}

/** The 1-based columns a rule reports for a regex match on the line. */
export function spanOf(match: RegExpExecArray): { column: number; endColumn: number } {
  return { column: match.index + 1, endColumn: match.index + 1 + match[0].length };
}

/** Every upper/lower-case spelling of `word`, as keywords for a case-insensitive pattern. */
export function caseVariants(word: string): string[] {
  let out = [''];
  for (const c of word) {
    const forms = c.toLowerCase() === c.toUpperCase() ? [c] : [c.toLowerCase(), c.toUpperCase()];
    out = out.flatMap((prefix) => forms.map((form) => prefix + form));
  }
  return out;
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
