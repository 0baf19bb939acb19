// Each rule's documentation, made from its own data (summary, help, severity, and the why and
// examples of rules/rule-docs.ts): one Markdown page per rule and an index, checked in under
// docs/rules/ and kept in step by test/service/engine/rule-docs.test.ts.
import { RULES } from './rule-list.ts';
import type { RuleDocData, RuleExample } from './rules/rule-docs.ts';
import { RULE_DOCS } from './rules/rule-docs.ts';
import type { RuleDetail } from '../api/rule-schemas.ts';
import type { RuleInfo } from './types.ts';
import { ALL_RULES, concernOf } from './rules/index.ts';
import type { Concern } from './suppression.ts';

const RULE_BY_ID = new Map(ALL_RULES.map((rule) => [rule.id, rule]));

export interface RuleDoc extends RuleInfo, Partial<RuleDocData> {}

/** Every rule with its documentation data (the truncation notice has no examples). */
export function ruleDocs(): RuleDoc[] {
  return RULES.map((rule) => ({ ...rule, ...RULE_DOCS[rule.id] }));
}

let byId: Map<string, RuleDoc> | undefined;

/** The documentation of one rule of this engine, or undefined (a rule of another version). */
export function ruleDocOf(id: string): RuleDoc | undefined {
  byId ??= new Map(ruleDocs().map((doc) => [doc.id, doc]));
  return byId.get(id);
}

/** A rule's help as plain text: what it finds, why it matters, how to fix it. */
export function ruleHelpText(doc: RuleInfo & Partial<RuleDocData>): string {
  return [doc.summary, doc.why, doc.help && `How to fix it: ${doc.help}`].filter(Boolean).join('\n\n');
}

/** At most this many lines of an example are shown; the rest is counted. */
const SHOWN_LINES = 12;

/**
 * An example's added lines with their line numbers in a gutter ("3 | code"): readable, and no
 * line of the page starts like what it shows (a conflict marker, key material), so that the
 * page does not set off the rules it documents.
 */
function fence(example: RuleExample): string {
  const shown = example.lines.slice(0, SHOWN_LINES);
  const more = example.lines.length - shown.length;
  const width = String(shown.length).length;
  const body = [
    ...shown.map((line, i) => `${String(i + 1).padStart(width)} | ${line}`),
    ...(more > 0 ? [`… (${more} more lines)`] : []),
  ].join('\n');
  const ticks = body.includes('```') ? '````' : '```';
  return `\`${example.path}\`, added lines:\n\n${ticks}\n${body}\n${ticks}`;
}

/** How a comment is written in the example's file, for the suppression example. */
function commentFor(path: string): string {
  return /\.(py|rb|sh|ya?ml|toml|ini|conf|env)$|(^|\/)(Dockerfile|Makefile|\.env[\w.-]*)$/.test(path) ? '#' : '//';
}

/** The comment that suppresses one finding of the rule, in its example file's comment syntax. */
export function suppressionComment(doc: RuleDoc): string {
  return `${commentFor(doc.fires?.path ?? '')} diff-review-ignore ${doc.id} (why this one is fine)`;
}

/** Which markers of other tools cover a rule's findings, by what they are about (suppression.ts). */
const MARKERS_OF: Record<Concern | 'other', string> = {
  secret:
    '`gitleaks:allow`, `trufflehog:ignore`, `nosec` / `#nosec`, `nosemgrep` (with or without a rule id) and `NOSONAR`',
  security: '`nosec` / `#nosec`, `nosemgrep` (with or without a rule id) and `NOSONAR`',
  other: '`nosemgrep` (without a rule id) and `NOSONAR`',
};

function suppressionSection(doc: RuleDoc): string {
  if (RULE_BY_ID.get(doc.id)?.unsuppressible)
    return '## How to suppress it\n\nIt cannot be suppressed: it is about a suppression comment, which it asks you to fix.';
  return [
    '## How to suppress it',
    '',
    `On one line: a \`diff-review-ignore ${doc.id}\` comment on the line or on the line above it, with the reason in parentheses (and, where it should not last, \`until YYYY-MM-DD\` after it: from the next day on it suppresses nothing):`,
    '',
    '```',
    suppressionComment(doc),
    '```',
    '',
    `Markers of other tools in a comment on the line itself suppress it too: ${MARKERS_OF[concernOf(doc.id) ?? 'other']} (\`suppressions: { other_tools: false }\` in .diff-review.yml turns them off). A suppressed finding is still listed as suppressed in SARIF and JSON output.`,
    '',
    `Everywhere: turn the rule off, or change its severity, in the service's rule configuration (\`"rules": { "${doc.id}": "off" }\`).`,
  ].join('\n');
}

export function rulePage(doc: RuleDoc): string {
  const sections = [
    `# ${doc.id}`,
    `Severity: **${doc.severity}**`,
    `## What it finds\n\n${doc.summary}`,
    ...(doc.why ? [`## Why it matters\n\n${doc.why}`] : []),
    `## How to fix it\n\n${doc.help}`,
    ...(doc.more ? [doc.more] : []),
    ...(doc.fires ? [`## Reported\n\n${fence(doc.fires)}`] : []),
    ...(doc.passes ? [`## Not reported\n\n${fence(doc.passes)}`] : []),
    suppressionSection(doc),
  ];
  return `${sections.join('\n\n')}\n`;
}

/** A rule's documentation as data: GET /v1/rules/{id} and `diff-review rules <id> --format json`. */
export function ruleDetailOf(doc: RuleDoc): RuleDetail {
  return {
    id: doc.id,
    severity: doc.severity,
    summary: doc.summary,
    help: doc.help,
    ...(doc.why ? { why: doc.why } : {}),
    ...(doc.fires ? { reported: { path: doc.fires.path, lines: [...doc.fires.lines] } } : {}),
    ...(doc.passes ? { not_reported: { path: doc.passes.path, lines: [...doc.passes.lines] } } : {}),
    suppress: suppressionComment(doc),
    markdown: rulePage(doc),
  };
}

export function rulesIndexPage(docs: readonly RuleDoc[]): string {
  const rows = docs.map(
    (doc) => `| [${doc.id}](${doc.id}.md) | ${doc.severity} | ${doc.summary.replace(/\|/g, '\\|')} |`,
  );
  return [
    '# Rules',
    '',
    "Every rule of the review engine. Generated from the rules' own data: do not edit by hand.",
    '',
    '| rule | severity | what it finds |',
    '|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
