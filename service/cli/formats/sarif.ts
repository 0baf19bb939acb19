// `--format sarif`: the engine's SARIF 2.1.0 builder, the same log GET /v1/reviews/{id}/sarif gives.
import { buildSarif, pathToUri } from '../../engine/sarif.ts';
import { notReviewedMessage, type ReviewReport } from '../review-report.ts';

export function formatSarif(report: ReviewReport): string {
  const log = buildSarif(
    {
      findings: report.findings,
      suppressed: report.suppressed,
      // automationDetails.id: GitHub code scanning keeps one analysis per category ("diff-review/").
      reviewId: 'cli',
      toolVersion: report.toolVersion,
      ...(report.repository !== undefined ? { repository: report.repository } : {}),
      ...(report.baseCommit !== undefined ? { baseCommit: report.baseCommit } : {}),
    },
    report.rules,
  );
  const [provenance] = ((log as { runs: { versionControlProvenance?: Record<string, unknown>[] }[] }).runs[0]!
    .versionControlProvenance ?? []) as Record<string, unknown>[];
  if (provenance !== undefined && report.headCommit !== undefined) {
    // The commit the results are about is the one reviewed; the merge base it was compared with goes beside it.
    provenance['revisionId'] = report.headCommit;
    provenance['properties'] = { baseCommit: report.baseCommit };
  }
  if (report.notReviewed.length > 0) {
    // SARIF's place for what the tool could not do: the run's invocation, as notifications on the files
    const [run] = (log as { runs: Record<string, unknown>[] }).runs;
    run!['invocations'] = [
      {
        executionSuccessful: true,
        toolExecutionNotifications: report.notReviewed.map((file) => ({
          level: 'note',
          message: { text: notReviewedMessage(file) },
          locations: [
            { physicalLocation: { artifactLocation: { uri: pathToUri(file.file_path), uriBaseId: '%SRCROOT%' } } },
          ],
        })),
      },
    ];
  }
  return `${JSON.stringify(log, null, 2)}\n`;
}
