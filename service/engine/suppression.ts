// Inline suppression. Our own directive, in a comment on the line itself or on the line above:
//   diff-review-ignore                         every rule
//   diff-review-ignore rule-a, rule-b          those rules
//   … (why this one is fine)                   a reason, in parentheses
//   … until 2027-03-31                         an end: from the next day on it suppresses nothing
// And the markers of the tools teams move from, in a comment on the line itself, which they already have in
// their code: gitleaks:allow and trufflehog:ignore (secret findings), nosemgrep (any finding; with a
// rule id of its own, which names none of ours, the security findings), nosec / #nosec (bandit,
// gosec: the security findings) and NOSONAR (any finding).

const DIRECTIVE =
  /(?:\/\/|\/\*|#|<!--|--|;|\*)\s*diff-review-ignore(?![\w-])(?<rules>(?:[ \t]+(?!until\b)[a-z][\w-]*(?:[ \t]*,[ \t]*[a-z][\w-]*)*)?)(?:[ \t]*\((?<reason>(?:[^()]|\([^()]*\))*)\))?(?:[ \t]+until[ \t]+(?<until>[^\s'"`)\]},;]+))?/;

/** A `diff-review-ignore` directive as written. */
export interface Directive {
  /** The rule ids it names; empty for every rule. */
  rules: string[];
  /** The reason in parentheses, trimmed; undefined when there is none (or it is blank). */
  reason?: string;
  /** The last day it suppresses (YYYY-MM-DD), when it names a valid one. */
  until?: string;
  /** What follows `until` when it is not a date (YYYY-MM-DD of a real day). */
  invalidUntil?: string;
}

/** The directive on a line, or null when it has none. */
export function parseDirective(text: string): Directive | null {
  if (!text.includes('diff-review-ignore')) return null;
  const groups = DIRECTIVE.exec(text)?.groups;
  if (!groups) return null;
  const list = groups['rules']!.trim();
  const directive: Directive = { rules: list === '' ? [] : list.split(/\s*,\s*/) };
  const reason = groups['reason']?.trim();
  if (reason) directive.reason = reason;
  const until = groups['until']?.replace(/(?:\*\/|-->)$/, '');
  if (until !== undefined) {
    if (isCalendarDate(until)) directive.until = until;
    else directive.invalidUntil = until;
  }
  return directive;
}

/** YYYY-MM-DD of a day that exists. */
function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00.000Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
}

/** What a rule's findings are about, for the markers of other tools. */
export type Concern = 'secret' | 'security';

/** A marker of another tool, the findings it covers, and how it is found on a line. */
interface Marker {
  name: string;
  covers: (concern: Concern | undefined) => boolean;
  pattern: RegExp;
}

const anyFinding = () => true;
const secretFindings = (concern: Concern | undefined) => concern === 'secret';
const securityFindings = (concern: Concern | undefined) => concern !== undefined;

const MARKERS: readonly Marker[] = [
  { name: 'gitleaks:allow', covers: secretFindings, pattern: /gitleaks:allow/ },
  { name: 'trufflehog:ignore', covers: secretFindings, pattern: /trufflehog:ignore/ },
  // `nosemgrep: rule-id` names a semgrep rule, never one of ours: it stands for the security rules.
  { name: 'nosemgrep', covers: anyFinding, pattern: /\bnosemgrep\b(?![ \t]*:)/ },
  { name: 'nosemgrep', covers: securityFindings, pattern: /\bnosemgrep[ \t]*:/ },
  { name: 'nosec', covers: securityFindings, pattern: /(?:^|[^\w-])#?nosec\b/ },
  { name: 'NOSONAR', covers: anyFinding, pattern: /\bNOSONAR\b/ },
];

/** How suppression is judged in one review. */
export interface SuppressionContext {
  /** Today (YYYY-MM-DD, UTC): a directive `until` an earlier day has expired. */
  today: string;
  /** Honour other tools' markers (default true). */
  otherTools: boolean;
}

/** Why a finding is not reported: what suppressed it (`diff-review-ignore` or a marker's name), and the reason given. */
export interface Suppression {
  by: string;
  reason?: string;
}

export type SuppressionVerdict =
  | { suppressed: Suppression }
  /** A directive names the finding but its day has passed: the finding is reported, saying so. */
  | { expired: string }
  | undefined;

/**
 * How a finding of `ruleId` is judged: `line` and `above` are where our directive is read (the
 * comments of its line and of the line above), `markers` where other tools' markers are.
 */
export function suppressionOf(
  ruleId: string,
  concern: Concern | undefined,
  views: { line: string; above: string | undefined; markers: string },
  context: SuppressionContext,
): SuppressionVerdict {
  let expired: string | undefined;
  for (const text of [views.line, views.above]) {
    if (text === undefined) continue;
    const directive = parseDirective(text);
    if (!directive || (directive.rules.length > 0 && !directive.rules.includes(ruleId))) continue;
    if (directive.until !== undefined && directive.until < context.today) {
      expired = directive.until;
      continue;
    }
    return { suppressed: { by: 'diff-review-ignore', ...(directive.reason ? { reason: directive.reason } : {}) } };
  }
  if (expired !== undefined) return { expired };
  if (context.otherTools) {
    for (const marker of MARKERS)
      if (marker.covers(concern) && marker.pattern.test(views.markers)) return { suppressed: { by: marker.name } };
  }
  return undefined;
}

/** Today as a suppression's `until` is compared with it. */
export const todayUtc = (now = Date.now()): string => new Date(now).toISOString().slice(0, 10);
