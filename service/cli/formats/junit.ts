// `--format junit`: JUnit XML, which every CI shows as a test report: one test case per finding
// (a failure), or one passing case when there is none, so the report is never empty.
import { messageText, notReviewedMessage, type ReviewReport } from '../review-report.ts';
import { XML_DECLARATION, xmlEscape } from './xml.ts';

export function formatJunit(report: ReviewReport): string {
  const failures = report.findings.length;
  const skipped = report.notReviewed.length;
  const tests = Math.max(1, failures + skipped);
  const seconds = (report.durationMs / 1000).toFixed(3);
  const out = [
    XML_DECLARATION,
    `<testsuites name="diff-review" tests="${tests}" failures="${failures}" errors="0" time="${seconds}">`,
    `  <testsuite name="diff-review" tests="${tests}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds}">`,
  ];
  for (const f of report.findings) {
    const where = `${f.file_path}:${f.line}${f.start_column !== undefined ? `:${f.start_column}` : ''}`;
    out.push(
      `    <testcase classname="${xmlEscape(f.file_path)}" name="${xmlEscape(`${f.rule_id} at ${where}`)}" file="${xmlEscape(f.file_path)}" line="${f.line}">`,
    );
    out.push(
      `      <failure type="${f.severity}" message="${xmlEscape(messageText(f))}">${xmlEscape(`${f.severity} ${f.rule_id} at ${where}: ${messageText(f)}`)}</failure>`,
    );
    out.push('    </testcase>');
  }
  for (const file of report.notReviewed) {
    out.push(
      `    <testcase classname="${xmlEscape(file.file_path)}" name="${xmlEscape(`${file.partly ? 'partly reviewed' : 'not reviewed'}: ${file.file_path}`)}" file="${xmlEscape(file.file_path)}">`,
    );
    out.push(`      <skipped message="${xmlEscape(notReviewedMessage(file))}"/>`, '    </testcase>');
  }
  if (failures + skipped === 0)
    out.push(
      `    <testcase classname="diff-review" name="no findings in ${report.stats.files} files, ${report.stats.addedLines} added lines"/>`,
    );
  out.push('  </testsuite>', '</testsuites>');
  return `${out.join('\n')}\n`;
}
