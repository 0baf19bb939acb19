// `diff-review serve` as a user runs it, for the tests of its flags: a real child process on a
// temp data dir, on a free port, given environment variables.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readLock } from '../../../service/store/data-dir-lock.ts';
import { sleep } from '../../support/test-service.ts';

export interface ServedCli {
  url: string;
  /** The data dir it was given (its dashboard-token is there). */
  dir: string;
  stop(): Promise<void>;
}

/** `cli`: the entry point to run, the source (service/cli.ts) unless told (e.g. the built dist/service/cli.js). */
export async function serveCli(
  env: Record<string, string>,
  args: string[] = [],
  { cli = path.resolve('service/cli.ts') } = {},
): Promise<ServedCli> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-serve-'));
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--data-dir', dir, ...args], {
    env: { ...process.env, DIFF_REVIEW_LOG_LEVEL: 'warn', ...env },
    stdio: 'ignore',
  });
  const stop = async () => {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  };
  for (let i = 0; i < 200; i++) {
    const lock = readLock(dir);
    if (lock?.url && lock.pid === child.pid) return { url: lock.url, dir, stop };
    if (child.exitCode !== null) break;
    await sleep(50);
  }
  await stop();
  throw new Error('diff-review serve did not come up');
}
