// The finishing stage, pure: raw findings in, the review's findings out: sorted, one per rule and
// line (one per file for a rule about the file), suppressed where a comment says so (kept apart),
// re-configured, fingerprinted and capped.
import type { Severity } from '../api/schemas.ts';
import { findingFingerprint } from './fingerprint.ts';
import type { Rule, SecretSpan } from './rules/rule.ts';
import { suppressionViews } from './rules/suppression-directives.ts';
import { type Concern, type SuppressionContext, suppressionOf } from './suppression.ts';
import type { Finding, RuleInfo, SuppressedFinding } from './types.ts';

export const DEFAULT_MAX_FINDINGS = 500;
export const TRUNCATED_RULE_ID = 'review-truncated';

export const TRUNCATED_RULE: RuleInfo = {
  id: TRUNCATED_RULE_ID,
  severity: 'info',
  summary: 'The review found more than the configured maximum of findings; the rest were not reported.',
  help: 'Fix the reported findings and review again, or raise the maximum.',
};

/** A finding before configuration, de-duplication and fingerprinting; keeps the line's text. */
export interface RawFinding {
  rule: Rule;
  file: string;
  line: number;
  column?: number;
  endColumn?: number;
  message: string;
  /** The whole line (not only what the rules read of it). */
  text: string;
  /** The line above in its hunk (context or added), for suppression comments. */
  above: string | undefined;
  /** A secret on the line, which the fingerprint must not reveal. */
  secret?: SecretSpan;
  /** A weaker finding: one of the same rule on the same line that is not generic wins. */
  generic?: boolean;
}

/** What stands for a secret in the text a fingerprint is made of. */
const SECRET_MASK = '<secret>';

/**
 * The text a finding's fingerprint is made of: the line, every secret on it masked, whichever
 * finding found it (a TODO or a TLS finding on a line holding a password hashes that line too, and
 * of two secrets on one line only one finding is kept). An unsalted hash of a secret would let
 * whoever reads fingerprints (SARIF, results files) confirm guesses offline; masked, the
 * fingerprint stays stable across pushes of the same line.
 */
function fingerprintText(text: string, secrets: readonly SecretSpan[] | undefined): string {
  if (secrets === undefined) return text;
  const spans = [...secrets].sort((a, b) => a.start - b.start);
  let masked = '';
  let at = 0;
  for (const span of spans) {
    if (span.start < at)
      at = Math.max(at, span.end); // overlaps the span masked last
    else {
      masked += text.slice(at, span.start) + SECRET_MASK;
      at = span.end;
    }
  }
  return masked + text.slice(at);
}

/** Every secret span of the raw findings, by file and line. */
function secretsByLine(raw: readonly RawFinding[]): Map<string, SecretSpan[]> {
  const byLine = new Map<string, SecretSpan[]>();
  for (const f of raw) {
    if (!f.secret) continue;
    const key = `${f.file}\0${f.line}`;
    const spans = byLine.get(key);
    if (spans) spans.push(f.secret);
    else byLine.set(key, [f.secret]);
  }
  return byLine;
}

export function finish(
  raw: RawFinding[],
  severity: ReadonlyMap<string, Severity>,
  maxFindings: number | undefined,
  suppression: SuppressionContext & { concernOf: (ruleId: string) => Concern | undefined },
): { findings: Finding[]; suppressed: SuppressedFinding[] } {
  raw.sort(
    (a, b) =>
      compare(a.file, b.file) ||
      a.line - b.line ||
      compare(a.rule.id, b.rule.id) ||
      Number(a.generic ?? false) - Number(b.generic ?? false) ||
      (a.column ?? 0) - (b.column ?? 0),
  );
  const secrets = secretsByLine(raw); // before de-duplication drops any
  const findings: Finding[] = [];
  const suppressed: SuppressedFinding[] = [];
  const seen = new Set<string>();
  // Per list, so that a suppressed finding never shifts the fingerprints of reported ones.
  const occurrences = { reported: new Map<string, number>(), suppressed: new Map<string, number>() };
  const oncePerFile = new Map<string, { finding: Finding; lines: number; more: (lines: number) => string }>();
  for (const f of raw) {
    const key = `${f.rule.id}\0${f.file}\0${f.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const verdict = f.rule.unsuppressible
      ? undefined
      : suppressionOf(
          f.rule.id,
          suppression.concernOf(f.rule.id),
          suppressionViews(f.file, f.text, f.above),
          suppression,
        );
    const isSuppressed = verdict !== undefined && 'suppressed' in verdict;
    const once = f.rule.kind === 'line' ? f.rule.oncePerFile : undefined;
    const fileKey = `${f.rule.id}\0${f.file}`;
    if (once && !isSuppressed && oncePerFile.has(fileKey)) {
      oncePerFile.get(fileKey)!.lines++;
      continue;
    }
    const text = fingerprintText(f.text, secrets.get(`${f.file}\0${f.line}`));
    const textKey = `${f.rule.id}\0${f.file}\0${text.trim()}`;
    const counts = isSuppressed ? occurrences.suppressed : occurrences.reported;
    const occurrence = counts.get(textKey) ?? 0;
    counts.set(textKey, occurrence + 1);
    const expired =
      verdict !== undefined && 'expired' in verdict ? ` (its diff-review-ignore expired on ${verdict.expired})` : '';
    const finding: Finding = {
      rule_id: f.rule.id,
      severity: severity.get(f.rule.id) ?? f.rule.severity,
      file_path: f.file,
      line: f.line,
      message: `${f.rule.id}: ${f.message}${expired}`,
      fingerprint: findingFingerprint(f.rule.id, f.file, text, occurrence),
    };
    if (f.column !== undefined) finding.start_column = f.column;
    if (f.endColumn !== undefined) finding.end_column = f.endColumn;
    if (isSuppressed) suppressed.push({ ...finding, suppressed: verdict.suppressed });
    else {
      findings.push(finding);
      if (once) oncePerFile.set(fileKey, { finding, lines: 1, more: once.more });
    }
  }
  for (const { finding, lines, more } of oncePerFile.values())
    if (lines > 1) finding.message = `${finding.message} ${more(lines)}`;
  return { findings: capped(findings, Math.max(0, Math.floor(maxFindings ?? DEFAULT_MAX_FINDINGS))), suppressed };
}

/** The first `max` findings, and one more that says how many were cut. */
function capped(findings: Finding[], max: number): Finding[] {
  if (findings.length <= max) return findings;
  const cut = findings.length - max;
  const firstCut = findings[max]!;
  const kept = findings.slice(0, max);
  kept.push({
    rule_id: TRUNCATED_RULE_ID,
    severity: 'info',
    file_path: firstCut.file_path,
    line: firstCut.line,
    message: `${TRUNCATED_RULE_ID}: ${cut} more finding${cut === 1 ? ' was' : 's were'} not reported (the limit is ${max}); fix the findings above and review again.`,
    fingerprint: findingFingerprint(TRUNCATED_RULE_ID, firstCut.file_path, String(cut), 0),
  });
  return kept;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
