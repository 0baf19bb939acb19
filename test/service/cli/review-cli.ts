// `diff-review review` as CI and hooks run it: the built CLI (dist/service/cli.js) in a child
// process, in real git repositories made by the test.
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { git, makeRepo as makeGitRepo, type TestRepo } from '../../support/git-repo.ts';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const BUILT_CLI = join(ROOT, 'dist/service/cli.js');

/**
 * Builds the bundles, so the CLI under test is the code in the tree; under vitest the global setup
 * (test/support/build-global-setup.ts) has built them once already, and nothing rebuilds them while
 * other files use them.
 */
export function buildCli(): void {
  if (process.env.DIFF_REVIEW_TEST_BUILT === '1') return;
  execFileSync(process.execPath, ['esbuild.config.mjs'], { cwd: ROOT, stdio: 'ignore' });
}

/** `npm pack` of the tree's built CLI into `destination` (call buildCli first); answers the tarball's path and listing. */
export function packCli(destination: string): { tarball: string; size: number; files: string[] } {
  // the bundles are built: the prepack build is skipped, its output would mix into the JSON
  const stdout = execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', destination], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  const [packed] = JSON.parse(stdout) as { filename: string; size: number; files: { path: string }[] }[];
  return { tarball: join(destination, packed!.filename), size: packed!.size, files: packed!.files.map((f) => f.path) };
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI; never throws on a non-zero exit. Colour variables are cleared unless given, progress is off. */
export function runCli(
  args: string[],
  options: { cwd: string; input?: string; env?: Record<string, string> },
): Promise<CliRun> {
  // No progress line unless a test asks for one: a busy machine must not change what stderr says.
  const env: NodeJS.ProcessEnv = { ...process.env, DIFF_REVIEW_PROGRESS_AFTER_MS: '600000', ...options.env };
  for (const name of ['FORCE_COLOR', 'NO_COLOR', 'DIFF_REVIEW_URL', 'DIFF_REVIEW_TOKEN'])
    if (!options.env?.[name]) delete env[name];
  const child = spawn(process.execPath, [BUILT_CLI, ...args], {
    cwd: options.cwd,
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  child.stdin.end(options.input ?? '');
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export { git, type TestRepo };

/** A repository on `main` with one commit of `files`, then on a branch `feature`. */
export function makeRepo(files: Record<string, string> = { 'README.md': '# app\n' }, branch = 'feature'): TestRepo {
  const repo = makeGitRepo();
  for (const [path, content] of Object.entries(files)) repo.write(path, content);
  repo.commit('base');
  git(repo.dir, 'checkout', '-q', '-b', branch);
  return repo;
}

/** A real-looking GitHub token that is no one's (secretlint's example allowlists don't apply). */
// Not the sample of the rule docs (docs/rules/secret.md): SARIF carries those pages, and this one must not appear.
export const FAKE_GITHUB_TOKEN = 'ghp_' + 'Qz7Wx1Lm3Nb5Vc8Tr2Ys4Ud6Ke9Hf0Jg1Pa3';
