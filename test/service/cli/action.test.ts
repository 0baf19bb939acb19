// action.yml, the composite GitHub Action: its shape (every input used, no expression spliced into
// a script, only real CLI flags), and its scripts run as the runner runs them, on a real
// repository, with the CLI installed from this tree's tarball.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { BUILT_CLI, buildCli, FAKE_GITHUB_TOKEN, git, makeRepo, packCli, type TestRepo } from './review-cli.ts';

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}
const text = readFileSync('action.yml', 'utf8');
const action = parse(text) as {
  inputs: Record<string, { default?: string }>;
  runs: { using: string; steps: Step[] };
};
const steps = action.runs.steps;
const step = (id: string) => steps.find((s) => s.id === id)!;

describe('action.yml', () => {
  it('is a composite action whose every input is used', () => {
    expect(action.runs.using).toBe('composite');
    for (const name of Object.keys(action.inputs)) expect(text, name).toContain(`inputs.${name}`);
  });

  it('splices no expression into a script: inputs reach them as environment variables', () => {
    for (const s of steps.filter((s) => s.run)) expect(s.run, s.name).not.toContain('${{');
  });

  it('passes only flags `diff-review review` has', () => {
    buildCli();
    const help = execFileSync(process.execPath, [BUILT_CLI, 'review', '--help'], { encoding: 'utf8' });
    const argLines = step('review')
      .run!.split('\n')
      .filter((line) => line.includes('args'));
    const flags = argLines.flatMap((line) => [...line.matchAll(/(?<![\w-])--[a-z][\w-]+/g)].map((m) => m[0]));
    expect(flags.length).toBeGreaterThan(4);
    for (const flag of new Set(flags)) expect(help, flag).toContain(flag);
  });
});

describe("action.yml's scripts, run as the runner runs them", () => {
  let work: string;
  let repo: TestRepo;
  let bin: string;
  beforeAll(() => {
    buildCli();
    work = mkdtempSync(join(tmpdir(), 'diff-review-action-'));
    const { tarball } = packCli(work);
    repo = makeRepo({ 'src/app.js': 'export const x = 1;\n' });
    repo.write('src/config.js', `export const token = "${FAKE_GITHUB_TOKEN}";\n`);
    repo.commit('add config');
    const install = runStep('install', { PACKAGE: tarball });
    expect(install.status, install.stderr).toBe(0);
    bin = install.outputs.bin!;
  }, 180_000);
  afterAll(() => {
    repo?.cleanup();
    if (work) rmSync(work, { recursive: true, force: true });
  });

  /** A step's script in bash, with the step's env given as the runner would give it; its outputs read back. */
  function runStep(id: string, env: Record<string, string>) {
    const output = join(work, `output-${id}-${Math.random().toString(36).slice(2)}`);
    writeFileSync(output, '');
    // as the runner runs a `shell: bash` step: bash --noprofile --norc -eo pipefail
    const result = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', step(id).run!], {
      cwd: repo.dir,
      encoding: 'utf8',
      env: { ...process.env, RUNNER_TEMP: work, GITHUB_OUTPUT: output, GITHUB_ACTION_PATH: process.cwd(), ...env },
    });
    const outputs = Object.fromEntries(
      readFileSync(output, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
    );
    return { status: result.status, stdout: result.stdout, stderr: result.stderr, outputs };
  }
  const review = (env: Record<string, string>) =>
    runStep('review', {
      DIFF_REVIEW_BIN: bin,
      BASE: 'main',
      PULL_REQUEST_BASE: '',
      FAIL_ON: 'error',
      FORMAT: 'github',
      CONFIG: '',
      BASELINE: '',
      SARIF_FILE: 'diff-review.sarif',
      ...env,
    });

  it('format github: an annotation on the secret, and the step fails (exit 1)', () => {
    const run = review({});
    expect(run.status).toBe(1);
    expect(run.stdout).toMatch(/^::error file=src\/config\.js,line=1,col=\d+,endColumn=\d+,title=secret::/m);
    expect(run.stdout + run.stderr).not.toContain(FAKE_GITHUB_TOKEN);
    expect(run.outputs['exit-code']).toBe('1');
  });

  it('fail-on none: the same annotation, and the step passes', () => {
    const run = review({ FAIL_ON: 'none' });
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('::error file=src/config.js');
  });

  it('format sarif: the file is written and named in the outputs; the failure is left to the step after the upload', () => {
    const run = review({ FORMAT: 'sarif' });
    expect(run.status).toBe(0);
    expect(run.outputs).toMatchObject({ 'sarif-file': 'diff-review.sarif', 'exit-code': '1' });
    const sarif = JSON.parse(readFileSync(join(repo.dir, 'diff-review.sarif'), 'utf8'));
    expect(sarif.runs[0].results.map((r: { ruleId: string }) => r.ruleId)).toEqual(['secret']);
  });

  it('format sarif when no review was done (exit 2 or 3): no sarif-file output, so the upload step does not run on a missing file', () => {
    const run = review({ FORMAT: 'sarif', BASE: 'no-such-branch', SARIF_FILE: 'not-written.sarif' });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/base branch "no-such-branch" was not found/);
    expect(run.outputs).toEqual({ 'exit-code': '2' });
    expect(existsSync(join(repo.dir, 'not-written.sarif'))).toBe(false);
  });

  it("in a pull request (no base input): fetches the PR's base branch and compares with origin/<base>", () => {
    const origin = join(work, 'origin.git');
    git(work, 'clone', '-q', '--bare', '--branch', 'main', repo.dir, origin);
    git(repo.dir, 'remote', 'add', 'origin', origin); // not fetched: origin/main exists only after the step's fetch
    expect(spawnSync('git', ['rev-parse', '--verify', '-q', 'origin/main'], { cwd: repo.dir }).status).not.toBe(0);
    const run = review({ BASE: '', PULL_REQUEST_BASE: 'main' });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toMatch(/^::error file=src\/config\.js,line=1,/m);
    expect(git(repo.dir, 'rev-parse', 'origin/main')).toBe(git(repo.dir, 'rev-parse', 'main'));
  });

  it('an unknown format: a clear error, exit 2', () => {
    const run = review({ FORMAT: 'xml' });
    expect(run.status).toBe(2);
    expect(run.stdout).toContain('::error title=diff-review::format must be github or sarif, not "xml"');
  });
});
