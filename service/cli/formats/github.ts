// `--format github`: GitHub Actions workflow commands, which the runner shows as annotations on the
// pull request's lines: `::error file=P,line=N,col=C,endColumn=E,title=RULE::message`.
import type { Severity } from '../../api/schemas.ts';
import { errorsFirst, foldedList, foldedText } from '../../api/folded-list.ts';
import { messageText, notReviewedMessage, type ReviewReport } from '../review-report.ts';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

/** Escapes a command's message as the runner reads it back (actions/toolkit, command.ts). */
const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** Property values also escape the separators `:` and `,`. */
const escapeProperty = (text: string): string => escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');

export function formatGithub(report: ReviewReport): string {
  const notices = report.notReviewed.map(
    (file) =>
      `::notice file=${escapeProperty(file.file_path)},title=diff-review::${escapeData(notReviewedMessage(file))}\n`,
  );
  return foldedList(errorsFirst(report.findings), report.fold)
    .map((entry) => {
      if ('folded' in entry) {
        const { folded } = entry;
        const properties = `file=${escapeProperty(folded.file_path)},line=${folded.lines[0]},title=${escapeProperty(folded.rule_id)}`;
        return `::${COMMAND[folded.severity]} ${properties}::${escapeData(foldedText(folded))}\n`;
      }
      const f = entry.finding;
      const properties = [`file=${escapeProperty(f.file_path)}`, `line=${f.line}`];
      if (f.start_column !== undefined) properties.push(`col=${f.start_column}`);
      if (f.end_column !== undefined) properties.push(`endColumn=${f.end_column}`);
      properties.push(`title=${escapeProperty(f.rule_id)}`);
      return `::${COMMAND[f.severity]} ${properties.join(',')}::${escapeData(messageText(f))}\n`;
    })
    .concat(notices)
    .join('');
}
