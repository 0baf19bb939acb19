// Review comments → the diagnostics to show: which file, which line, which range, which rule.
// Plain data in and out (no vscode import), so the mapping is tested under vitest.
import { splitRuleId } from '../../service/api/rule-id.ts';
import path from 'node:path';
import type { ReviewComment, Severity } from '../../service/api/schemas.ts';
import type { LineMap, MappedLine } from './line-mapping.ts';
import type { ColumnSpan, ColumnsOf } from './sarif-columns.ts';

/** One diagnostic to show, in the 0-based coordinates of the editor. */
export interface PlannedDiagnostic {
  /** 0-based line. */
  line: number;
  /** First and past-the-last character of the finding (from the engine), else of the line's text without its indentation. */
  startCharacter: number;
  endCharacter: number;
  severity: Severity;
  /** The rule id, e.g. `no-debugger`; undefined when the message has none. */
  code: string | undefined;
  /** The message without its rule-id prefix (the code shows it). */
  message: string;
  /** The line's text when the review was mapped: what line tracking re-anchors on. */
  lineText: string;
  /** Its line was changed since the reviewed text (uncommitted or unsaved edits): shown marked as such. */
  stale?: boolean;
}

export interface DiagnosticPlan {
  /** Absolute file path → its diagnostics, ordered by line. */
  files: Map<string, PlannedDiagnostic[]>;
  /** Comments on files that are gone (deleted or renamed since), or on lines past their end. */
  unplaced: { comment: ReviewComment; reason: string }[];
  /** Comments left out because they are below the minimum severity. */
  belowMinimum: number;
}

/** How many findings of each severity. */
export type { SeverityCounts } from '../../service/api/severity-counts.ts';

const SEVERITY_RANK: Record<Severity, number> = { info: 0, warning: 1, error: 2 };

export const meetsMinimum = (severity: Severity, minimum: Severity): boolean =>
  SEVERITY_RANK[severity] >= SEVERITY_RANK[minimum];

/** The engine's notice that it stopped at its limit: a comment, not a finding about a line. */
const TRUNCATED_RULE_ID = 'review-truncated';

/** How many findings a capped review left out, and at which limit it stopped. */
export interface Truncation {
  notReported: number;
  limit: number;
}

/**
 * Takes the engine's cap notice (`review-truncated: 5997 more findings were not reported (the limit
 * is 500); …`) out of the comments: it says something about the review, not about its line.
 */
export function splitTruncation(comments: readonly ReviewComment[]): {
  comments: ReviewComment[];
  truncated?: Truncation;
} {
  const findings: ReviewComment[] = [];
  let truncated: Truncation | undefined;
  for (const comment of comments) {
    const { ruleId: code, text } = splitRuleId(comment.message);
    const counts =
      code === TRUNCATED_RULE_ID
        ? /^(\d+) more findings? (?:was|were) not reported \(the limit is (\d+)\)/.exec(text)
        : null;
    if (counts) truncated = { notReported: Number(counts[1]), limit: Number(counts[2]) };
    else findings.push(comment);
  }
  return truncated ? { comments: findings, truncated } : { comments: findings };
}

/**
 * The absolute path of a comment's `file_path` inside `root`, or undefined when it would leave the
 * repository (an absolute path or `..`): a service must not make the editor point elsewhere.
 */
export function resolveInRepository(root: string, filePath: string): string | undefined {
  if (filePath === '' || path.isAbsolute(filePath) || /^[A-Za-z]:/.test(filePath)) return undefined;
  const absolute = path.resolve(root, filePath);
  const relative = path.relative(root, absolute);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? undefined : absolute;
}

/** The span of a line's text without its leading and trailing whitespace (the whole line when blank). */
export function textSpan(lineText: string): { startCharacter: number; endCharacter: number } {
  const start = lineText.length - lineText.trimStart().length;
  const end = lineText.trimEnd().length;
  return end > start
    ? { startCharacter: start, endCharacter: end }
    : { startCharacter: 0, endCharacter: lineText.length };
}

export const splitLines = (text: string): string[] => text.split(/\r?\n/);

/** 1-based SARIF columns → 0-based characters on the line, when they fit on it. */
function columnSpan(
  columns: ColumnSpan | undefined,
  lineText: string,
): { startCharacter: number; endCharacter: number } | undefined {
  if (!columns || columns.end - 1 > lineText.length) return undefined;
  return { startCharacter: columns.start - 1, endCharacter: columns.end - 1 };
}

export interface PlanOptions {
  /**
   * Per absolute path: the reviewed text's lines → the current text's, when they differ (a review
   * of HEAD with uncommitted edits, an editor with unsaved ones). None: the same lines.
   */
  lineMapOf?: (absolutePath: string) => LineMap | undefined;
  /** A comment whose line was changed since the reviewed text: left out (`drop`) or shown marked (`stale`). */
  changedLine?: 'drop' | 'stale';
  /** Where on its line a comment's finding is (from the review's SARIF); none: the line's text. */
  columnsOf?: ColumnsOf;
}

/**
 * Maps comments to diagnostics. `linesOf(absolutePath)` gives the file's current lines, or
 * undefined when the file does not exist.
 */
export function planDiagnostics(
  root: string,
  comments: readonly ReviewComment[],
  minimum: Severity,
  linesOf: (absolutePath: string) => readonly string[] | undefined,
  options: PlanOptions = {},
): DiagnosticPlan {
  const plan: DiagnosticPlan = { files: new Map(), unplaced: [], belowMinimum: 0 };
  for (const comment of comments) {
    if (!meetsMinimum(comment.severity, minimum)) {
      plan.belowMinimum++;
      continue;
    }
    const file = resolveInRepository(root, comment.file_path);
    if (file === undefined) {
      plan.unplaced.push({ comment, reason: 'its path is outside the repository' });
      continue;
    }
    const lines = linesOf(file);
    if (lines === undefined) {
      plan.unplaced.push({ comment, reason: 'the file no longer exists' });
      continue;
    }
    const mapped: MappedLine =
      comment.line >= 1
        ? (options.lineMapOf?.(file)?.(comment.line) ?? { kind: 'kept', line: comment.line })
        : { kind: 'kept', line: comment.line };
    const stale = mapped.kind === 'changed';
    if (stale && options.changedLine !== 'stale') {
      plan.unplaced.push({ comment, reason: 'its line has changed since the reviewed commit' });
      continue;
    }
    // A changed line at the end of the file may have no line left: the last one stands in.
    const line = stale ? Math.min(mapped.line, lines.length) - 1 : mapped.line - 1;
    const lineText = lines[line];
    if (line < 0 || lineText === undefined) {
      plan.unplaced.push({ comment, reason: `the file has only ${lines.length} lines now` });
      continue;
    }
    const { ruleId: code, text } = splitRuleId(comment.message);
    const list = plan.files.get(file) ?? [];
    // Columns hold on the reviewed text only: a changed line gets its whole text.
    const span = (stale ? undefined : columnSpan(options.columnsOf?.(comment), lineText)) ?? textSpan(lineText);
    list.push({
      line,
      ...span,
      severity: comment.severity,
      code,
      message: text,
      lineText,
      ...(stale ? { stale } : {}),
    });
    plan.files.set(file, list);
  }
  for (const list of plan.files.values()) list.sort((a, b) => a.line - b.line);
  return plan;
}
