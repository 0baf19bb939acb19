// Findings about the suppressions themselves: a `diff-review-ignore` whose `until` is not a date
// (it would never end, or end on a day nobody meant), and, where the project asks for reasons
// (`suppressions: { require_reason: true }`), one that gives none. Neither can be suppressed.
import { parseDirective, suppressionOf, todayUtc } from '../suppression.ts';
import { commentSyntaxOf, lexLine } from './lexer.ts';
import type { AddedLine, LineRule } from './rule.ts';
import { isDocumentation } from './secrets/placeholders.ts';

/**
 * The view of a line that a directive is read in, columns kept: its comment (one in a string is a
 * test's data or an example, not a directive); in documentation only an HTML comment (`<!-- … -->`),
 * since a directive in a code block or a table there is an example of one; the whole line in other
 * files without known comment syntax. `comment` is the line's comment when it has been lexed already.
 */
export function directiveView(path: string, text: string, comment?: string): string {
  if (isDocumentation(path)) {
    const at = text.indexOf('<!--');
    return at < 0 ? '' : ' '.repeat(at) + text.slice(at);
  }
  const syntax = commentSyntaxOf(path);
  if (syntax === 'none') return text;
  return comment ?? lexLine(text, syntax).comment;
}

/**
 * What a finding's suppression is read in: our directive in the comment of its line or of the line
 * above; other tools' markers in the comment of its line, or anywhere on it in documentation and in
 * files without comment syntax (a `gitleaks:allow` after an example in a docs code block is meant).
 */
export function suppressionViews(
  path: string,
  text: string,
  above: string | undefined,
): { line: string; above: string | undefined; markers: string } {
  const line = directiveView(path, text);
  const wholeLine = isDocumentation(path) || commentSyntaxOf(path) === 'none';
  return {
    line,
    above: above === undefined ? undefined : directiveView(path, above),
    markers: wholeLine ? text : line,
  };
}

/**
 * A directive of ours suppresses a finding of `ruleId` on `line` of `path` today, read as the
 * engine reads it (other tools' markers aside).
 */
export function isSuppressed(path: string, ruleId: string, line: string, lineAbove: string | undefined): boolean {
  const views = suppressionViews(path, line, lineAbove);
  const verdict = suppressionOf(ruleId, undefined, views, { today: todayUtc(), otherTools: false });
  return verdict !== undefined && 'suppressed' in verdict;
}

const viewOf = (line: AddedLine): string => directiveView(line.path, line.text, line.comment);

/** Where the directive is in the view (1-based columns, end exclusive). */
function directiveSpan(view: string): { column: number; endColumn: number } {
  const at = view.indexOf('diff-review-ignore');
  return { column: at + 1, endColumn: at + 'diff-review-ignore'.length + 1 };
}

export const invalidSuppression: LineRule = {
  kind: 'line',
  id: 'suppression-invalid-date',
  severity: 'error',
  summary: 'A diff-review-ignore comment whose `until` is not a date (YYYY-MM-DD of a real day).',
  help: 'Write the last day the suppression holds as YYYY-MM-DD, e.g. `until 2027-03-31`, or leave `until` out.',
  message: 'The diff-review-ignore comment on this line has an end that is not a date.',
  files: () => true,
  keywords: ['diff-review-ignore'],
  reads: 'text',
  unsuppressible: true,
  check(line) {
    const view = viewOf(line);
    const directive = parseDirective(view);
    if (directive?.invalidUntil === undefined) return null;
    return {
      ...directiveSpan(view),
      message: `The diff-review-ignore comment on this line ends "until ${directive.invalidUntil}", which is not a date: write it as YYYY-MM-DD (e.g. until 2027-03-31).`,
    };
  },
};

export const suppressionWithoutReason: LineRule = {
  kind: 'line',
  id: 'suppression-without-reason',
  severity: 'error',
  summary: 'A diff-review-ignore comment without a reason, where the project requires one.',
  help: 'Say why the finding is fine in parentheses after the rule ids: `diff-review-ignore no-debugger (stepping through on staging)`.',
  message:
    'This diff-review-ignore gives no reason; say why in parentheses after the rule ids, e.g. diff-review-ignore no-debugger (why it is fine).',
  files: () => true,
  keywords: ['diff-review-ignore'],
  reads: 'text',
  unsuppressible: true,
  enabled: (config) => config?.suppressions?.requireReason === true,
  check(line) {
    const view = viewOf(line);
    const directive = parseDirective(view);
    if (!directive || directive.reason !== undefined) return null;
    return directiveSpan(view);
  },
};

export const suppressionRules = [invalidSuppression, suppressionWithoutReason];
