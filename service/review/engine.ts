// The review pipeline over plain values: parsed diff → rules over added lines → findings
// (suppressed, re-configured, de-duplicated, sorted, fingerprinted, capped).
import type { Severity } from '../api/schemas.ts';
import type { DiffLine, FileDiff, ParsedDiff } from './diff/parse.ts';
import { parseUnifiedDiff } from './diff/parse.ts';
import { findingFingerprint } from './fingerprint.ts';
import { ALL_RULES } from './rules/index.ts';
import { commentSyntaxOf, lexLine } from './rules/lexer.ts';
import type { FileRule, LineRule, Rule, ScanRule } from './rules/rule.ts';
import { isSuppressed } from './suppression.ts';
import type { EngineConfig, Finding, ReviewResult, RuleInfo } from './types.ts';

export const DEFAULT_MAX_FINDINGS = 500;
export const TRUNCATED_RULE_ID = 'review-truncated';

const TRUNCATED_RULE: RuleInfo = {
  id: TRUNCATED_RULE_ID,
  severity: 'info',
  summary: 'The review found more than the configured maximum of findings; the rest were not reported.',
  help: 'Fix the reported findings and review again, or raise the maximum.',
};

export const RULES: RuleInfo[] = [
  ...ALL_RULES.map(({ id, severity, summary, help }) => ({ id, severity, summary, help })),
  TRUNCATED_RULE,
];

/** A finding before configuration, de-duplication and fingerprinting; keeps the line's text. */
interface RawFinding {
  rule: Rule;
  file: string;
  line: number;
  column?: number;
  endColumn?: number;
  message: string;
  text: string;
  above: string | undefined;
}

interface ActiveRules {
  line: LineRule[];
  file: FileRule[];
  scan: ScanRule[];
  /** One test of every line rule's keywords at once: lines that fail it are never lexed. */
  keywords: RegExp | null;
  /** The line keywords and every scan rule's prefilter in one regex: most lines fail it and cost one test. */
  anyKeyword: RegExp | null;
  severity: Map<string, Severity>;
}

