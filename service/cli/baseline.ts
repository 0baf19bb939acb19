// The baseline: findings a team has accepted, recorded by the engine's line-independent
// fingerprint (a finding that only moved is still known), so CI reports only new ones. The file is
// sorted and stable (diff-friendly) and holds no line text, so no secret value.
import { writeFile } from 'node:fs/promises';
import type { Finding } from '../engine/index.ts';
import { UsageError } from './exit-codes.ts';
import { readUserFile } from './user-file.ts';

const BASELINE_VERSION = 1;

export interface BaselineEntry {
  file_path: string;
  rule_id: string;
  fingerprint: string;
}

/** The fingerprints recorded in a baseline file. */
export async function readBaseline(file: string): Promise<Set<string>> {
  const text = await readUserFile(file, `--baseline ${file}`, 'a baseline file', {
    whenMissing: ' (make one with --update-baseline)',
  });
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--baseline ${file}: not JSON (${(error as Error).message}).`);
  }
  const findings = (document as { findings?: unknown } | null)?.findings;
  const version = (document as { version?: unknown } | null)?.version;
  if (version !== BASELINE_VERSION || !Array.isArray(findings)) {
    throw new UsageError(
      `--baseline ${file}: not a diff-review baseline (expected {"version": ${BASELINE_VERSION}, "findings": [...]}).`,
    );
  }
  const fingerprints = new Set<string>();
  for (const [i, entry] of findings.entries()) {
    const fingerprint = (entry as { fingerprint?: unknown } | null)?.fingerprint;
    if (typeof fingerprint !== 'string' || fingerprint === '')
      throw new UsageError(`--baseline ${file}: findings[${i}] has no "fingerprint".`);
    fingerprints.add(fingerprint);
  }
  return fingerprints;
}

/** Writes every finding to the baseline file, sorted by file, rule and fingerprint. */
export async function writeBaseline(file: string, findings: readonly Finding[]): Promise<void> {
  const entries: BaselineEntry[] = findings
    .map(({ file_path, rule_id, fingerprint }) => ({ file_path, rule_id, fingerprint }))
    .sort(
      (a, b) =>
        compare(a.file_path, b.file_path) || compare(a.rule_id, b.rule_id) || compare(a.fingerprint, b.fingerprint),
    );
  const unique = entries.filter(
    (entry, i) =>
      i === 0 || entry.fingerprint !== entries[i - 1]!.fingerprint || entry.file_path !== entries[i - 1]!.file_path,
  );
  const text = `{\n  "version": ${BASELINE_VERSION},\n  "findings": [\n${unique.map((e) => `    ${JSON.stringify(e)}`).join(',\n')}${unique.length ? '\n' : ''}  ]\n}\n`;
  try {
    await writeFile(file, text);
  } catch (error) {
    throw new UsageError(`--baseline ${file}: cannot write it (${(error as Error).message}).`);
  }
}

/** The findings the baseline does not know. */
export function newFindings(findings: readonly Finding[], baseline: ReadonlySet<string>): Finding[] {
  return findings.filter((finding) => !baseline.has(finding.fingerprint));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
