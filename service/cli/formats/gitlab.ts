// `--format gitlab`: a GitLab Code Quality report (artifacts:reports:codequality), shown in the
// merge request's widget and diff. The fingerprint is the engine's: unique per finding, and the
// same for a finding that only moved, so GitLab tells new findings from old ones.
import type { Severity } from '../../api/schemas.ts';
import { createHash } from 'node:crypto';
import { errorsFirst, foldedList, foldedText } from '../../api/folded-list.ts';
import { messageText, notReviewedMessage, type ReviewReport } from '../review-report.ts';

/** The check name of a file the engine could not review. */
const NOT_REVIEWED = 'diff-review-not-reviewed';
const SEVERITY: Record<Severity, string> = { error: 'major', warning: 'minor', info: 'info' };

export function formatGitlab(report: ReviewReport): string {
  const issues = foldedList(errorsFirst(report.findings), report.fold).map((entry) => {
    if ('folded' in entry) {
      const { folded } = entry;
      return {
        type: 'issue',
        description: foldedText(folded),
        check_name: folded.rule_id,
        // one entry for the rest of a rule's findings in a file, whichever lines they are on
        fingerprint: createHash('sha256').update(`folded\0${folded.rule_id}\0${folded.file_path}`).digest('hex'),
        severity: SEVERITY[folded.severity],
        location: { path: folded.file_path, lines: { begin: folded.lines[0]! } },
      };
    }
    const f = entry.finding;
    return {
      type: 'issue',
      description: messageText(f),
      check_name: f.rule_id,
      fingerprint: f.fingerprint,
      severity: SEVERITY[f.severity],
      location: { path: f.file_path, lines: { begin: f.line } },
    };
  });
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
