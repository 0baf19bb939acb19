// The README's CI and hook recipes, as written there: husky's and lefthook's pre-commit hooks with
// the real tools (installed from the npm registry into a cache), the GitHub workflow step without
// the action, and the GitLab CI job's script against a bare `origin`. `npx diff-review` is this
// tree's built CLI.
import { execFile, execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILT_CLI, buildCli, FAKE_GITHUB_TOKEN, git, makeRepo, type TestRepo } from './review-cli.ts';

/** The README's code blocks that begin with `# <file name>`, by that name. */
const RECIPES = new Map(
  [...readFileSync('README.md', 'utf8').matchAll(/```\w+\n# (\S+)[^\n]*\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]),
);
const recipe = (name: string) => {
  const text = RECIPES.get(name);
  expect(text, `README has a \`# ${name}\` block`).toBeDefined();
  return text!;
};

const work = mkdtempSync(join(tmpdir(), 'diff-review-recipes-'));
const repos: TestRepo[] = [];
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  buildCli();
  // `npx diff-review …` runs this tree's CLI, as it runs the installed package.
  const bin = join(work, 'bin');
  mkdirSync(bin);
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\n[ "$1" = diff-review ] || { echo "npx $1: not in this test" >&2; exit 127; }\nshift\nexec "${process.execPath}" "${BUILT_CLI}" "$@"\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
  env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, HOME: work };
  for (const name of ['FORCE_COLOR', 'DIFF_REVIEW_URL', 'DIFF_REVIEW_TOKEN', 'GIT_INDEX_FILE']) delete env[name];
}, 60_000);
afterAll(() => {
  for (const r of repos) r.cleanup();
  rmSync(work, { recursive: true, force: true });
});

function repo(): TestRepo {
  const r = makeRepo({ 'src/app.js': 'export const a = 1;\n' });
  repos.push(r);
  return r;
}
const commit = (r: TestRepo) =>
  spawnSync('git', ['commit', '-q', '-m', 'change'], { cwd: r.dir, env, encoding: 'utf8' });
const secretLine = `export const token = "${FAKE_GITHUB_TOKEN}";\n`;

/** Whether a hook refuses a commit adding a secret (and names it) and lets a clean one through. */
function expectHookGuards(r: TestRepo) {
  r.write('src/config.js', secretLine);
  git(r.dir, 'add', 'src/config.js');
  const refused = commit(r);
  expect(refused.status, refused.stderr).not.toBe(0);
  expect(refused.stdout + refused.stderr).toMatch(/src\/config\.js:1:\d+ {2}error {2}secret/);
  git(r.dir, 'rm', '-q', '--cached', 'src/config.js');
  rmSync(join(r.dir, 'src/config.js'));
  r.write('src/app.js', 'export const a = 2;\n');
  git(r.dir, 'add', 'src/app.js');
  const passed = commit(r);
  expect(passed.status, passed.stdout + passed.stderr).toBe(0);
}

describe('git hook recipes, with the real hook managers', () => {
  let managers: string | Error;
  beforeAll(async () => {
    managers = await installHookManagers();
  }, 300_000);
  const managerBin = (context: { skip: (note: string) => void }) => {
    if (!(managers instanceof Error)) return join(managers, 'node_modules', '.bin');
    // In CI a hook manager that cannot be installed is a failure, never a silent skip.
    if (process.env.CI) throw managers;
    context.skip(`husky and lefthook could not be installed from the npm registry: ${managers.message}`);
    return '';
  };

  it('husky: .husky/pre-commit refuses a commit that adds a secret, and lets a clean one through', (context) => {
    const bin = managerBin(context);
    const r = repo();
    execFileSync(join(bin, 'husky'), [], { cwd: r.dir, env }); // what husky's `prepare` script does
    expect(git(r.dir, 'config', 'core.hooksPath').trim()).toBe('.husky/_');
    r.write('.husky/pre-commit', recipe('.husky/pre-commit'));
    expectHookGuards(r);
  });

  it('lefthook: lefthook.yml is valid, and its pre-commit command guards the same way', (context) => {
    const bin = managerBin(context);
    const r = repo();
    r.write('lefthook.yml', recipe('lefthook.yml'));
    const hookEnv = { ...env, PATH: `${bin}:${env.PATH}` };
    execFileSync(join(bin, 'lefthook'), ['install'], { cwd: r.dir, env: hookEnv });
    r.write('src/config.js', secretLine);
    git(r.dir, 'add', 'src/config.js');
    const refused = spawnSync('git', ['commit', '-q', '-m', 'change'], { cwd: r.dir, env: hookEnv, encoding: 'utf8' });
    expect(refused.status).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/src\/config\.js:1:\d+ {2}error {2}secret/);
    expect(refused.stdout + refused.stderr).toMatch(/diff-review/);
  });
});

