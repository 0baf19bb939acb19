// .pre-commit-hooks.yaml with the real pre-commit framework (Debian's `pre-commit`) on a temporary
// repository: a commit that adds a secret is refused, a clean one passes, and `git commit -a` (a
// temporary index that git names in GIT_INDEX_FILE), `pre-commit run --from-ref/--to-ref` (CI) and
// the pre-push stage (ranges pre-commit names, with nothing staged) get no false all-clear.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_CLI, buildCli, FAKE_GITHUB_TOKEN, git, makeRepo, type TestRepo } from './review-cli.ts';

const hasPreCommit = spawnSync('pre-commit', ['--version']).status === 0;
let work: string;
let repo: TestRepo;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  if (!hasPreCommit) return;
  buildCli();
  work = mkdtempSync(join(tmpdir(), 'diff-review-pre-commit-'));
  // `diff-review` on the PATH, as `npm install -g diff-review` would put it.
  const bin = join(work, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'diff-review'), `#!/bin/sh\nexec "${process.execPath}" "${BUILT_CLI}" "$@"\n`);
  chmodSync(join(bin, 'diff-review'), 0o755);
  // The hook repository: this project's .pre-commit-hooks.yaml as it is in the tree, committed.
  const hooks = join(work, 'hooks');
  mkdirSync(hooks);
  copyFileSync('.pre-commit-hooks.yaml', join(hooks, '.pre-commit-hooks.yaml'));
  git(hooks, 'init', '-q', '-b', 'main');
  git(hooks, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'add', '.');
  git(hooks, '-c', 'user.name=T', '-c', 'user.email=t@example.com', 'commit', '-q', '-m', 'hooks');
  const rev = git(hooks, 'rev-parse', 'HEAD').trim();

  env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, PRE_COMMIT_HOME: join(work, 'cache'), HOME: work };
  delete env.FORCE_COLOR;
  repo = makeRepo({ 'src/app.js': 'const a = 1;\n' });
  repo.write(
    '.pre-commit-config.yaml',
    `repos:\n  - repo: ${hooks}\n    rev: ${rev}\n    hooks:\n      - id: diff-review\n`,
  );
  repo.commit('hook config');
  execFileSync('pre-commit', ['install'], { cwd: repo.dir, env });
}, 120_000);
afterAll(() => {
  if (!hasPreCommit) return;
  repo.cleanup();
  rmSync(work, { recursive: true, force: true });
});

const commit = (...args: string[]) =>
  spawnSync('git', ['commit', '-q', '-m', 'change', ...args], { cwd: repo.dir, env, encoding: 'utf8' });

// In CI a missing framework is a failure (.ci/run installs it), never a silent skip; where it is
// installed this check is not registered at all, so it is not counted as a skip.
if (!hasPreCommit && process.env.CI) {
  it('has the pre-commit framework installed (apt-get install pre-commit)', () => {
    expect(hasPreCommit).toBe(true);
  });
}

describe.skipIf(!hasPreCommit)('the diff-review pre-commit hook (real pre-commit framework)', () => {
  it('refuses a commit that adds a secret, and says why without printing it', () => {
    repo.write('src/config.js', `export const token = "${FAKE_GITHUB_TOKEN}";\n`);
    git(repo.dir, 'add', 'src/config.js');
    const refused = commit();
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/src\/config\.js:1:\d+ {2}error {2}secret/);
    expect(refused.stdout + refused.stderr).not.toContain(FAKE_GITHUB_TOKEN.slice(4));
    expect(git(repo.dir, 'log', '--format=%s')).not.toMatch(/^change/);
    git(repo.dir, 'rm', '-q', '--cached', 'src/config.js');
    rmSync(join(repo.dir, 'src/config.js'));
  });

  it('lets a clean commit through', () => {
    repo.write('src/app.js', 'const a = 2;\n');
    git(repo.dir, 'add', 'src/app.js');
    const passed = commit();
    expect(passed.stdout + passed.stderr).toMatch(/diff-review\.+Passed/);
    expect(passed.status).toBe(0);
    expect(git(repo.dir, 'log', '-1', '--format=%s').trim()).toBe('change');
  });

  it('`git commit -a` is reviewed with the index git commits, not the one on disk', () => {
    repo.write('src/app.js', `const a = 2;\nconst token = "${FAKE_GITHUB_TOKEN}";\n`); // tracked, not staged
    const refused = commit('-a');
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/src\/app\.js:2:\d+ {2}error {2}secret/);
    git(repo.dir, 'checkout', '--', 'src/app.js');
  });

  it('`pre-commit run --from-ref A --to-ref B` (as CI runs it) reviews A...B, not the empty index', () => {
    repo.write('src/range.js', `export const token = "${FAKE_GITHUB_TOKEN}";\n`);
    git(repo.dir, 'add', 'src/range.js');
    expect(commit('--no-verify').status).toBe(0);
    const run = (from: string) =>
      spawnSync('pre-commit', ['run', '--from-ref', from, '--to-ref', 'HEAD'], {
        cwd: repo.dir,
        env,
        encoding: 'utf8',
      });
    const refused = run('main');
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/src\/range\.js:1:\d+ {2}error {2}secret/);
    expect(refused.stdout + refused.stderr).not.toContain(FAKE_GITHUB_TOKEN.slice(4));
    const clean = run('HEAD');
    expect(clean.stdout + clean.stderr).toMatch(/diff-review\.+Passed/);
    expect(clean.status).toBe(0);
  });

  it('the pre-push stage refuses a push of a commit that adds a secret', () => {
    const origin = join(work, 'origin.git');
    git(work, 'init', '-q', '--bare', origin);
    git(repo.dir, 'remote', 'add', 'origin', origin);
    git(repo.dir, 'push', '-q', 'origin', 'main');
    execFileSync('pre-commit', ['install', '--hook-type', 'pre-push'], { cwd: repo.dir, env });
    const push = () =>
      spawnSync('git', ['push', '-q', 'origin', 'HEAD:feature'], { cwd: repo.dir, env, encoding: 'utf8' });
    const refused = push(); // the branch holds src/range.js's secret (committed above without the hook)
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/src\/range\.js:1:\d+ {2}error {2}secret/);
    git(repo.dir, 'rm', '-q', 'src/range.js');
    expect(commit().status).toBe(0);
    git(repo.dir, 'reset', '-q', '--soft', 'main');
    expect(commit().status).toBe(0); // one clean commit on main
    const pushed = push();
    expect(pushed.stdout + pushed.stderr).toMatch(/diff-review\.+Passed/);
    expect(pushed.status).toBe(0);
  });
});
