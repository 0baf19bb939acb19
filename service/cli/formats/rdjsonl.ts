// `--format rdjsonl`: reviewdog's Diagnostic, one JSON object a line (`reviewdog -f=rdjsonl` posts
// them as pull-request comments). reviewdog's columns count UTF-8 bytes; the engine's count UTF-16
// code units, so they are converted with the line's text.
import type { Severity } from '../../api/schemas.ts';
import type { Finding } from '../../engine/index.ts';
import { messageText, notReviewedMessage, type ReviewReport } from '../review-report.ts';

const SEVERITY: Record<Severity, string> = { error: 'ERROR', warning: 'WARNING', info: 'INFO' };

export function formatRdjsonl(report: ReviewReport): string {
  const notices = report.notReviewed.map((file) => ({
    message: notReviewedMessage(file),
    location: { path: file.file_path },
    severity: 'INFO',
    source: { name: 'diff-review' },
    code: { value: 'not-reviewed' },
  }));
  return [...report.findings.map((f) => diagnostic(report, f)), ...notices]
    .map((d) => `${JSON.stringify(d)}\n`)
    .join('');
}

function diagnostic(report: ReviewReport, f: Finding): object {
  const start: Record<string, number> = { line: f.line };
  const range: Record<string, unknown> = { start };
  if (f.start_column !== undefined) {
    const text = report.addedLineText(f.file_path, f.line);
    start['column'] = byteColumn(text, f.start_column);
    if (f.end_column !== undefined) range['end'] = { line: f.line, column: byteColumn(text, f.end_column) };
  }
  return {
    message: messageText(f),
    location: { path: f.file_path, range },
    severity: SEVERITY[f.severity],
    source: { name: 'diff-review' },
    code: { value: f.rule_id },
  };
}

/** A 1-based UTF-16 column as a 1-based UTF-8 byte column. */
function byteColumn(text: string | undefined, column: number): number {
  return text === undefined ? column : Buffer.byteLength(text.slice(0, column - 1), 'utf8') + 1;
}
