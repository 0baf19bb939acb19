// `diff-review review` wall time, process start included: `--diff FILE` of a 20 KB and of a
// 1,000,000-byte diff (code-like new files, support/harness.ts codeDiff), and `--help`, beside
// `node -e 0` measured in the same run. Runs are interleaved (one of each per round) and the
// median of RUNS rounds is reported. Targets (issue 11): 20 KB < 0.3 s, 1 MB < 0.5 s.
// Builds first (node esbuild.config.mjs), so the CLI measured is the code in the tree.
// Run: node test/bench/cli.ts   (RUNS=9)
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
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
    const cases: [string, string[], number | undefined][] = [
      ['node -e 0', ['-e', '0'], undefined],
      ['diff-review --help', [CLI, '--help'], undefined],
      ['review --diff, 20 KB', [CLI, 'review', '--diff', 'small.diff'], 300],
      ['review --diff, 1,000,000 bytes', [CLI, 'review', '--diff', 'large.diff'], 500],
    ];
    const times = cases.map((): number[] => []);
    timeRun(cases[3]![1], work.dir); // warm the file cache
    for (let round = 0; round < RUNS; round++)
      cases.forEach(([, args], i) => {
        times[i]!.push(timeRun(args, work.dir));
      });
    const base = percentile(times[0]!, 50);
    return cases.map(([figure, , target], i) => {
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

await runIfMain(import.meta, 'CLI wall time', cliReview);
