// `diff-review serve` as a user runs it, in a child process of its own (the TypeScript source under
// Node's type stripper): for tests that kill it (-9), restart it, or read what it printed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'vitest';
import { readLock } from '../../service/store/data-dir-lock.ts';
import { sleep } from './test-service.ts';

export const CLI = path.resolve('service/cli.ts');
const BURST = 200;
/** The kill comes as this many creates have been acknowledged: some are in flight then. */
const KILL_AFTER = 20;
const children: ChildProcess[] = [];
const run = promisify(execFile);

/** `diff-review serve` on a free port; resolves once it answers. */
export async function serve(dir: string, env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dir], {
    env: { ...process.env, DIFF_REVIEW_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  for (let i = 0; i < 200; i++) {
    const url = readLock(dir)?.url;
    if (url && readLock(dir)?.pid === child.pid) {
      const ok = await fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) return { child, url, output: () => output };
    }
    if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}: ${output}`);
    await sleep(50);
  }
  throw new Error(`serve did not come up: ${output}`);
}

export const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    // killed by a signal: exitCode stays null and signalCode is set, and 'exit' may have fired already
    child.exitCode !== null || child.signalCode !== null
      ? resolve(child.exitCode)
      : child.once('exit', (code) => resolve(code)),
  );

/** For afterEach: kills (-9) every served child still running. */
export function killServed(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/**
 * Serves `dir`, makes a review token with the CLI, starts 200 creates 2 ms apart through `create`
 * and kills the service (-9) the moment the KILL_AFTER-th create is acknowledged, however fast or
 * slow the machine. Resolves once it has exited, with the token and what each acknowledged create
 * answered (by its index; `create` answers undefined for one not acknowledged). Checks that the
 * kill landed mid-burst: some creates acknowledged, not all.
 */
export async function killMidBurst<T>(
  dir: string,
  create: (served: { url: string; token: string }, i: number) => Promise<T | undefined>,
): Promise<{ token: string; acknowledged: Map<number, T> }> {
  const { child, url } = await serve(dir);
  const { stdout } = await run(process.execPath, [CLI, 'token', 'create', '--name', 'burst', '--data-dir', dir]);
  const token = stdout.trim();
  const acknowledged = new Map<number, T>();
  const burst = Array.from({ length: BURST }, async (_, i) => {
    await sleep(i * 2);
    if (child.killed) return;
    const answer = await create({ url, token }, i);
    if (answer === undefined) return;
    acknowledged.set(i, answer);
    if (acknowledged.size === KILL_AFTER) child.kill('SIGKILL');
  });
  await Promise.allSettled(burst);
  if (!child.killed)
    throw new Error(`only ${acknowledged.size} of ${BURST} creates were acknowledged; none was killed mid-burst`);
  await exited(child);
  expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(acknowledged.size).toBeLessThan(BURST); // the kill really landed mid-burst
  return { token, acknowledged };
}
