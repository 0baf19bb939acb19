// `--format json`: the API's comment shape (`comments`: file_path, line, message, severity), and
// beside it the full findings (rule id, columns, fingerprint) and a summary.
import { countBySeverity } from '../../api/severity-counts.ts';
import type { ReviewReport } from '../review-report.ts';

export function formatJson(report: ReviewReport): string {
  const document = {
    comments: report.findings.map(({ file_path, line, message, severity }) => ({ file_path, line, message, severity })),
    findings: report.findings,
    // never in `comments` or the counts: what an inline comment suppressed, and by what
    suppressed: report.suppressed,
    not_reviewed: report.notReviewed,
    summary: {
      ...countBySeverity(report.findings),
      files: report.stats.files,
      added_lines: report.stats.addedLines,
      hidden_by_baseline: report.hiddenByBaseline,
      ignored_files: report.ignoredFiles,
      ignored_by_config: report.ignoredByConfig,
      suppressed: report.suppressed.length,
      truncated: report.truncated,
      duration_ms: Math.round(report.durationMs),
    },
    ...(report.repository !== undefined ? { repository: report.repository } : {}),
    ...(report.baseCommit !== undefined ? { base_commit: report.baseCommit } : {}),
    tool: { name: 'diff-review', version: report.toolVersion },
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
