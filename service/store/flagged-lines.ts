// The text of each flagged line, kept beside its finding: the diff is deleted once its review ends,
// and a client showing a finding wants the line it is about (SARIF's region.snippet). Taken from
// the diff's added lines while the diff is still stored. A line that holds a secret (a finding of a
// secret rule is on it) is never kept, nor a line too long to be read on a screen (minified code).
import { parseUnifiedDiff } from '../engine/diff/parse.ts';
import type { Finding } from '../engine/types.ts';

/** A finding as the store keeps it: with its line's text where the diff gave one. */
export interface StoredFinding extends Finding {
  /** The flagged line as the diff added it; absent when it holds a secret or is over MAX_LINE_TEXT characters. */
  line_text?: string;
  /** An inline comment suppressed it: kept for SARIF (a suppressed result) and the dashboard, never an API comment. */
  suppressed?: { by: string; reason?: string };
}

/** Longer lines are not kept: their findings' columns place them, the text would not be read. */
export const MAX_LINE_TEXT = 400;

/**
 * The engine's secret rules (service/engine/rules/secrets.ts: secretRules), named here so that the
 * store does not load the engine; test/service/store/flagged-lines.test.ts keeps the two in step.
 */
export const SECRET_RULE_IDS: ReadonlySet<string> = new Set(['secret', 'no-private-key', 'no-env-file']);

/**
 * The findings with their lines' text from `diff` (the review's own). Only the files with findings
 * are read; a diff that cannot be parsed (it was reviewed, so it should) leaves the findings as they are.
 */
export function withLineTexts(diff: string | undefined, findings: readonly Finding[]): StoredFinding[] {
  if (diff === undefined || findings.length === 0) return [...findings];
  const secretLines = new Set(findings.filter((f) => SECRET_RULE_IDS.has(f.rule_id)).map(lineKey));
  const wanted = new Set(findings.filter((f) => !secretLines.has(lineKey(f))).map((f) => f.file_path));
  const added = new Map<string, Map<number, string>>();
  try {
    for (const file of parseUnifiedDiff(diff).files) {
      if (file.newPath === null || !wanted.has(file.newPath)) continue;
      const lines = new Map<number, string>();
      for (const hunk of file.hunks)
        for (const line of hunk.lines) if (line.kind === '+') lines.set(line.newLine, line.text);
      added.set(file.newPath, lines);
    }
  } catch {
    return [...findings];
  }
  return findings.map((finding) => {
    const text = secretLines.has(lineKey(finding)) ? undefined : added.get(finding.file_path)?.get(finding.line);
    return text === undefined || text.length > MAX_LINE_TEXT ? finding : { ...finding, line_text: text };
  });
}

const lineKey = (finding: Finding) => `${finding.file_path}\0${finding.line}`;
