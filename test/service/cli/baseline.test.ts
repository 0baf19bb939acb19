// --baseline / --update-baseline: only new findings are reported and counted; a finding that only
// moved is still known; the file is sorted, stable and holds no secret. The built CLI, real repos.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildCli, FAKE_GITHUB_TOKEN, makeRepo, runCli, type TestRepo } from './review-cli.ts';

const repos: TestRepo[] = [];
beforeAll(buildCli, 60_000);
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

function repoWith(lines: string[]): TestRepo {
  const r = makeRepo();
  repos.push(r);
  r.write('src/app.js', `${lines.join('\n')}\n`);
  r.commit('work');
  return r;
}
const review = (r: TestRepo, ...args: string[]) => runCli(['review', '--format', 'json', ...args], { cwd: r.dir });
const ruleIds = (stdout: string) => (JSON.parse(stdout).findings as { rule_id: string }[]).map((f) => f.rule_id);

describe('diff-review review --baseline', () => {
  it('--update-baseline records the findings; then they are hidden and do not fail the run, new ones do', async () => {
    const r = repoWith([`const token = "${FAKE_GITHUB_TOKEN}";`, 'debugger;']);
    const update = await review(r, '--baseline', '.diff-review-baseline.json', '--update-baseline');
    expect(update.code).toBe(0);
    const file = readFileSync(join(r.dir, '.diff-review-baseline.json'), 'utf8');
    expect(file).not.toContain(FAKE_GITHUB_TOKEN.slice(4));
    expect(JSON.parse(file).findings.map((f: { rule_id: string }) => f.rule_id)).toEqual(['no-debugger', 'secret']);

    const known = await review(r, '--baseline', '.diff-review-baseline.json');
    expect(known.code).toBe(0);
    expect(ruleIds(known.stdout)).toEqual([]);
    expect(JSON.parse(known.stdout).summary.hidden_by_baseline).toBe(2);

    r.write(
      'src/app.js',
      `${[
        '// TODO later',
        `const token = "${FAKE_GITHUB_TOKEN}";`,
        'debugger;',
        // another token: random-looking (a repeated unit such as Zz9Zz9… is a placeholder, not a secret)
        `const other = "ghp_Mx4Rb8Kt2Wq6Jn1Vd5Hs9Lc3Pf7Gy0TzE3aQ";`,
      ].join('\n')}\n`,
    );
    r.commit('more');
    const next = await review(r, '--baseline', '.diff-review-baseline.json');
    // The two known findings moved down a line: still known. The new secret and the TODO are new.
    expect(ruleIds(next.stdout)).toEqual(['todo-without-issue', 'secret']);
    expect(JSON.parse(next.stdout).findings[1].line).toBe(4);
    expect(next.code).toBe(1);
  });

  it('writes the same bytes for the same findings (stable, sorted, one entry a line)', async () => {
    const r = repoWith(['debugger;', '// TODO later', 'debugger; // again']);
    await review(r, '--baseline', 'b1.json', '--update-baseline');
    await review(r, '--baseline', 'b2.json', '--update-baseline');
    const first = readFileSync(join(r.dir, 'b1.json'), 'utf8');
    expect(readFileSync(join(r.dir, 'b2.json'), 'utf8')).toBe(first);
    const lines = first.split('\n');
    expect(lines.slice(0, 3)).toEqual(['{', '  "version": 1,', '  "findings": [']);
    expect(lines.filter((l) => l.includes('"fingerprint"'))).toHaveLength(3);
  });

  it('a missing or broken baseline, or --update-baseline alone, exits 2 naming the file', async () => {
    const r = repoWith(['debugger;']);
    writeFileSync(join(r.dir, 'broken.json'), '{"findings": ');
    writeFileSync(join(r.dir, 'other.json'), '{"version": 1, "findings": [{"rule_id": "x"}]}');
    const cases: [string[], RegExp][] = [
      [['--baseline', 'missing.json'], /--baseline .*missing\.json: no such file \(make one with --update-baseline\)/],
      [['--baseline', 'broken.json'], /--baseline .*broken\.json: not JSON/],
      [['--baseline', 'other.json'], /--baseline .*other\.json: findings\[0\] has no "fingerprint"/],
      [['--update-baseline'], /--update-baseline needs --baseline <file>/],
    ];
    for (const [args, message] of cases) {
      const run = await review(r, ...args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toMatch(message);
    }
  });
});
