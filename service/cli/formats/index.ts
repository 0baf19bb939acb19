// Every output format of `diff-review review`, by name.
import type { ReviewReport } from '../review-report.ts';
import { painter } from './ansi.ts';
import { formatCheckstyle } from './checkstyle.ts';
import { formatGithub } from './github.ts';
import { formatGitlab } from './gitlab.ts';
import { formatJson } from './json.ts';
import { formatJunit } from './junit.ts';
import { formatRdjsonl } from './rdjsonl.ts';
import { formatSarif } from './sarif.ts';
import type { FormatName } from './names.ts';
import { formatText } from './text.ts';

export function formatReport(format: FormatName, report: ReviewReport, colour: boolean): string {
  switch (format) {
    case 'text':
      return formatText(report, painter(colour));
    case 'json':
      return formatJson(report);
    case 'sarif':
      return formatSarif(report);
    case 'github':
      return formatGithub(report);
    case 'rdjsonl':
      return formatRdjsonl(report);
    case 'gitlab':
      return formatGitlab(report);
    case 'checkstyle':
      return formatCheckstyle(report);
    case 'junit':
      return formatJunit(report);
  }
}