function activeRules(config: EngineConfig | undefined): ActiveRules {
  const overrides = config?.rules ?? {};
  const active: ActiveRules = { line: [], file: [], scan: [], keywords: null, anyKeyword: null, severity: new Map() };
  const keywords = new Set<string>();
  for (const rule of ALL_RULES) {
    const override = overrides[rule.id];
    if (override === 'off') continue;
    active.severity.set(rule.id, override ?? rule.severity);
    if (rule.kind === 'line') {
      active.line.push(rule);
      for (const keyword of rule.keywords) keywords.add(keyword);
    } else if (rule.kind === 'file') active.file.push(rule);
    else active.scan.push(rule);
  }
  const lineSource = [...keywords].map(escapeRegExp).join('|');
  if (keywords.size > 0) active.keywords = new RegExp(lineSource);
  const sources = [...(keywords.size > 0 ? [lineSource] : []), ...active.scan.map((rule) => rule.prefilter.source)];
  if (sources.length > 0) active.anyKeyword = new RegExp(sources.join('|'));
  return active;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Reviews a unified diff. Throws InvalidDiffError when the text is not one. */
export async function reviewParsedDiff(diff: ParsedDiff, config?: EngineConfig): Promise<ReviewResult> {
  const rules = activeRules(config);
  const raw: RawFinding[] = [];
  const scans: Promise<void>[] = [];
  let addedLines = 0;

  for (const file of diff.files) {
    addedLines += file.addedLines;
    const path = file.newPath;
    if (path === null || file.addedLines === 0) continue;
    for (const rule of rules.file) {
      const found = rule.check(file, diff);
      if (found) {
        const at = locate(file, found.line);
        raw.push({ rule, file: path, line: found.line, message: found.message ?? rule.message, text: at?.text ?? '', above: at?.above });
      }
    }
    reviewLines(file, path, rules, raw, scans);
  }
  await Promise.all(scans);

  return { findings: finish(raw, rules, config), stats: { files: diff.files.length, addedLines } };
}

function reviewLines(file: FileDiff, path: string, rules: ActiveRules, raw: RawFinding[], scans: Promise<void>[]): void {
  const lineRules = rules.line.filter((rule) => rule.files(path));
  const scanRules = rules.scan.filter((rule) => rule.files(path));
  const keywords = lineRules.length > 0 ? rules.keywords : null;
  const syntax = commentSyntaxOf(path);
  const scanInputs = scanRules.map(() => [] as { text: string; newLine: number; above: string | undefined }[]);

  for (const hunk of file.hunks) {
    const lines = hunk.lines;
    for (let index = 0; index < lines.length; index++) {
      const diffLine = lines[index]!;
      if (diffLine.kind !== '+') continue;
      const text = diffLine.text;
      if (rules.anyKeyword === null || !rules.anyKeyword.test(text)) continue;
      for (let s = 0; s < scanRules.length; s++) {
        if (scanRules[s]!.prefilter.test(text)) scanInputs[s]!.push({ text, newLine: diffLine.newLine, above: lineAbove(lines, index) });
      }
      if (keywords === null || !keywords.test(text)) continue;
      let lexed: ReturnType<typeof lexLine> | null = null;
      for (const rule of lineRules) {
        if (!rule.keywords.some((keyword) => text.includes(keyword))) continue;
        lexed ??= lexLine(text, syntax);
        const match = rule.check({ text, path, previous: lines[index - 1], hunk: lines, index, ...lexed });
        if (match) {
          raw.push({
            rule,
            file: path,
            line: diffLine.newLine,
            column: match.column,
            endColumn: match.endColumn,
            message: match.message ?? rule.message,
            text,
            above: lineAbove(lines, index),
          });
        }
      }
    }
  }

  scanRules.forEach((rule, s) => {
    const input = scanInputs[s]!;
    if (input.length === 0) return;
    const byLine = new Map(input.map((line) => [line.newLine, line]));
    scans.push(
      rule.scan(path, input).then((found) => {
        for (const f of found) {
          const line = byLine.get(f.line);
          raw.push({ rule, file: path, line: f.line, column: f.column, endColumn: f.endColumn, message: f.message, text: line?.text ?? '', above: line?.above });
        }
      }),
    );
  });
}

function lineAbove(lines: readonly DiffLine[], index: number): string | undefined {
  for (let i = index - 1; i >= 0; i--) if (lines[i]!.kind !== '-') return lines[i]!.text;
  return undefined;
}

/** The text of an added line of a file and the line above it. */
function locate(file: FileDiff, newLine: number): { text: string; above: string | undefined } | undefined {
  for (const hunk of file.hunks) {
    const index = hunk.lines.findIndex((line) => line.kind === '+' && line.newLine === newLine);
    if (index >= 0) return { text: hunk.lines[index]!.text, above: lineAbove(hunk.lines, index) };
  }
  return undefined;
}

function finish(raw: RawFinding[], rules: ActiveRules, config: EngineConfig | undefined): Finding[] {
  raw.sort((a, b) => compare(a.file, b.file) || a.line - b.line || compare(a.rule.id, b.rule.id) || (a.column ?? 0) - (b.column ?? 0));
  const findings: Finding[] = [];
  const seen = new Set<string>();
  const occurrences = new Map<string, number>();
  for (const f of raw) {
    const key = `${f.rule.id}\0${f.file}\0${f.line}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (isSuppressed(f.rule.id, f.text, f.above)) continue;
    const textKey = `${f.rule.id}\0${f.file}\0${f.text.trim()}`;
    const occurrence = occurrences.get(textKey) ?? 0;
    occurrences.set(textKey, occurrence + 1);
    const finding: Finding = {
      rule_id: f.rule.id,
      severity: rules.severity.get(f.rule.id) ?? f.rule.severity,
      file_path: f.file,
      line: f.line,
      message: `${f.rule.id}: ${f.message}`,
      fingerprint: findingFingerprint(f.rule.id, f.file, f.text, occurrence),
    };
    if (f.column !== undefined) finding.start_column = f.column;
    if (f.endColumn !== undefined) finding.end_column = f.endColumn;
    findings.push(finding);
  }
  const max = Math.max(0, Math.floor(config?.maxFindings ?? DEFAULT_MAX_FINDINGS));
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

export async function reviewUnifiedDiff(text: string, config?: EngineConfig): Promise<ReviewResult> {
  return reviewParsedDiff(parseUnifiedDiff(text), config);
}
