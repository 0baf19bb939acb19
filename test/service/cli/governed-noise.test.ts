// Noise users can govern, as `diff-review review` shows it (issue 26): a rule that fires on many
// lines of one file folds in the lists people read and keeps every location in JSON and SARIF;
// suppressed findings stay visible (SARIF suppressions, JSON `suppressed`, a count in text) and
// never count for the exit code. The built CLI on real repositories.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, FAKE_GITHUB_TOKEN, makeRepo, runCli, type TestRepo } from './review-cli.ts';
import { sarifSchemaErrors } from './sarif-schema.ts';

let repo: TestRepo | undefined;
beforeAll(() => buildCli(), 60_000);
afterEach(() => repo?.cleanup());

/** A repository whose branch adds `debuggers` debugger statements to one file. */
function withDebuggers(debuggers: number, config?: string): TestRepo {
  repo = makeRepo({ 'README.md': '# app\n', ...(config === undefined ? {} : { '.diff-review.yml': config }) });
  repo.write('src/app.js', `${Array.from({ length: debuggers }, (_, i) => `step(${i}); debugger;`).join('\n')}\n`);
  repo.commit('work');
  return repo;
}

const review = (dir: string, format: string, ...flags: string[]) =>
  runCli(['review', '--format', format, ...flags], { cwd: dir });

describe('one rule on many lines of one file', () => {
  it.each([
    [4, 4, 0],
    [5, 5, 0],
    [6, 5, 1],
    [19, 5, 14],
  ])('%i findings: text shows %i and folds %i', async (debuggers, shown, folded) => {
    const { dir } = withDebuggers(debuggers);
    const { stdout } = await review(dir, 'text', '--fail-on', 'none');
    expect(stdout.match(/^ {2}src\/app\.js:\d+:\d+ {2}warning {2}no-debugger/gm)).toHaveLength(shown);
    const fold = stdout.split('\n').filter((line) => line.includes('more in this file'));
    if (folded === 0) expect(fold).toEqual([]);
    else {
      expect(fold).toHaveLength(1);
      expect(fold[0]).toMatch(new RegExp(`warning {2}no-debugger {2}… and ${folded} more in this file: lines? 6\\b`));
    }
    // the summary counts every finding
    expect(stdout).toMatch(new RegExp(`^${debuggers} findings?: 0 errors, ${debuggers} warnings?`, 'm'));
  });

  it('github and gitlab fold the same way; JSON and SARIF keep every location', async () => {
    const { dir } = withDebuggers(8);
    const github = (await review(dir, 'github', '--fail-on', 'none')).stdout.trim().split('\n');
    expect(github).toHaveLength(6);
    expect(github.at(-1)).toMatch(
      /^::warning file=src\/app\.js,line=6,title=no-debugger::… and 3 more in this file: lines 6, 7, 8$/,
    );
    const gitlab = JSON.parse((await review(dir, 'gitlab', '--fail-on', 'none')).stdout) as { description: string }[];
    expect(gitlab).toHaveLength(6);
    const json = JSON.parse((await review(dir, 'json', '--fail-on', 'none')).stdout) as {
      findings: unknown[];
      comments: unknown[];
    };
    expect([json.findings.length, json.comments.length]).toEqual([8, 8]);
    const sarif = JSON.parse((await review(dir, 'sarif', '--fail-on', 'none')).stdout) as {
      runs: { results: unknown[] }[];
    };
    expect(sarif.runs[0]!.results).toHaveLength(8);
  });

  it('fold in .diff-review.yml sets the number shown; 0 never folds', async () => {
    const three = withDebuggers(8, 'fold: 3\n');
    expect((await review(three.dir, 'text', '--fail-on', 'none')).stdout).toContain('… and 5 more in this file');
    three.cleanup();
    const never = withDebuggers(8, 'fold: 0\n');
    const { stdout } = await review(never.dir, 'text', '--fail-on', 'none');
    expect(stdout).not.toContain('more in this file');
    expect(stdout.match(/ {2}no-debugger {2}/g)).toHaveLength(8);
  });

  it('lists errors first within a file', async () => {
    repo = makeRepo();
    repo.write('src/app.js', `debugger;\nconst token = "${FAKE_GITHUB_TOKEN}";\n`);
    repo.commit('work');
    const { stdout } = await review(repo.dir, 'text', '--fail-on', 'none');
    expect(stdout.indexOf('  error  secret')).toBeLessThan(stdout.indexOf('  warning  no-debugger'));
  });
});

