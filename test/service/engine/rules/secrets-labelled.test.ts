// The labelled set (test/fixtures/secrets/labelled-set.ts) committed by real git and reviewed:
// recall and precision of the secret rules per family, at least 0.95 each. The table itself:
// node test/bench/secrets.ts (beside gitleaks where it is installed).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../../../service/engine/index.ts';
import type { Finding } from '../../../../service/engine/index.ts';
import { LABELLED_SET } from '../../../fixtures/secrets/labelled-set.ts';
import type { LabelledRepo } from '../../../fixtures/secrets/score.ts';
import { labelledRepo, SECRET_RULE_IDS, score, scoreTable } from '../../../fixtures/secrets/score.ts';

let repo: LabelledRepo;
let findings: Finding[];

beforeAll(async () => {
  repo = labelledRepo(LABELLED_SET);
  findings = (await createEngine({ maxFindings: 10_000 }).review(repo.diff)).findings.filter((f) =>
    SECRET_RULE_IDS.has(f.rule_id),
  );
});
afterAll(() => repo?.cleanup());

describe('secrets: the labelled set', () => {
  it('has at least 60 credential formats and 20 look-alikes', () => {
    expect(new Set(LABELLED_SET.filter((s) => s.line !== null).map((s) => s.format)).size).toBeGreaterThanOrEqual(60);
    expect(LABELLED_SET.filter((s) => s.line === null).length).toBeGreaterThanOrEqual(20);
  });

  it('finds at least 95% of the leaks of every family, and 95% of what it reports are leaks', () => {
    const scores = score(
      LABELLED_SET,
      findings.map((f) => ({ path: f.file_path, line: f.line })),
    );
    const table = scoreTable(scores);
    const detail = scores
      .map(
        (s) => `${s.family}: missed ${JSON.stringify(s.missed)}, falsely reported ${JSON.stringify(s.falselyReported)}`,
      )
      .join('\n');
    for (const row of scores) {
      expect(row.recall, `${table}\n${detail}`).toBeGreaterThanOrEqual(0.95);
      expect(row.precision, `${table}\n${detail}`).toBeGreaterThanOrEqual(0.95);
    }
  });

  it('never puts a secret in a message', () => {
    // The random parts of the leaks' lines (names such as DATABRICKS_TOKEN have no digit).
    const secrets = LABELLED_SET.filter((s) => s.line !== null)
      .flatMap((s) => s.lines[s.line! - 1]!.match(/[\w+/=.~:-]{16,}/g) ?? [])
      .filter((value) => /\d/.test(value) && /[a-z]/.test(value));
    expect(secrets.length).toBeGreaterThan(90);
    for (const f of findings) for (const value of secrets) expect(f.message).not.toContain(value.slice(-12));
  });
});