/** A bare origin with `main` and a `feature` branch that adds a secret; `clone` sets up a CI checkout of it. */
function origin(): { url: string; featureCommit: string } {
  const r = repo();
  r.write('src/config.js', secretLine);
  r.commit('add config');
  const url = join(work, `origin-${repos.length}.git`);
  git(work, 'clone', '-q', '--bare', r.dir, url);
  return { url, featureCommit: git(r.dir, 'rev-parse', 'HEAD').trim() };
}

/** `bash -e -c script` in `cwd`; the runner's and GitLab's shells both stop at the first failing command. */
const bash = (script: string, cwd: string, extra: Record<string, string>) =>
  spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
    cwd,
    env: { ...env, ...extra },
    encoding: 'utf8',
  });

describe('CI recipes', () => {
  it('GitHub Actions without the action: the base arrives through env:, and the step annotates and fails', () => {
    const steps = parse(recipe('.github/workflows/diff-review.yml')) as {
      uses?: string;
      with?: Record<string, unknown>;
      run?: string;
      env?: Record<string, string>;
    }[];
    expect(steps[0]).toMatchObject({ uses: 'actions/checkout@v4', with: { 'fetch-depth': 0 } });
    const step = steps.find((s) => s.run)!;
    expect(step.run).not.toContain('${{');
    expect(step.env).toEqual({ BASE: '${{ github.base_ref }}' });
    // what actions/checkout does with fetch-depth 0 on a pull request: a full clone at the PR's head
    const { url, featureCommit } = origin();
    const checkout = join(work, 'github-checkout');
    git(work, 'clone', '-q', url, checkout);
    git(checkout, 'checkout', '-q', '--detach', featureCommit);
    const run = bash(step.run!, checkout, { BASE: 'main' });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^::error file=src\/config\.js,line=1,col=\d+,endColumn=\d+,title=secret::/m);
  });

  it('GitLab CI: the job runs in merge-request pipelines, on Node >= 22, with a full clone; its script writes the report', () => {
    const job = (parse(recipe('.gitlab-ci.yml')) as Record<string, Record<string, unknown>>)['diff-review']!;
    expect(Number(/^node:(\d+)/.exec(String(job['image']))?.[1])).toBeGreaterThanOrEqual(22);
    expect(job['rules']).toEqual([{ if: '$CI_PIPELINE_SOURCE == "merge_request_event"' }]);
    expect(job['variables']).toEqual({ GIT_DEPTH: 0 });
    expect(job['artifacts']).toEqual({ when: 'always', reports: { codequality: 'gl-code-quality-report.json' } });
    // what GitLab's runner does in a merge-request pipeline: fetch the source branch, check out its head
    const { url, featureCommit } = origin();
    const checkout = join(work, 'gitlab-checkout');
    mkdirSync(checkout);
    git(checkout, 'init', '-q');
    git(checkout, 'remote', 'add', 'origin', url);
    git(checkout, 'fetch', '-q', 'origin', '+refs/heads/feature:refs/remotes/origin/feature');
    git(checkout, 'checkout', '-q', '--detach', featureCommit);
    const run = bash((job['script'] as string[]).join('\n'), checkout, { CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main' });
    expect(run.status, run.stderr).toBe(1); // the job fails on the secret; `when: always` keeps the report
    const report = JSON.parse(readFileSync(join(checkout, 'gl-code-quality-report.json'), 'utf8')) as {
      check_name: string;
      location: { path: string; lines: { begin: number } };
    }[];
    expect(report).toEqual([
      expect.objectContaining({ check_name: 'secret', location: { path: 'src/config.js', lines: { begin: 1 } } }),
    ]);
  });
});

/** husky and lefthook from the npm registry, in the cache .ci/run keeps Node in; an Error when they cannot be had. */
async function installHookManagers(): Promise<string | Error> {
  const cache = join(process.env.DIFF_REVIEW_CACHE ?? join(homedir(), '.cache', 'diff-review'), 'hook-managers');
  const installed = () => ['husky', 'lefthook'].every((name) => existsSync(join(cache, 'node_modules', '.bin', name)));
  if (installed()) return cache;
  try {
    mkdirSync(cache, { recursive: true });
    // --ignore-scripts: lefthook's postinstall runs `lefthook install` in the folder npm was started
    // from, which would put its hooks in that repository; the binary works without it.
    await promisify(execFile)(
      'npm',
      [
        'install',
        '--no-save',
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        '--prefix',
        cache,
        'husky@9',
        'lefthook@2',
      ],
      { cwd: cache },
    );
  } catch (error) {
    return error as Error;
  }
  return installed() ? cache : new Error(`npm installed husky and lefthook, but not into ${cache}/node_modules/.bin`);
}
