// `diff-review review --service URL`: the review done by a real running service through its API
// gives the same output as in-process for the same diff and config, in every format; a service
// that cannot be reached or fails the review exits 3. The built CLI, real repos, a real service.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeHealthy, startTestService, type TestService } from '../../support/test-service.ts';
import { buildCli, FAKE_GITHUB_TOKEN, git, makeRepo, runCli, type TestRepo } from './review-cli.ts';

let service: TestService;
const repos: TestRepo[] = [];
beforeAll(async () => {
  buildCli();
  service = await startTestService();
}, 60_000);
afterAll(() => closeHealthy(service));
afterEach(() => {
  for (const r of repos.splice(0)) r.cleanup();
});

function repoWithFindings(): TestRepo {
  const r = makeRepo({ 'src/app.js': 'const a = 1;\n' });
  repos.push(r);
  // the last debugger is suppressed by its comment: in-process and through the service alike
  r.write(
    'src/app.js',
    `const a = 1;\nconst token = "${FAKE_GITHUB_TOKEN}";\ndebugger;\n// TODO later\n\ndebugger; // diff-review-ignore no-debugger (kept for the demo, see #3)\n`,
  );
  r.write('vendor/lib.js', 'debugger;\n');
  r.write('src/util.py', 'import pdb; pdb.set_trace()\nprint("x")  # FIXME\n');
  r.commit('work');
  r.write('.diff-review.yml', 'rules:\n  no-debugger: error\n  todo-without-issue: off\nignore: [vendor/]\n');
  return r;
}

const FORMATS = ['text', 'json', 'sarif', 'github', 'rdjsonl', 'gitlab', 'checkstyle', 'junit'];
/** The run's duration is the one thing that differs between two runs. */
const withoutTimes = (output: string) =>
  output
    .replace(/\d+ ms\)/g, 'N ms)')
    .replace(/"duration_ms": \d+/g, '"duration_ms": N')
    .replace(/time="[\d.]+"/g, 'time="N"');

const viaService = (token = service.reviewToken) => ({ DIFF_REVIEW_TOKEN: token });

