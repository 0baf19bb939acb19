// Findings as people read them in a list (the CLI's text, github and gitlab outputs, the desktop's
// review detail): errors first, and a rule that fires on many lines of one file shown on its first
// few, the rest folded into one entry. Machine outputs (the API, JSON, SARIF, the editor's
// diagnostics) keep every location.
import type { Severity } from './schemas.ts';

/** What a list entry needs of a finding or a comment. */
export interface Listed {
  rule_id: string;
  file_path: string;
  line: number;
  severity: Severity;
}

/** The rest of one rule's findings in one file, folded into one entry. */
export interface FoldedRest {
  rule_id: string;
  file_path: string;
  severity: Severity;
  /** Their lines, in list order. */
  lines: number[];
}

export type ListEntry<T> = { finding: T } | { folded: FoldedRest };

const RANK: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Errors first, then warnings, then info; within one severity the order given (the engine's: path, line). */
export function errorsFirst<T extends Pick<Listed, 'severity'>>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => RANK[a.severity] - RANK[b.severity]);
}

/**
 * The list with each rule's findings in one file past the `shown`-th folded into one entry, where
 * the next one would have been. `shown` 0 folds nothing.
 */
export function foldedList<T extends Listed>(items: readonly T[], shown: number): ListEntry<T>[] {
  if (shown <= 0) return items.map((finding) => ({ finding }));
  const entries: ListEntry<T>[] = [];
  const counts = new Map<string, number>();
  const folds = new Map<string, FoldedRest>();
  for (const item of items) {
    const key = `${item.rule_id}\0${item.file_path}`;
    const seen = (counts.get(key) ?? 0) + 1;
    counts.set(key, seen);
    if (seen <= shown) {
      entries.push({ finding: item });
      continue;
    }
    const fold = folds.get(key);
    if (fold) fold.lines.push(item.line);
    else {
      const rest = { rule_id: item.rule_id, file_path: item.file_path, severity: item.severity, lines: [item.line] };
      folds.set(key, rest);
      entries.push({ folded: rest });
    }
  }
  return entries;
}

/** Lines a folded entry names before it says "…". */
const LINES_NAMED = 10;

/** `lines 40, 52, …`: the lines a folded entry names. */
export function foldedLines(rest: FoldedRest): string {
  const named = rest.lines.slice(0, LINES_NAMED).join(', ');
  const more = rest.lines.length > LINES_NAMED ? ', …' : '';
  return `line${rest.lines.length === 1 ? '' : 's'} ${named}${more}`;
}

/** `… and 14 more in this file: lines 40, 52, …` */
export function foldedText(rest: FoldedRest): string {
  return `… and ${rest.lines.length} more in this file: ${foldedLines(rest)}`;
}
