// `--format gitlab`: a GitLab Code Quality report (artifacts:reports:codequality), shown in the
// merge request's widget and diff. The fingerprint is the engine's: unique per finding, and the
// same for a finding that only moved, so GitLab tells new findings from old ones.
import type { Severity } from '../../api/schemas.ts';
import { createHash } from 'node:crypto';
import { messageText, notReviewedMessage, type ReviewReport } from '../review-report.ts';

/** The check name of a file the engine could not review. */
const NOT_REVIEWED = 'diff-review-not-reviewed';
const SEVERITY: Record<Severity, string> = { error: 'major', warning: 'minor', info: 'info' };

export function formatGitlab(report: ReviewReport): string {
  const issues = report.findings.map((f) => ({
    type: 'issue',
    description: messageText(f),
    check_name: f.rule_id,
    fingerprint: f.fingerprint,
    severity: SEVERITY[f.severity],
    location: { path: f.file_path, lines: { begin: f.line } },
  }));
  for (const file of report.notReviewed)
    issues.push({
      type: 'issue',
      description: notReviewedMessage(file),
      check_name: NOT_REVIEWED,
      fingerprint: createHash('sha256').update(`${NOT_REVIEWED}\0${file.file_path}`).digest('hex'),
      severity: 'info',
      location: { path: file.file_path, lines: { begin: 1 } },
    });
  return `${JSON.stringify(issues, null, 2)}\n`;
}
