// The default format: findings grouped by file, `path:line:col` (which terminals and editors make
// clickable), severity, rule id and message, the flagged line as a code frame, and a summary.
import { countBySeverity } from '../../api/severity-counts.ts';
import type { Severity } from '../../api/schemas.ts';
import type { Finding } from '../../engine/index.ts';
import { findingsByFile, lineKey, messageText, secretLines, type ReviewReport } from '../review-report.ts';
import { errorsFirst, foldedList, foldedText } from '../../api/folded-list.ts';
import type { Paint, Style } from './ansi.ts';
import { printable } from './terminal-text.ts';

const SEVERITY_STYLE: Record<Severity, Style> = { error: 'red', warning: 'yellow', info: 'blue' };
/** Longest piece of a line a frame shows; the rest is cut around the flagged column. */
const FRAME_CHARS = 160;

export function formatText(report: ReviewReport, paint: Paint): string {
  const out: string[] = [];
  const hidden = secretLines(report.findings);
  const byFile = findingsByFile(report.findings);
  for (const [file, findings] of byFile) {
    out.push(paint('underline', printable(file)));
    for (const entry of foldedList(errorsFirst(findings), report.fold)) {
      if ('folded' in entry) {
        out.push(
          `  ${paint(SEVERITY_STYLE[entry.folded.severity], entry.folded.severity)}  ${paint('dim', entry.folded.rule_id)}  ${foldedText(entry.folded)}`,
        );
        continue;
      }
      const { finding } = entry;
      const where = `${printable(file)}:${finding.line}:${finding.start_column ?? 1}`;
      out.push(
        `  ${where}  ${paint(SEVERITY_STYLE[finding.severity], finding.severity)}  ${paint('dim', finding.rule_id)}  ${printable(messageText(finding))}`,
      );
      out.push(...frame(report, finding, hidden.has(lineKey(file, finding.line)), paint));
    }
    out.push('');
  }
  for (const file of report.notReviewed)
    out.push(
      `${paint('dim', file.partly ? 'partly reviewed' : 'not reviewed')}  ${printable(file.file_path)}  ${file.reason}`,
    );
  if (report.notReviewed.length > 0) out.push('');
  out.push(summary(report, paint));
  return `${out.join('\n')}\n`;
}

function frame(report: ReviewReport, finding: Finding, holdsSecret: boolean, paint: Paint): string[] {
  const gutter = String(finding.line).padStart(6);
  const blank = ' '.repeat(gutter.length);
  if (holdsSecret) return [paint('dim', `${gutter} | (line not shown: it holds a secret)`)];
  const text = report.addedLineText(finding.file_path, finding.line);
  if (text === undefined) return [];
  const column = (finding.start_column ?? 1) - 1;
  const start = Math.max(0, Math.min(column - FRAME_CHARS / 2, text.length - FRAME_CHARS));
  const shown = text.slice(start, start + FRAME_CHARS);
  const lines = [
    `${paint('dim', `${gutter} |`)} ${start > 0 ? '…' : ''}${printable(shown)}${start + FRAME_CHARS < text.length ? '…' : ''}`,
  ];
  if (finding.start_column !== undefined) {
    const end = Math.min(finding.end_column ?? column + 1, start + FRAME_CHARS + 1) - 1;
    // Tabs stay tabs under the line, so the carets line up whatever the tab width.
    const pad = (start > 0 ? ' ' : '') + shown.slice(0, column - start).replace(/[^\t]/g, ' ');
    lines.push(
      `${paint('dim', `${blank} |`)} ${pad}${paint(SEVERITY_STYLE[finding.severity], '^'.repeat(Math.max(1, end - column)))}`,
    );
  }
  return lines;
}

/** `, N file(s) <what>`, or nothing for none. */
const count = (files: number, what: string) => (files > 0 ? `, ${files} file${files === 1 ? '' : 's'} ${what}` : '');

function summary(report: ReviewReport, paint: Paint): string {
  const counts = countBySeverity(report.findings);
  const known =
    (report.hiddenByBaseline > 0 ? `, ${report.hiddenByBaseline} known to the baseline not shown` : '') +
    (report.ignoredFiles > 0
      ? `, ${report.ignoredFiles} file${report.ignoredFiles === 1 ? '' : 's'} in ignored paths not reviewed`
      : '') +
    (report.ignoredByConfig > 0 ? `, ${report.ignoredByConfig} in ignored paths not shown` : '') +
    suppressedCount(report) +
    count(report.notReviewed.filter((file) => !file.partly).length, 'not reviewed') +
    count(report.notReviewed.filter((file) => file.partly).length, 'partly reviewed');
  const scope = `${report.stats.files} file${report.stats.files === 1 ? '' : 's'}, ${report.stats.addedLines} added line${report.stats.addedLines === 1 ? '' : 's'}${known}, ${Math.round(report.durationMs)} ms`;
  if (report.findings.length === 0) return `No findings (${scope}).`;
  const total = report.findings.length;
  const parts = (['error', 'warning', 'info'] as const).map((s) =>
    paint(counts[s] > 0 ? SEVERITY_STYLE[s] : 'dim', `${counts[s]} ${s}${counts[s] === 1 || s === 'info' ? '' : 's'}`),
  );
  return `${paint('bold', `${total} finding${total === 1 ? '' : 's'}`)}: ${parts.join(', ')} (${scope}).`;
}

/** `, 3 suppressed (diff-review-ignore 2, gitleaks:allow 1)`, or nothing for none. */
function suppressedCount(report: ReviewReport): string {
  if (report.suppressed.length === 0) return '';
  const by = new Map<string, number>();
  for (const finding of report.suppressed) by.set(finding.suppressed.by, (by.get(finding.suppressed.by) ?? 0) + 1);
  const kinds = [...by].map(([marker, n]) => `${marker} ${n}`).join(', ');
  return `, ${report.suppressed.length} suppressed (${kinds})`;
}
