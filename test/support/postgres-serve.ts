// `diff-review serve --database-url` as a user starts it, in a child process of its own (the
// TypeScript source under Node's type stripper): for tests that run several instances on one
// database, kill one (-9) and start it again.
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLI } from './cli-process.ts';
import { sleep } from './test-service.ts';

export interface ServedInstance {
  child: ChildProcess;
  url: string;
  /** Everything it printed so far (JSON log lines). */
  output(): string;
}

const children: ChildProcess[] = [];

/** `serve` on a free port in PostgreSQL mode; resolves with its URL once it listens. */
export function serveOn(
  databaseUrl: string,
  dataDir: string,
  env: Record<string, string> = {},
  args: string[] = [],
): Promise<ServedInstance> {
  const serve = [CLI, 'serve', '--port', '0', '--data-dir', dataDir, '--database-url', databaseUrl, ...args];
  return started(
    spawn(process.execPath, serve, {
      env: { ...process.env, DIFF_REVIEW_LOG_LEVEL: 'info', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

/** An instance whose reviews run the controlled test worker (SLEEP diffs; see postgres-instance-child.ts). */
export function instanceOn(options: {
  databaseUrl: string;
  dashboardToken: string;
  concurrency?: number;
  shutdownGraceMs?: number;
  rateLimits?: { create?: number; read?: number; tokens?: number };
}): Promise<ServedInstance> {
  return started(
    spawn(process.execPath, [CHILD], {
      env: { ...process.env, INSTANCE_OPTIONS: JSON.stringify(options) },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

const CHILD = fileURLToPath(new URL('./postgres-instance-child.ts', import.meta.url));

/** Resolves once the child's log says it listens (and where); killInstances() ends it. */
export async function started(child: ChildProcess): Promise<ServedInstance> {
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  for (let i = 0; i < 400; i++) {
    const url = /"url":"(http:[^"]+)".*service listening/.exec(output)?.[1];
    if (url) return { child, url, output: () => output };
    if (child.exitCode !== null) throw new Error(`the instance exited ${child.exitCode}: ${output}`);
    await sleep(50);
  }
  throw new Error(`the instance did not come up: ${output}`);
}

/** For afterEach: kills (-9) every instance still running. */
export function killInstances(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}
