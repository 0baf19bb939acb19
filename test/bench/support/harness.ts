// Shared pieces of the service benchmarks: servers in child processes, autocannon runs, test
// diffs (from bench-diffs.ts), percentiles and the report format (figure, baseline, ratio,
// target, PASS/FAIL).
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';
import { settledReview } from '../../support/settled-review.ts';
import type { ChildConfig, ChildStats } from './server-child.ts';

// The diffs the benchmarks send live in bench-diffs.ts; every benchmark takes them from here.
export { codeDiff, debuggerDiff } from './bench-diffs.ts';

const CHILD = new URL('./server-child.ts', import.meta.url);

export interface ChildServer {
  url: string;
  pid: number;
  dashboardToken?: string;
  /** RSS, heap and the event-loop delay since the previous call. */
  stats(): Promise<ChildStats>;
  stop(): Promise<void>;
  /** SIGKILL: a crash, nothing written on the way out. */
  kill(): Promise<void>;
}

/** Starts a server in its own process; its stdout (the service's log) goes to `logFile` or nowhere. */
export async function startChild(config: ChildConfig, logFile?: string): Promise<ChildServer> {
  const log = logFile ? await open(logFile, 'a') : undefined;
  const child: ChildProcess = fork(CHILD, [], {
    env: { ...process.env, BENCH_CHILD_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', log ? log.fd : 'ignore', 'inherit', 'ipc'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await new Promise<{ url: string; dashboardToken?: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server child did not start within 120 s')), 120_000);
    child.once('exit', (code) => reject(new Error(`server child exited with ${code}`)));
    child.on('message', (m: { type: string; url: string; dashboardToken?: string }) => {
      if (m.type === 'ready') {
        clearTimeout(timer);
        resolve(m);
      }
    });
  });
  return {
    url: ready.url,
    pid: child.pid!,
    dashboardToken: ready.dashboardToken,
    stats: () =>
      new Promise((resolve) => {
        const on = (m: { type: string; stats: ChildStats }) => {
          if (m.type !== 'stats') return;
          child.off('message', on);
          resolve(m.stats);
        };
        child.on('message', on);
        child.send({ type: 'stats' });
      }),
    stop: async () => {
      if (child.exitCode === null) {
        child.send({ type: 'stop' });
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
      await log?.close();
    },
    kill: async () => {
      child.kill('SIGKILL');
      await exited;
      await log?.close();
    },
  };
}

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** The built CLI: what `npm start` and the installed `diff-review` run. */
export const BUILT_CLI = `${ROOT}dist/service/cli.js`;

/** Builds the bundles (node esbuild.config.mjs), so that the CLI measured is the code in the tree. */
export function buildBundles(): void {
  execFileSync(process.execPath, ['esbuild.config.mjs'], { cwd: ROOT, stdio: 'inherit' });
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface CliServer {
  url: string;
  pid: number;
  dashboardToken: string;
  /** The process's resident memory (all its threads), bytes. */
  rss(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * `diff-review serve` as a user runs it: the built CLI (`entry: 'bundle'`, the default) or the
 * TypeScript source run by Node's type stripper (`entry: 'source'`, which costs ~17 MB more in
 * each thread that loads TypeScript, the review workers included). Its log goes nowhere.
 */
export async function startCli(
  dataDir: string,
  args: string[] = [],
  entry: 'bundle' | 'source' = 'bundle',
): Promise<CliServer> {
  const port = await freePort();
  const cli = entry === 'bundle' ? BUILT_CLI : `${ROOT}service/cli.ts`;
  const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--data-dir', dataDir, ...args], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const until = Date.now() + 120_000;
  while (
    !(await fetch(`${url}/healthz`).then(
      (r) => r.status === 200,
      () => false,
    ))
  ) {
    if (child.exitCode !== null) throw new Error(`diff-review serve exited with ${child.exitCode}`);
    if (Date.now() > until) throw new Error('diff-review serve not healthy within 120 s');
    await sleep(10);
  }
  return {
    url,
    pid: child.pid!,
    dashboardToken: (await readFile(path.join(dataDir, 'dashboard-token'), 'utf8')).trim(),
    rss: () => processRss(child.pid!),
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** Resident memory of another process: /proc on Linux, ps elsewhere. */
async function processRss(pid: number): Promise<number> {
  if (process.platform === 'linux') {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)![1]) * 1024;
  }
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

export async function tempDir(name: string): Promise<{ dir: string; remove(): Promise<void> }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `diff-review-bench-${name}-`));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/** A review API token with both scopes, made through the API with the dashboard token. */
export async function reviewToken(url: string, dashboardToken: string): Promise<string> {
  const response = await fetch(`${url}/v1/auth/tokens`, {
    method: 'POST',
    headers: { authorization: `Bearer ${dashboardToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'bench' }),
  });
  if (response.status !== 201) throw new Error(`token create answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

export async function createReview(
  url: string,
  token: string,
  diff: string,
  repository = 'github.com/bench/repo',
  idempotencyKey?: string,
): Promise<string> {
  const headers: Record<string, string> = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const response = await fetch(`${url}/v1/reviews`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ diff, repository }),
  });
  if (response.status !== 202) throw new Error(`create answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { review_id: string }).review_id;
}

export interface Job {
  status: string;
  comments?: unknown[];
  error?: { code: string };
}

/** Polls until the job is completed or failed (bounded by `timeoutMs`). */
export function waitTerminal(url: string, token: string, id: string, timeoutMs = 120_000, everyMs = 50): Promise<Job> {
  const read = async () =>
    (await (await fetch(`${url}/v1/reviews/${id}`, { headers: { authorization: `Bearer ${token}` } })).json()) as Job;
  return settledReview(read, { timeoutMs, intervalMs: everyMs });
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** One autocannon run; a non-2xx or an error is reported, never hidden. */
export async function load(options: Options): Promise<Load> {
  const result: Result = await autocannon({ connections: 100, duration: 10, timeout: 30, ...options });
  return {
    rps: result.requests.average,
    total: result.requests.total,
    p50: result.latency.p50,
    p99: result.latency.p99,
    max: result.latency.max,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export interface Load {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

// ---- the report ----------------------------------------------------------------------------

export interface Row {
  benchmark: string;
  figure: string;
  value: string;
  baseline?: string;
  ratio?: string;
  target?: string;
  /** true: meets the target; false: misses it; undefined: no target (informational). */
  pass?: boolean;
}

export const ms = (n: number) => `${n < 10 ? n.toFixed(2) : n.toFixed(1)} ms`;
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const rps = (n: number) => `${Math.round(n).toLocaleString('en')} rps`;
export const ratio = (n: number, d: number) => (d > 0 ? `${(n / d).toFixed(2)}x` : 'n/a');

export function printRows(title: string, rows: Row[]): void {
  const cells = rows.map((r) => [
    r.benchmark,
    r.figure,
    r.value,
    r.baseline ?? '',
    r.ratio ?? '',
    r.target ?? '',
    r.pass === undefined ? '' : r.pass ? 'PASS' : 'FAIL',
  ]);
  const head = ['benchmark', 'figure', 'value', 'baseline (same run)', 'ratio', 'target', ''];
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((x, i) => x.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(`\n## ${title}\n`);
  console.log(line(head));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
  console.log('');
}

/** Runs a benchmark's main when its file is the entry point; exit 1 when a target is missed. */
export async function runIfMain(meta: ImportMeta, title: string, main: () => Promise<Row[]>): Promise<void> {
  if (!meta.main) return;
  const rows = await main();
  printRows(title, rows);
  if (rows.some((r) => r.pass === false)) process.exitCode = 1;
}
