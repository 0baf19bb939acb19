// `--format checkstyle`: Checkstyle's XML, which Jenkins' warnings-ng, reviewdog (-f=checkstyle)
// and many CI dashboards read.
import { findingsByFile, messageText, notReviewedMessage, type ReviewReport } from '../review-report.ts';
import { XML_DECLARATION, xmlEscape } from './xml.ts';

export function formatCheckstyle(report: ReviewReport): string {
  const out = [XML_DECLARATION, '<checkstyle version="4.3">'];
  for (const [file, findings] of findingsByFile(report.findings)) {
    out.push(`  <file name="${xmlEscape(file)}">`);
    for (const f of findings) {
      const column = f.start_column !== undefined ? ` column="${f.start_column}"` : '';
      out.push(
        `    <error line="${f.line}"${column} severity="${f.severity}" message="${xmlEscape(messageText(f))}" source="diff-review.${xmlEscape(f.rule_id)}"/>`,
      );
    }
    out.push('  </file>');
  }
  for (const file of report.notReviewed) {
    out.push(`  <file name="${xmlEscape(file.file_path)}">`);
    out.push(
      `    <error line="1" severity="info" message="${xmlEscape(notReviewedMessage(file))}" source="diff-review.not-reviewed"/>`,
    );
    out.push('  </file>');
  }
  out.push('</checkstyle>');
  return `${out.join('\n')}\n`;
}
