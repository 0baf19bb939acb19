// A run that did not review everything never passes: no cap on findings hides one in-process (also
// with ignored paths or a baseline), a service that cut its list exits 3 (or 1), a diff over the
// CLI's limit exits 3 naming the limit, and a crash before the review exits 3. The built CLI, real
// git repositories, a real service.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeHealthy, startTestService, type TestService } from '../../support/test-service.ts';
import { BUILT_CLI, buildCli, FAKE_GITHUB_TOKEN, git, makeRepo, runCli, type TestRepo } from './review-cli.ts';

const repos: TestRepo[] = [];
beforeAll(buildCli, 60_000);
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

/** 600 warnings in a/gen.js (sorted first, so they fill a cap of 500), then a secret in z.js. */
function repoOverTheCap(): TestRepo {
  const r = makeRepo();
  repos.push(r);
  r.write('a/gen.js', 'debugger;\n'.repeat(600));
  r.write('z.js', `const token = "${FAKE_GITHUB_TOKEN}";\n`);
  r.commit('work');
  return r;
}

interface JsonReport {
  findings: { rule_id: string; file_path: string }[];
  summary: { ignored_files: number; truncated: boolean; hidden_by_baseline: number };
}
const review = async (r: TestRepo, args: string[], env?: Record<string, string>) => {
  const run = await runCli(['review', '--format', 'json', ...args], { cwd: r.dir, ...(env ? { env } : {}) });
  return { ...run, report: run.stdout ? (JSON.parse(run.stdout) as JsonReport) : undefined };
};
const secrets = (report: JsonReport | undefined) => report!.findings.filter((f) => f.rule_id === 'secret');

describe('in-process: no cap hides a finding', () => {
  it('more than 500 findings: every one is reported, and the secret after them fails the run', async () => {
    const r = repoOverTheCap();
    const run = await review(r, []);
    expect(run.code).toBe(1);
    expect(run.report!.findings).toHaveLength(601);
    expect(secrets(run.report)).toEqual([expect.objectContaining({ file_path: 'z.js' })]);
    expect(run.report!.findings.map((f) => f.rule_id)).not.toContain('review-truncated');
  });

  it('with the noisy folder ignored: the secret is still reported, and the folder is not reviewed', async () => {
    const r = repoOverTheCap();
    r.write('.diff-review.yml', 'ignore: [a/]\n');
    const run = await review(r, []);
    expect(run.code).toBe(1);
    expect(run.report!.findings.map((f) => f.rule_id)).toEqual(['secret']);
    expect(run.report!.summary.ignored_files).toBe(1);
    const text = await runCli(['review'], { cwd: r.dir });
    expect(text.stdout).toMatch(/1 file in ignored paths not reviewed/);
  });

  it('--update-baseline records every finding, so the next run hides them all and a new one still fails', async () => {
    const r = repoOverTheCap();
    const update = await review(r, ['--baseline', 'baseline.json', '--update-baseline']);
    expect(update.code).toBe(0);
    expect(JSON.parse(readFileSync(join(r.dir, 'baseline.json'), 'utf8')).findings).toHaveLength(601);
    const known = await review(r, ['--baseline', 'baseline.json']);
    expect(known.code).toBe(0);
    expect(known.report!.summary.hidden_by_baseline).toBe(601);
    r.write('zz.js', `const other = "${FAKE_GITHUB_TOKEN.replace('Qz', 'Qy')}";\n`);
    r.commit('another secret');
    const fresh = await review(r, ['--baseline', 'baseline.json']);
    expect(fresh.code).toBe(1);
    expect(secrets(fresh.report)).toEqual([expect.objectContaining({ file_path: 'zz.js' })]);
  });
});

