// `--format sarif`: the engine's SARIF 2.1.0 builder, the same log GET /v1/reviews/{id}/sarif gives.
import { buildSarif } from '../../engine/sarif.ts';
import type { ReviewReport } from '../review-report.ts';

export function formatSarif(report: ReviewReport): string {
  const log = buildSarif(
    {
      findings: report.findings,
      // automationDetails.id: GitHub code scanning keeps one analysis per category ("diff-review/").
      reviewId: 'cli',
      toolVersion: report.toolVersion,
      ...(report.repository !== undefined ? { repository: report.repository } : {}),
      ...(report.baseCommit !== undefined ? { baseCommit: report.baseCommit } : {}),
    },
    report.rules,
  );
  return JSON.stringify(log, null, 2) + '\n';
}
