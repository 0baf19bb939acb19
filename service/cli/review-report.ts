// What every output format is made from: the findings that count (after the config and the
// baseline), with what the formats need beside them.
import type { Severity } from '../api/schemas.ts';
import { parseUnifiedDiff, type Finding, type RuleInfo } from '../engine/index.ts';
import { secretRules } from '../engine/rules/secrets.ts';

export interface ReviewReport {
  /** The findings that count: not removed by the config, not known to the baseline. */
  findings: Finding[];
  /** Findings the baseline knows (not in `findings`). */
  hiddenByBaseline: number;
  /** Findings in paths the project config ignores (not in `findings`). */
  ignoredByConfig: number;
  /** Every rule of the engine, for SARIF's rule descriptions. */
  rules: readonly RuleInfo[];
  repository?: string;
  baseCommit?: string;
  /** Files in the diff and lines it adds. */
  stats: { files: number; addedLines: number };
  durationMs: number;
  toolVersion: string;
  /** The text of an added line (for code frames and byte columns), or undefined. */
  addedLineText(file: string, line: number): string | undefined;
}

export function countBySeverity(findings: readonly Finding[]): Record<Severity, number> {
  const counts: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const finding of findings) counts[finding.severity]++;
  return counts;
}

/** The message without the `rule-id: ` prefix the API puts in front of it. */
export function messageText(finding: Finding): string {
  const prefix = `${finding.rule_id}: `;
  return finding.message.startsWith(prefix) ? finding.message.slice(prefix.length) : finding.message;
}

/**
 * Looks up added lines by file and new-file line. The diff is parsed into the plain model only
 * when a format first asks (text frames, rdjsonl byte columns), and only the files with findings
 * are indexed.
 */
export function addedLineLookup(
  diff: string,
  findings: readonly Finding[],
): (file: string, line: number) => string | undefined {
  let index: Map<string, Map<number, string>> | undefined;
  return (file, line) => {
    if (index === undefined) {
      index = new Map();
      const wanted = new Set(findings.map((f) => f.file_path));
      for (const parsed of parseUnifiedDiff(diff).files) {
        if (parsed.newPath === null || !wanted.has(parsed.newPath)) continue;
        const lines = new Map<number, string>();
        for (const hunk of parsed.hunks) for (const l of hunk.lines) if (l.kind === '+') lines.set(l.newLine, l.text);
        index.set(parsed.newPath, lines);
      }
    }
    return index.get(file)?.get(line);
  };
}

const SECRET_RULE_IDS = new Set(secretRules.map((rule) => rule.id));

/**
 * Lines that hold a secret (a finding of a secret rule is on them): their text is never printed,
 * since CI keeps its logs.
 */
export function secretLines(findings: readonly Finding[]): Set<string> {
  return new Set(findings.filter((f) => SECRET_RULE_IDS.has(f.rule_id)).map((f) => lineKey(f.file_path, f.line)));
}

export const lineKey = (file: string, line: number): string => `${file}\0${line}`;

/** Findings by file, files in the order of their first finding (the engine sorts by path). */
export function findingsByFile(findings: readonly Finding[]): Map<string, Finding[]> {
  const byFile = new Map<string, Finding[]>();
  for (const finding of findings) {
    const list = byFile.get(finding.file_path);
    if (list) list.push(finding);
    else byFile.set(finding.file_path, [finding]);
  }
  return byFile;
}
