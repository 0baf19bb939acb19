// `diff-review review`: what is reviewed (branch, index, working tree, diff file, stdin), the exit
// codes CI gates on, and the errors a user can cause. The built CLI, real git repositories.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { reviewDiff } from '../../../service/engine/index.ts';
import { buildCli, FAKE_GITHUB_TOKEN, git, makeRepo, runCli, type TestRepo } from './review-cli.ts';

const repos: TestRepo[] = [];
function repo(files?: Record<string, string>): TestRepo {
  const made = makeRepo(files);
  repos.push(made);
  return made;
}

beforeAll(buildCli, 60_000);
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

const json = (stdout: string) =>
  JSON.parse(stdout) as {
    comments: { file_path: string; line: number; message: string; severity: string }[];
    findings: { rule_id: string; fingerprint: string }[];
  };
const rules = (stdout: string) => json(stdout).findings.map((f) => f.rule_id);

describe('diff-review review: what is reviewed', () => {
  it("reviews the branch against its base (three-dot): the branch's commits, not what main did since", async () => {
    const r = repo({ 'src/app.js': 'const a = 1;\n' });
    r.write('src/app.js', 'const a = 1;\ndebugger;\n');
    r.commit('feature work');
    git(r.dir, 'checkout', '-q', 'main');
    r.write('src/main-only.js', 'debugger;\n'); // moved on after the branch left: not the branch's change
    r.commit('main moved on');
    git(r.dir, 'checkout', '-q', 'feature');

    const run = await runCli(['review', '--format', 'json'], { cwd: r.dir });
    expect(run.stderr).toBe('');
    expect(json(run.stdout).comments).toEqual([
      { file_path: 'src/app.js', line: 2, message: expect.stringMatching(/^no-debugger: /), severity: 'warning' },
    ]);
    expect(run.code).toBe(0); // a warning does not fail under the default --fail-on error
  });

  it('--base takes a branch or any commit', async () => {
    const r = repo();
    r.write('a.js', 'debugger;\n');
    r.commit('one');
    r.write('b.js', 'debugger;\n');
    r.commit('two');
    const all = await runCli(['review', '--format', 'json', '--base', 'main'], { cwd: r.dir });
    const last = await runCli(['review', '--format', 'json', '--base', 'HEAD~1'], { cwd: r.dir });
    expect(json(all.stdout).comments.map((c) => c.file_path)).toEqual(['a.js', 'b.js']);
    expect(json(last.stdout).comments.map((c) => c.file_path)).toEqual(['b.js']);
  });

  it('--staged reviews the index only, also before the first commit', async () => {
    const r = repo();
    r.write('staged.js', 'debugger;\n');
    git(r.dir, 'add', 'staged.js');
    r.write('unstaged.js', 'debugger;\n'); // untracked: not part of the commit
    const run = await runCli(['review', '--staged', '--format', 'json'], { cwd: r.dir });
    expect(json(run.stdout).comments.map((c) => c.file_path)).toEqual(['staged.js']);

    const fresh = repo();
    git(fresh.dir, 'checkout', '-q', '--orphan', 'empty');
    git(fresh.dir, 'rm', '-rq', '--cached', '.');
    fresh.write('first.js', 'debugger;\n');
    git(fresh.dir, 'add', 'first.js');
    const first = await runCli(['review', '--staged', '--format', 'json'], { cwd: fresh.dir });
    expect(json(first.stdout).comments.map((c) => c.file_path)).toEqual(['first.js']);
  });

  it("--uncommitted adds the working tree's changes to tracked files; without it they are not reviewed", async () => {
    const r = repo({ 'src/app.js': 'const a = 1;\n' });
    r.write('src/app.js', 'const a = 1;\ndebugger;\n');
    expect(json((await runCli(['review', '--format', 'json'], { cwd: r.dir })).stdout).comments).toEqual([]);
    const run = await runCli(['review', '--uncommitted', '--format', 'json'], { cwd: r.dir });
    expect(json(run.stdout).comments.map((c) => `${c.file_path}:${c.line}`)).toEqual(['src/app.js:2']);
  });

  it("--diff FILE and --diff - review a unified diff with the same results as the engine (the service's)", async () => {
    const r = repo({ 'src/app.js': 'const a = 1;\n' });
    r.write('src/app.js', `const a = 1;\ndebugger;\nconst token = "${FAKE_GITHUB_TOKEN}";\n// TODO later\n`);
    r.commit('work');
    const diff = git(r.dir, 'diff', 'main...HEAD');
    writeFileSync(join(r.dir, 'change.diff'), diff);
    const fromFile = await runCli(['review', '--diff', 'change.diff', '--format', 'json'], { cwd: r.dir });
    const fromStdin = await runCli(['review', '--diff', '-', '--format', 'json'], { cwd: r.dir, input: diff });
    const engine = await reviewDiff(diff);
    expect(json(fromFile.stdout).findings).toEqual(engine.findings);
    expect(json(fromStdin.stdout).findings).toEqual(engine.findings);
    expect(rules(fromFile.stdout)).toEqual(['no-debugger', 'secret', 'todo-without-issue']);
  });

  it('an empty diff is nothing to review: exit 0, no findings', async () => {
    const r = repo();
    const run = await runCli(['review'], { cwd: r.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^No findings \(0 files, 0 added lines, \d+ ms\)\.\n$/);
  });
});

describe('diff-review review: exit codes', () => {
  async function withFindings(...lines: string[]): Promise<TestRepo> {
    const r = repo();
    r.write('src/app.js', `${lines.join('\n')}\n`);
    r.commit('work');
    return r;
  }
  const exitOf = async (r: TestRepo, ...args: string[]) => (await runCli(['review', ...args], { cwd: r.dir })).code;

  it('--fail-on error (default): 1 with an error, 0 with only a warning', async () => {
    const secret = await withFindings(`const token = "${FAKE_GITHUB_TOKEN}";`);
    const warning = await withFindings('debugger;');
    expect(await exitOf(secret)).toBe(1);
    expect(await exitOf(warning)).toBe(0);
  });

  it('--fail-on is inclusive: a warning fails at warning (exactly at), not at error (one above)', async () => {
    const warning = await withFindings('debugger;');
    expect(await exitOf(warning, '--fail-on', 'warning')).toBe(1);
    expect(await exitOf(warning, '--fail-on', 'error')).toBe(0);
    const info = await withFindings('// TODO later');
    expect(await exitOf(info, '--fail-on', 'info')).toBe(1);
    expect(await exitOf(info, '--fail-on', 'warning')).toBe(0);
  });

  it('--fail-on none: 0 whatever is found, and the findings are still printed', async () => {
    const r = await withFindings(`const token = "${FAKE_GITHUB_TOKEN}";`);
    const run = await runCli(['review', '--fail-on', 'none'], { cwd: r.dir });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('src/app.js:1:');
  });

  it('usage errors exit 2 with a message that says what and where', async () => {
    const r = repo();
    const cases: [string[], RegExp][] = [
      [['--format', 'yaml'], /--format.*Allowed choices are text, json, sarif/],
      [['--fail-on', 'critical'], /--fail-on.*Allowed choices are error, warning, info, none/],
      [['--staged', '--diff', 'x.diff'], /--staged.*cannot be used with.*--diff/],
      [['--bogus'], /unknown option '--bogus'/],
      [['--diff', 'missing.diff'], /--diff missing\.diff: no such file/],
      [['--base', 'no-such-branch'], /base branch "no-such-branch" was not found/],
      [['--head', 'no-such-commit'], /--head no-such-commit: no such branch or commit\./],
      [['--staged', '--head', 'HEAD'], /--head.*cannot be used with.*--staged|--staged.*cannot be used with.*--head/],
      [['--output', 'no-such-dir/out.txt'], /--output .*no-such-dir\/out\.txt/],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['review', ...args], { cwd: r.dir });
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
  });

  it('a text that is not a diff, or a folder that is not a repository, exits 2', async () => {
    const notADiff = await runCli(['review', '--diff', '-'], { cwd: repo().dir, input: 'hello\n' });
    expect(notADiff.code).toBe(2);
    expect(notADiff.stderr).toMatch(/stdin is not a unified diff/);
    const outside = await runCli(['review'], { cwd: '/' });
    expect(outside.code).toBe(2);
    expect(outside.stderr).toMatch(/is not inside a git repository/);
  });
});

describe('diff-review review --head', () => {
  it('reviews what a commit adds since it left the base, whatever HEAD is; SARIF names that commit', async () => {
    const r = repo();
    git(r.dir, 'remote', 'add', 'origin', 'https://github.com/acme/app.git');
    r.write('a.js', 'debugger;\n');
    r.commit('one');
    const reviewed = git(r.dir, 'rev-parse', 'HEAD').trim();
    r.write('b.js', 'debugger;\n');
    r.commit('two');
    git(r.dir, 'checkout', '-q', 'main');
    const run = await runCli(['review', '--format', 'sarif', '--base', 'main', '--head', reviewed], { cwd: r.dir });
    expect(run.stderr).toBe('');
    const [sarifRun] = JSON.parse(run.stdout).runs;
    expect(
      sarifRun.results.map(
        (x: { locations: { physicalLocation: { artifactLocation: { uri: string } } }[] }) =>
          x.locations[0]!.physicalLocation.artifactLocation.uri,
      ),
    ).toEqual(['a.js']);
    // the commit the results are about is the one reviewed; the merge base goes beside it
    expect(sarifRun.versionControlProvenance).toEqual([
      {
        repositoryUri: 'https://github.com/acme/app',
        revisionId: reviewed,
        properties: { baseCommit: git(r.dir, 'rev-parse', 'main').trim() },
      },
    ]);
  });

  it('the branch mode names HEAD as the revision too', async () => {
    const r = repo();
    git(r.dir, 'remote', 'add', 'origin', 'https://github.com/acme/app.git');
    r.write('a.js', 'debugger;\n');
    r.commit('one');
    const run = await runCli(['review', '--format', 'sarif'], { cwd: r.dir });
    const [provenance] = JSON.parse(run.stdout).runs[0].versionControlProvenance;
    expect(provenance.revisionId).toBe(git(r.dir, 'rev-parse', 'HEAD').trim());
  });
});

describe('diff-review review: output', () => {
  it('--output writes the format to the file and nothing to stdout', async () => {
    const r = repo();
    r.write('a.js', 'debugger;\n');
    r.commit('work');
    const run = await runCli(['review', '--format', 'json', '--output', 'out/../review.json'], { cwd: r.dir });
    expect(run.stdout).toBe('');
    expect(json(readFileSync(join(r.dir, 'review.json'), 'utf8')).comments).toHaveLength(1);
  });
});
