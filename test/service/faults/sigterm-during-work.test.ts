// SIGTERM while reviews run: `diff-review serve` exits 0 within its grace period, no job is left
// `running` in the store (each finished or went back to `queued`), and the next start runs the
// queued ones to the end. Real child process, real worker threads, real 1 MB diffs.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { createClient } from '../../../service/client/index.ts';
import { readLock } from '../../../service/store/data-dir-lock.ts';
import { codeDiff } from '../../bench/support/harness.ts';
import { sleep } from '../../support/test-service.ts';

const CLI = path.resolve('service/cli.ts');
const run = promisify(execFile);
const children: ChildProcess[] = [];
let dir = '';
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function serve(dataDir: string) {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--data-dir', dataDir, '--concurrency', '2'], {
    env: { ...process.env, DIFF_REVIEW_LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  children.push(child);
  for (let i = 0; i < 300; i++) {
    const lock = readLock(dataDir);
    if (
      lock?.url &&
      lock.pid === child.pid &&
      (await fetch(`${lock.url}/healthz`).then(
        (r) => r.ok,
        () => false,
      ))
    )
      return { child, url: lock.url };
    if (child.exitCode !== null) throw new Error(`serve exited ${child.exitCode}`);
    await sleep(50);
  }
  throw new Error('serve did not come up');
}

const exitOf = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

describe('SIGTERM during work', () => {
  it('leaves every job finished or queued, never running, and the next start finishes them', {
    timeout: 60_000,
  }, async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'diff-review-sigterm-'));
    const first = await serve(dir);
    const token = (
      await run(process.execPath, [CLI, 'token', 'create', '--name', 'sigterm', '--data-dir', dir])
    ).stdout.trim();
    const client = createClient({ baseUrl: first.url, token, retry: 0 });
    const jobs: { review_id: string }[] = [];
    for (let i = 0; i < 8; i++)
      jobs.push(await client.createReview({ diff: codeDiff(1_000_000, i + 1), repository: `r${i}` }));
    // Until the workers are busy.
    await expect
      .poll(
        async () =>
          (await Promise.all(jobs.map((j) => client.getReview(j.review_id)))).some((j) => j.status === 'running'),
        {
          timeout: 30_000,
          message: 'a review running',
        },
      )
      .toBe(true);

    const stopping = Date.now();
    first.child.kill('SIGTERM');
    expect(await exitOf(first.child)).toBe(0);
    expect(Date.now() - stopping).toBeLessThan(15_000); // the 5 s grace, and then some

    const doc = JSON.parse(await readFile(path.join(dir, 'store.json'), 'utf8')) as {
      reviews: { review_id: string; status: string }[];
    };
    expect(doc.reviews.filter((r) => r.status === 'running')).toEqual([]);
    const onDisk = new Map(doc.reviews.map((r) => [r.review_id, r.status]));
    for (const job of jobs) expect(['queued', 'completed']).toContain(onDisk.get(job.review_id));
    expect([...onDisk.values()].filter((s) => s === 'queued').length).toBeGreaterThan(0); // it really stopped mid-work

    const second = await serve(dir);
    const after = createClient({ baseUrl: second.url, token });
    for (const job of jobs) {
      const done = await after.waitForReview(job.review_id, { timeoutMs: 40_000, pollIntervalMs: 50 });
      expect(done.status).toBe('completed');
    }
    second.child.kill('SIGTERM');
    expect(await exitOf(second.child)).toBe(0);
  });
});
