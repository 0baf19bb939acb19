// Shared pieces of the service benchmarks: servers in child processes, autocannon runs, test
// diffs, percentiles and the report format (figure, baseline, ratio, target, PASS/FAIL).
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, open, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon, { type Options, type Result } from 'autocannon';
import { settledReview } from '../../support/settled-review.ts';
import type { ChildConfig, ChildStats } from './server-child.ts';

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

/** A git diff adding one file whose `count` added lines each hold a debugger statement. */
export function debuggerDiff(count: number, file = 'src/app.js'): string {
  const lines = Array.from({ length: count }, (_, i) => `+  if (step === ${i}) debugger;`);
  return [
    `diff --git a/${file} b/${file}`,
    'new file mode 100644',
    '--- /dev/null',
    `+++ b/${file}`,
    `@@ -0,0 +1,${count} @@`,
    ...lines,
    '',
  ].join('\n');
}

/**
 * A diff of exactly `bytes` bytes made of new JavaScript files of varied, code-like lines (a few of
 * which trip rules), the kind of input a large pull request brings.
 */
export function codeDiff(bytes: number, seed = 1): string {
  let state = seed >>> 0 || 1;
  const rand = () => (state = (Math.imul(state, 1103515245) + 12345) >>> 0) / 2 ** 32;
  const pick = <T>(items: T[]) => items[Math.floor(rand() * items.length)]!;
  const templates = [
    (n: number) => `  const value${n} = compute(input.field${n % 17}, ${n});`,
    (n: number) => `  if (value${n} > limit) { return format("item ${n}", value${n}); }`,
    (n: number) => `  // keep the order of the ${n} entries stable for the cache`,
    (n: number) => `  for (let i = 0; i < list${n}.length; i++) total += list${n}[i].size;`,
    (n: number) => `  logger.info({ id: ${n}, name }, 'processed');`,
    (n: number) => `export function handler${n}(request, reply) { return reply.send({ ok: true }); }`,
    (n: number) => `  await fetch(\`https://api.example.com/items/\${id}/${n}\`);`,
  ];
  // About one line in 500 trips a rule, as in real code: a 1 MB diff gets ~50 comments.
  const tripping = [
    (n: number) => `  console.log('debug ${n}', state);`,
    (n: number) => `  // TODO: split this function (${n})`,
    (n: number) => `  const hash${n} = crypto.createHash('md5').update(data).digest('hex');`,
  ];
  const files: string[] = [];
  let size = 0;
  let file = 0;
  while (true) {
    const name = `src/module${file++}/index.js`;
    const lines: string[] = [];
    let body = 0;
    const header = (count: number) =>
      `diff --git a/${name} b/${name}\nnew file mode 100644\n--- /dev/null\n+++ b/${name}\n@@ -0,0 +1,${count} @@\n`;
    const room = bytes - size - header(99999).length - 200;
    if (room < 500) break;
    const want = Math.min(room, 20_000 + Math.floor(rand() * 20_000));
    for (let n = 0; body < want; n++) {
      const line = `+${pick(rand() < 0.002 ? tripping : templates)(n)}\n`;
      lines.push(line);
      body += line.length;
    }
    const text = header(lines.length) + lines.join('');
    files.push(text);
    size += text.length;
  }
  // Pad to the exact size in a last small file.
  const padHeader =
    'diff --git a/pad.txt b/pad.txt\nnew file mode 100644\n--- /dev/null\n+++ b/pad.txt\n@@ -0,0 +1 @@\n+';
  const pad = bytes - size - padHeader.length - 1;
  files.push(`${padHeader}${'x'.repeat(Math.max(0, pad))}\n`);
  const diff = files.join('');
  if (Buffer.byteLength(diff) !== bytes) throw new Error(`codeDiff: ${Buffer.byteLength(diff)} bytes, wanted ${bytes}`);
  return diff;
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
