// Where on its line each comment's finding is: the engine reports columns, the comment shape (the
// seed's, fixed) has none, and the review's SARIF (GET /v1/reviews/{id}/sarif) carries them.
// Plain data in and out (no vscode import).
import type { ReviewComment } from '../../service/api/schemas.ts';

/** 1-based columns on the line; `end` is exclusive, as in SARIF. */
export interface ColumnSpan {
  start: number;
  end: number;
}

/** Finds a comment's columns; undefined when the SARIF has none for it. */
export type ColumnsOf = (comment: Pick<ReviewComment, 'file_path' | 'line' | 'message'>) => ColumnSpan | undefined;

const keyOf = (filePath: string, line: number, message: string) => `${filePath}\n${line}\n${message}`;

interface SarifResult {
  message?: { text?: unknown };
  locations?: {
    physicalLocation?: {
      artifactLocation?: { uri?: unknown };
      region?: { startLine?: unknown; startColumn?: unknown; endColumn?: unknown };
    };
  }[];
}

/** Reads the columns out of a SARIF log: anything unexpected in it is skipped, never thrown. */
export function columnsFromSarif(sarif: unknown): ColumnsOf {
  const spans = new Map<string, ColumnSpan>();
  const runs = (sarif as { runs?: unknown } | undefined)?.runs;
  for (const run of Array.isArray(runs) ? runs : []) {
    const results = (run as { results?: unknown }).results;
    for (const result of (Array.isArray(results) ? results : []) as SarifResult[]) {
      const location = result.locations?.[0]?.physicalLocation;
      const { startLine, startColumn, endColumn } = location?.region ?? {};
      const uri = location?.artifactLocation?.uri;
      const text = result.message?.text;
      if (
        typeof uri !== 'string' ||
        typeof text !== 'string' ||
        !isPositive(startLine) ||
        !isPositive(startColumn) ||
        !isPositive(endColumn)
      )
        continue;
      if (endColumn <= startColumn) continue;
      const filePath = decodePath(uri);
      if (filePath !== undefined) spans.set(keyOf(filePath, startLine, text), { start: startColumn, end: endColumn });
    }
  }
  return (comment) => spans.get(keyOf(comment.file_path, comment.line, comment.message));
}

const isPositive = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 1;

/** The service writes each path segment percent-encoded. */
function decodePath(uri: string): string | undefined {
  try {
    return uri.split('/').map(decodeURIComponent).join('/');
  } catch {
    return undefined;
  }
}