describe('diff-review review --service', () => {
  // One test per format: each is two CLI runs, well inside a test's time on a busy machine.
  it.each(FORMATS)('gives the same output as in-process for the same diff and config: %s', async (format) => {
    const r = repoWithFindings();
    const offline = await runCli(['review', '--format', format, '--fail-on', 'warning'], { cwd: r.dir });
    const online = await runCli(['review', '--format', format, '--fail-on', 'warning', '--service', service.url], {
      cwd: r.dir,
      env: viaService(),
    });
    // (a review that takes over a second, on a busy machine, says so on stderr: not a difference)
    expect(online.stderr.replace(/^diff-review: reviewing .*…\n/, '')).toBe('');
    expect(online.code).toBe(offline.code);
    expect(withoutTimes(online.stdout)).toBe(withoutTimes(offline.stdout));
  });

  it('the outputs compared hold the config and every kind of finding', async () => {
    const r = repoWithFindings();
    const json = JSON.parse((await runCli(['review', '--format', 'json'], { cwd: r.dir })).stdout);
    expect(json.findings.map((f: { rule_id: string; severity: string }) => `${f.rule_id} ${f.severity}`)).toEqual([
      'secret error',
      'no-debugger error',
      'no-debugger error',
      'no-print info',
    ]);
    expect(json.summary.ignored_files).toBe(1); // vendor/lib.js, not sent
    expect(json.suppressed.map((f: { rule_id: string; line: number }) => `${f.rule_id} ${f.line}`)).toEqual([
      'no-debugger 6',
    ]);
  });

  it('DIFF_REVIEW_URL stands for --service; a diff from stdin and an empty diff work the same way', async () => {
    const r = repoWithFindings();
    const diff = git(r.dir, 'diff', 'main...HEAD');
    const env = { ...viaService(), DIFF_REVIEW_URL: service.url };
    const online = await runCli(['review', '--format', 'json', '--diff', '-'], { cwd: r.dir, input: diff, env });
    const offline = await runCli(['review', '--format', 'json', '--diff', '-'], { cwd: r.dir, input: diff });
    expect(withoutTimes(online.stdout)).toBe(withoutTimes(offline.stdout));
    const listed = await service.client().listReviews();
    expect(listed.reviews.length).toBeGreaterThan(0); // it really went through the service
    const empty = await runCli(['review', '--format', 'json', '--diff', '-'], { cwd: r.dir, input: '', env });
    expect(empty.code).toBe(0);
  });

  it('the progress line covers the wait on the service, and names no address (it may hold credentials)', async () => {
    const r = repoWithFindings();
    const run = await runCli(['review', '--format', 'json', '--service', service.url], {
      cwd: r.dir,
      env: { ...viaService(), DIFF_REVIEW_PROGRESS_AFTER_MS: '0' },
    });
    expect(run.stderr).toMatch(
      /^diff-review: reading the diff from git…\ndiff-review: reviewing main\.\.\.HEAD \(\d+ KB\) through the service…\n$/,
    );
    expect(JSON.parse(run.stdout).findings.length).toBeGreaterThan(0);
  });

  it('a text that is not a diff exits 2 as in-process does', async () => {
    const r = repoWithFindings();
    const run = await runCli(['review', '--diff', '-', '--service', service.url], {
      cwd: r.dir,
      input: 'hello\n',
      env: viaService(),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/stdin is not a unified diff/);
  });
});

describe('diff-review review --service: exit 3 when no review was done', () => {
  it('the service cannot be reached', async () => {
    const r = repoWithFindings();
    const stopped = await startTestService();
    const url = stopped.url;
    await stopped.close();
    const run = await runCli(['review', '--service', url], { cwd: r.dir, env: viaService() });
    expect(run.code).toBe(3);
    expect(run.stderr).toContain(`the service at ${url} could not review main...HEAD`);
    expect(run.stdout).toBe('');
  });

  it('the service refuses the token: exit 3, and the token is never printed', async () => {
    const r = repoWithFindings();
    const bad = `drv_${'x'.repeat(38)}`;
    const run = await runCli(['review', '--service', service.url], { cwd: r.dir, env: viaService(bad) });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/\(401 unauthorized\)/);
    expect(run.stderr + run.stdout).not.toContain(bad);
  });

  it('the service fails the review (its job timeout)', async () => {
    const slow = await startTestService({ jobTimeoutMs: 1 });
    try {
      const r = repoWithFindings();
      const big = Array.from({ length: 20_000 }, (_, i) => `const v${i} = compute(${i}); // TODO ${i}`).join('\n');
      r.write('src/big.js', `${big}\n`);
      r.commit('big');
      const run = await runCli(['review', '--service', slow.url], { cwd: r.dir, env: viaService(slow.reviewToken) });
      expect(run.code).toBe(3);
      expect(run.stderr).toMatch(/failed the review \(timeout\)/);
    } finally {
      await slow.close();
    }
  });

  it('a diff over the service limit (1,000,000 bytes) exits 3 and says to review in-process', async () => {
    const r = repoWithFindings();
    const line = `+${'x'.repeat(99)}\n`;
    const header = 'diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -0,0 +1,10000 @@\n';
    const diff = header + line.repeat(10_000);
    expect(Buffer.byteLength(diff)).toBeGreaterThan(1_000_000);
    const run = await runCli(['review', '--diff', '-', '--service', service.url], {
      cwd: r.dir,
      input: diff,
      env: viaService(),
    });
    expect(run.code).toBe(3);
    expect(run.stderr).toMatch(/takes at most 1000000\. Review it in-process \(without --service\)/);
    expect((await runCli(['review', '--diff', '-'], { cwd: r.dir, input: diff })).code).toBe(0);
  });

  it('no token, or an address that is not http(s): exit 2', async () => {
    const r = repoWithFindings();
    const noToken = await runCli(['review', '--service', service.url], { cwd: r.dir });
    expect(noToken.code).toBe(2);
    expect(noToken.stderr).toMatch(/--service needs a review API token in DIFF_REVIEW_TOKEN/);
    const ftp = await runCli(['review', '--service', 'ftp://example.com'], { cwd: r.dir, env: viaService() });
    expect(ftp.code).toBe(2);
    expect(ftp.stderr).toMatch(/--service ftp:\/\/example\.com: not an http/);
  });
});