describe('--service: a cut list is never an all-clear', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  }, 60_000);
  afterAll(() => closeHealthy(service));
  const viaService = () => ({ DIFF_REVIEW_TOKEN: service.reviewToken });

  it('the service cut its findings at 500: exit 3 with a clear line, the notice kept whatever the config says', async () => {
    const r = repoOverTheCap();
    r.write('.diff-review.yml', 'overrides:\n  - files: [a/]\n    rules: { no-debugger: info }\n');
    const run = await review(r, ['--service', service.url], viaService());
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/the review is incomplete: the service reported only its first findings/);
    expect(run.report!.summary.truncated).toBe(true);
    expect(run.report!.findings.at(-1)!.rule_id).toBe('review-truncated');
    // what is shown still fails the run when it is at --fail-on: 1, as ever
    expect((await review(r, ['--service', service.url, '--fail-on', 'info'], viaService())).code).toBe(1);
    // a baseline of a cut list would miss what was cut: not written
    const update = await review(
      r,
      ['--service', service.url, '--baseline', 'b.json', '--update-baseline'],
      viaService(),
    );
    expect(update.code).toBe(3);
    expect(update.stderr).toMatch(/b\.json was not written/);
  });

  it('ignored files are not sent: the secret is within the cap and fails the run', async () => {
    const r = repoOverTheCap();
    r.write('.diff-review.yml', 'ignore: [a/]\n');
    const run = await review(r, ['--service', service.url], viaService());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(1);
    expect(run.report!.findings.map((f) => f.rule_id)).toEqual(['secret']);
    expect(run.report!.summary.ignored_files).toBe(1);
  });
});

describe('a diff over the limit: exit 3, and the limit is stated', () => {
  const small = { DIFF_REVIEW_MAX_DIFF_BYTES: '4096' };

  it('from git (the branch, --staged)', async () => {
    const r = makeRepo();
    repos.push(r);
    r.write('big.txt', `${'x'.repeat(10_000)}\n`);
    r.commit('big');
    const branch = await runCli(['review'], { cwd: r.dir, env: small });
    expect(branch.code).toBe(3);
    expect(branch.stderr).toMatch(/The diff git made is larger than 4096 bytes, the most a review reads/);
    r.write('big2.txt', `${'y'.repeat(10_000)}\n`);
    git(r.dir, 'add', 'big2.txt');
    const staged = await runCli(['review', '--staged'], { cwd: r.dir, env: small });
    expect(staged.code).toBe(3);
    expect(staged.stderr).toMatch(/larger than 4096 bytes/);
    // under the limit, the same diff is reviewed
    expect((await runCli(['review'], { cwd: r.dir })).code).toBe(0);
  });

  it('from a file or stdin', async () => {
    const r = makeRepo();
    repos.push(r);
    const diff = `diff --git a/a.txt b/a.txt\n--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+${'x'.repeat(5000)}\n`;
    writeFileSync(join(r.dir, 'big.diff'), diff);
    const file = await runCli(['review', '--diff', 'big.diff'], { cwd: r.dir, env: small });
    expect(file.code).toBe(3);
    expect(file.stderr).toMatch(/--diff big\.diff is larger than 4096 bytes/);
    const stdin = await runCli(['review', '--diff', '-'], { cwd: r.dir, env: small, input: diff });
    expect(stdin.code).toBe(3);
    expect(stdin.stderr).toMatch(/The diff on stdin is larger than 4096 bytes/);
  });

  it('--help states the limits', async () => {
    const help = await runCli(['review', '--help'], { cwd: tmpdir() });
    expect(help.stdout).toMatch(/diffs up to 256 MiB are reviewed/);
    expect(help.stdout).toMatch(/1,000,000 bytes of UTF-8/);
  });
});

it('a crash before the review starts (its code fails to load) exits 3, not 1: not even --fail-on none passes it', async () => {
  // A copy of the built CLI whose review chunk throws when it loads, beside the project's packages.
  const root = mkdtempSync(join(tmpdir(), 'diff-review-broken-'));
  try {
    cpSync(join(BUILT_CLI, '..'), join(root, 'dist/service'), { recursive: true });
    writeFileSync(join(root, 'package.json'), readFileSync('package.json'));
    symlinkSync(join(process.cwd(), 'node_modules'), join(root, 'node_modules'));
    const cli = readFileSync(join(root, 'dist/service/cli.js'), 'utf8');
    const chunk = /import\("\.\/(run-review-[\w-]+\.js)"\)/.exec(cli)?.[1];
    expect(chunk, readdirSync(join(root, 'dist/service')).join(' ')).toBeDefined();
    writeFileSync(join(root, 'dist/service', chunk!), 'throw new Error("the review code is broken");\n');
    const run = spawnSync(process.execPath, [join(root, 'dist/service/cli.js'), 'review', '--fail-on', 'none'], {
      cwd: root,
      input: '',
      encoding: 'utf8',
    });
    expect(run.status).toBe(3);
    expect(run.stderr).toContain('diff-review review: the review code is broken');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