describe('suppressed findings are not gone', () => {
  function withSuppressions(): TestRepo {
    repo = makeRepo();
    repo.write(
      'src/app.js',
      [
        `const token = "${FAKE_GITHUB_TOKEN}"; // gitleaks:allow`,
        'debugger; // diff-review-ignore no-debugger (stepping through on staging)',
        'ok(); // (a directive covers its line and the next)',
        'debugger;',
        '',
      ].join('\n'),
    );
    repo.commit('work');
    return repo;
  }

  it('SARIF: results with suppressions (inSource, the justification), valid against the 2.1.0 schema', async () => {
    const { dir } = withSuppressions();
    const log = JSON.parse((await review(dir, 'sarif')).stdout) as {
      runs: { results: { ruleId: string; suppressions?: { kind: string; justification: string }[] }[] }[];
    };
    expect(sarifSchemaErrors(log)).toEqual([]);
    const results = log.runs[0]!.results.map((r) => [r.ruleId, r.suppressions?.map((s) => [s.kind, s.justification])]);
    expect(results).toEqual([
      ['no-debugger', undefined],
      ['secret', [['inSource', 'gitleaks:allow on the line']]],
      ['no-debugger', [['inSource', 'stepping through on staging']]],
    ]);
  });

  it('JSON: `suppressed` with by and reason, beside findings; text: a count; neither counts for the exit code', async () => {
    const { dir } = withSuppressions();
    const json = await review(dir, 'json', '--fail-on', 'warning');
    const document = JSON.parse(json.stdout) as {
      findings: { rule_id: string }[];
      suppressed: { rule_id: string; line: number; suppressed: { by: string; reason?: string } }[];
      summary: { suppressed: number; error: number };
    };
    expect(document.findings.map((f) => f.rule_id)).toEqual(['no-debugger']);
    expect(document.suppressed.map((f) => [f.rule_id, f.line, f.suppressed])).toEqual([
      ['secret', 1, { by: 'gitleaks:allow' }],
      ['no-debugger', 2, { by: 'diff-review-ignore', reason: 'stepping through on staging' }],
    ]);
    expect(document.summary).toMatchObject({ suppressed: 2, error: 0 });
    expect(json.stdout).not.toContain(FAKE_GITHUB_TOKEN.slice(4));
    expect(json.code).toBe(1); // the one warning not suppressed fails --fail-on warning

    const text = await review(dir, 'text', '--fail-on', 'error');
    expect(text.stdout).toMatch(/, 2 suppressed \(gitleaks:allow 1, diff-review-ignore 1\)/);
    expect(text.code).toBe(0); // the suppressed secret is not an error that fails the run
  });

  it('.diff-review.yml: suppressions.require_reason makes a bare directive a finding; other_tools: false turns markers off', async () => {
    repo = makeRepo({
      'README.md': '# app\n',
      '.diff-review.yml': 'suppressions:\n  require_reason: true\n  other_tools: false\n',
    });
    repo.write(
      'src/app.js',
      [
        `const token = "${FAKE_GITHUB_TOKEN}"; // gitleaks:allow`,
        'debugger; // diff-review-ignore no-debugger',
        '',
      ].join('\n'),
    );
    repo.commit('work');
    const json = await review(repo.dir, 'json', '--fail-on', 'none');
    const document = JSON.parse(json.stdout) as {
      findings: { rule_id: string; line: number }[];
      suppressed: { rule_id: string }[];
    };
    expect(document.findings.map((f) => [f.rule_id, f.line])).toEqual([
      ['secret', 1],
      ['suppression-without-reason', 2],
    ]);
    expect(document.suppressed.map((f) => f.rule_id)).toEqual(['no-debugger']);
  });
});
