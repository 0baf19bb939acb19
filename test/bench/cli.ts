// `diff-review review` wall time, process start included: `--diff FILE` of a 20 KB and of a
// 1,000,000-byte diff (code-like new files, support/harness.ts codeDiff), the 20 KB one again with
// a `.diff-review.yml`, the 1 MB one from git (branch mode: base discovery, `git diff`) with that
// config, and `--help`, beside `node -e 0` measured in the same run. Runs are interleaved (one of each per round) and the
// median of RUNS rounds is reported. Targets: 20 KB < 0.2 s (issue 24), with a config < 0.3 s and
// 1 MB < 0.5 s (issue 11).
// Builds first (node esbuild.config.mjs), so the CLI measured is the code in the tree.
// Run: node test/bench/cli.ts   (RUNS=9)
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BUILT_CLI as CLI,
  buildBundles,
  codeDiff,
  ms,
  percentile,
  ratio,
  runIfMain,
  tempDir,
  type Row,
} from './support/harness.ts';

const RUNS = Number(process.env.RUNS ?? 9);

/** Milliseconds from spawn to exit; fails on an exit code the run does not expect. */
function timeRun(args: string[], cwd: string): number {
  const started = performance.now();
  const run = spawnSync(process.execPath, args, { cwd, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  const elapsed = performance.now() - started;
  if (run.status !== 0 && run.status !== 1) throw new Error(`${args.join(' ')} exited ${run.status}: ${run.stderr}`);
  return elapsed;
}

export async function cliReview(): Promise<Row[]> {
  buildBundles();
  const work = await tempDir('bench-cli');
  try {
    await writeFile(join(work.dir, 'small.diff'), codeDiff(20_000));
    await writeFile(join(work.dir, 'large.diff'), codeDiff(1_000_000));
    const configured = join(work.dir, 'configured');
    await mkdir(configured);
    await writeFile(join(configured, 'small.diff'), codeDiff(20_000));
    const repo = await branchRepo(join(work.dir, 'repo'), join(work.dir, 'large.diff'));
    const cases: [string, string[], string, number | undefined][] = [
      ['node -e 0', ['-e', '0'], work.dir, undefined],
      ['diff-review --help', [CLI, '--help'], work.dir, undefined],
      ['review --diff, 20 KB', [CLI, 'review', '--diff', 'small.diff'], work.dir, 200],
      ['review --diff, 20 KB, with a .diff-review.yml', [CLI, 'review', '--diff', 'small.diff'], configured, 300],
      ['review --diff, 1,000,000 bytes', [CLI, 'review', '--diff', 'large.diff'], work.dir, 500],
      ['review from git (branch mode), 1 MB, with a .diff-review.yml', [CLI, 'review', '--base', 'main'], repo, 500],
    ];
    for (const dir of [configured, repo]) await writeFile(join(dir, '.diff-review.yml'), CONFIG);
    const times = cases.map((): number[] => []);
    for (const [, args, cwd] of cases) timeRun(args, cwd); // warm the file cache
    for (let round = 0; round < RUNS; round++)
      cases.forEach(([, args, cwd], i) => {
        times[i]!.push(timeRun(args, cwd));
      });
    const base = percentile(times[0]!, 50);
    return cases.map(([figure, , , target], i) => {
      const median = percentile(times[i]!, 50);
      return {
        benchmark: `CLI wall time (median of ${RUNS})`,
        figure,
        value: ms(median),
        ...(i > 0 ? { baseline: `${ms(base)} (node -e 0)`, ratio: ratio(median, base) } : {}),
        ...(target !== undefined ? { target: `< ${target} ms`, pass: median < target } : {}),
      };
    });
  } finally {
    await work.remove();
  }
}

/** A config as a team would write one: rule settings, ignored paths, an override. */
const CONFIG = [
  'rules:',
  '  no-debugger: error',
  '  todo-without-issue: off',
  'ignore: [vendor/, "*.min.js"]',
  'overrides:',
  '  - files: [tests/]',
  '    rules: { no-console-log: off }',
  '',
].join('\n');

/** A repository on `main`, then a branch `feature` whose commit is the diff (new files). */
async function branchRepo(dir: string, diffFile: string): Promise<string> {
  await mkdir(dir);
  const git = (...args: string[]) =>
    execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', ...args], {
      cwd: dir,
      stdio: 'ignore',
    });
  git('init', '-q', '-b', 'main');
  await writeFile(join(dir, 'README.md'), '# bench\n');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  git('checkout', '-q', '-b', 'feature');
  git('apply', diffFile);
  git('add', 'src');
  git('commit', '-q', '-m', 'work');
  return dir;
}

await runIfMain(import.meta, 'CLI wall time', cliReview);
