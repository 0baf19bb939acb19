// Cold start: `diff-review serve` (the built CLI, dist/service/cli.js) from process start to the
// first 200 from /healthz, with an empty data dir and with 100,000 stored reviews (seeded through
// the store), and with an empty data dir as the very first start after an install (V8's compile
// cache off: NODE_DISABLE_COMPILE_CACHE). Baseline in the same run: a bare node:http server started
// the same way. Runs are interleaved (one of each per round); medians of RUNS rounds. Target
// (issue 24): the empty data dir < 300 ms.
// Builds first (node esbuild.config.mjs), so the CLI measured is the code in the tree.
// Run: node test/bench/cold-start.ts   (RUNS=9, REVIEWS=100000)
import { spawn } from 'node:child_process';
import { seedStore } from './store-scale.ts';
import {
  BUILT_CLI as CLI,
  buildBundles,
  freePort,
  ms,
  percentile,
  ratio,
  runIfMain,
  sleep,
  tempDir,
  type Row,
} from './support/harness.ts';

const RUNS = Number(process.env.RUNS ?? 9);
const TARGET_MS = 300;
const REVIEWS = Number(process.env.REVIEWS ?? 100_000);
const BARE = `require('node:http').createServer((q, s) => s.end('{"status":"ok"}')).listen(+process.argv[1], '127.0.0.1')`;

/** Milliseconds from spawn to the first 200 of /healthz. */
async function timeToHealthy(args: (port: number) => string[], env: NodeJS.ProcessEnv = {}): Promise<number> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args(port), {
    stdio: 'ignore',
    env: { ...process.env, DIFF_REVIEW_LOG_LEVEL: 'info', ...env },
  });
  try {
    const until = Date.now() + 60_000;
    while (Date.now() < until) {
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.status === 200,
        () => false,
      );
      if (ok) return performance.now() - started;
      if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}`);
      await sleep(2);
    }
    throw new Error('not healthy within 60 s');
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function coldStart(): Promise<Row[]> {
  buildBundles();
  const full = await tempDir('cold-full');
  try {
    await seedStore(full.dir, REVIEWS);
    const bare: number[] = [];
    const onEmpty: number[] = [];
    const firstStart: number[] = [];
    const onFull: number[] = [];
    // A fresh empty dir each time: the first start also writes the dashboard-token file.
    const serveEmpty = async (env?: NodeJS.ProcessEnv) => {
      const fresh = await tempDir('cold-fresh');
      try {
        return await timeToHealthy((port) => [CLI, 'serve', '--port', String(port), '--data-dir', fresh.dir], env);
      } finally {
        await fresh.remove();
      }
    };
    for (let i = 0; i < RUNS; i++) {
      bare.push(await timeToHealthy((port) => ['-e', BARE, String(port)]));
      onEmpty.push(await serveEmpty());
      firstStart.push(await serveEmpty({ NODE_DISABLE_COMPILE_CACHE: '1' }));
      onFull.push(await timeToHealthy((port) => [CLI, 'serve', '--port', String(port), '--data-dir', full.dir]));
    }
    const base = percentile(bare, 50);
    const emptyMedian = percentile(onEmpty, 50);
    return [
      { benchmark: `cold start (median of ${RUNS})`, figure: 'bare node:http server', value: ms(base) },
      {
        benchmark: `cold start (median of ${RUNS})`,
        figure: 'diff-review serve, empty data dir',
        value: ms(emptyMedian),
        baseline: ms(base),
        ratio: ratio(emptyMedian, base),
        target: `< ${TARGET_MS} ms`,
        pass: emptyMedian < TARGET_MS,
      },
      {
        benchmark: `cold start (median of ${RUNS})`,
        figure: 'diff-review serve, empty data dir, no compile cache (a first start)',
        value: ms(percentile(firstStart, 50)),
        baseline: ms(base),
        ratio: ratio(percentile(firstStart, 50), base),
      },
      {
        benchmark: `cold start (median of ${RUNS})`,
        figure: `diff-review serve, ${REVIEWS.toLocaleString('en')} stored reviews`,
        value: ms(percentile(onFull, 50)),
        baseline: `${ms(emptyMedian)} (empty)`,
        ratio: ratio(percentile(onFull, 50), emptyMedian),
      },
    ];
  } finally {
    await full.remove();
  }
}

await runIfMain(import.meta, 'Cold start', coldStart);
