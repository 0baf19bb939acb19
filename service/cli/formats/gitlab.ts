// `--format gitlab`: a GitLab Code Quality report (artifacts:reports:codequality), shown in the
// merge request's widget and diff. The fingerprint is the engine's: unique per finding, and the
// same for a finding that only moved, so GitLab tells new findings from old ones.
import type { Severity } from '../../api/schemas.ts';
import { messageText, type ReviewReport } from '../review-report.ts';

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
  return JSON.stringify(issues, null, 2) + '\n';
}
