// The job runner under faults: time limits, unexpected errors, cancellation, restarts, bursts.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEBUGGER_DIFF, sleep, startTestService, type TestService } from '../support/test-service.ts';

const workerFile = new URL('../fixtures/workers/controlled-worker.ts', import.meta.url);
const running: TestService[] = [];
async function start(options: Parameters<typeof startTestService>[0] = {}, dataDir?: string) {
  const t = await startTestService({ workerFile, ...options }, dataDir);
  running.push(t);
  return t;
}
afterEach(async () => {
  for (const t of running.splice(0).reverse()) {
    await t.close();
    expect(t.contract.violations).toEqual([]);
  }
});

const wait = (t: TestService, id: string) => t.client().waitForReview(id, { timeoutMs: 20_000, pollIntervalMs: 25 });

describe('job runner', () => {
  it('a job past its time limit fails with timeout, even one that never yields, and the runner goes on', async () => {
    const t = await start({ jobTimeoutMs: 500, concurrency: 1 });
    const client = t.client();
    const spinning = await client.createReview({ diff: 'SPIN\n', repository: 'r' });
    const after = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
    const failed = await wait(t, spinning.review_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'timeout', message: expect.stringContaining('0.5 s') });
    expect((await wait(t, after.review_id)).status).toBe('completed');
    // the last resort, and only for a worker that never looks at the stop flag
    expect(t.logs.join('')).toContain('did not stop when asked; terminating it');
  });

  it('a job whose worker throws fails with internal_error; the error is logged, the diff is not', async () => {
    const t = await start({ concurrency: 1 });
    const client = t.client();
    const secretDiff = 'THROW\n' + 'x'.repeat(20) + 'SECRET-DIFF-CONTENT-7f3a';
    const broken = await client.createReview({ diff: secretDiff, repository: 'r' });
    const failed = await wait(t, broken.review_id);
    expect(failed.error?.code).toBe('internal_error');
    expect(failed.error?.message).not.toContain('exploded'); // internals stay in the log
    const next = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
    expect((await wait(t, next.review_id)).status).toBe('completed');
    const log = t.logs.join('');
    expect(log).toContain('worker exploded');
    expect(log).not.toContain('SECRET-DIFF-CONTENT-7f3a');
    expect(log).not.toContain(t.reviewToken);
    expect(log).not.toContain(t.dashboardToken);
  });

  it('cancel stops a running job at once and a queued one before it starts', async () => {
    const t = await start({ concurrency: 1 });
    const client = t.client();
    const slow = await client.createReview({ diff: 'SLEEP 10000\n', repository: 'r' });
    const queued = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
    for (let i = 0; i < 200 && (await client.getReview(slow.review_id)).status !== 'running'; i++) await sleep(10);
    const cancelledRunning = await client.cancelReview(slow.review_id);
    const cancelledQueued = await client.cancelReview(queued.review_id);
    for (const job of [cancelledRunning, cancelledQueued]) {
      expect(job.status).toBe('failed');
      expect(job.error?.code).toBe('cancelled');
    }
    // A late result never overwrites the cancel, and the runner is free for new work.
    const next = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
    expect((await wait(t, next.review_id)).status).toBe('completed');
    expect((await client.getReview(queued.review_id)).error?.code).toBe('cancelled');
    // the worker stopped on its own: terminating threads can crash the process (runner.ts)
    expect(t.logs.join('')).not.toContain('terminating it');
  });

  it('jobs queued or running when the service stops are run again on the next start', async () => {
    const first = await start({ concurrency: 1, shutdownGraceMs: 200 });
    const client = first.client();
    const slow = await client.createReview({ diff: 'SLEEP 3000\n', repository: 'r' });
    const waiting = await Promise.all(
      [1, 2, 3].map(() => client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' })),
    );
    for (let i = 0; i < 200 && (await client.getReview(slow.review_id)).status !== 'running'; i++) await sleep(10);
    await first.stop();

    const onDisk = JSON.parse(await readFile(path.join(first.dataDir, 'store.json'), 'utf8'));
    const statuses = onDisk.reviews.map((r: { status: string }) => r.status);
    expect(statuses).toEqual(['queued', 'queued', 'queued', 'queued']); // the running one was put back
    expect(first.logs.join('')).not.toContain('terminating it'); // it stopped when asked

    // The same data dir with the normal engine: every job completes, none is lost or duplicated.
    const second = await start({}, first.dataDir);
    const second_client = second.client(first.reviewToken);
    for (const job of waiting) {
      const done = await second_client.waitForReview(job.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 });
      expect(done.status).toBe('completed');
      expect(done.comments?.[0]).toMatchObject({ file_path: 'src/app.js', line: 3 });
    }
    expect((await second_client.waitForReview(slow.review_id, { timeoutMs: 20_000 })).status).toBe('completed');
    expect((await second_client.listReviews({ limit: 100 })).reviews).toHaveLength(4);
  });

  it('concurrent creates each get their own job, all durable and all completed', async () => {
    const t = await start();
    const client = t.client();
    const jobs = await Promise.all(
      Array.from({ length: 40 }, (_, i) => client.createReview({ diff: DEBUGGER_DIFF, repository: `r${i}` })),
    );
    expect(new Set(jobs.map((j) => j.review_id)).size).toBe(40);
    // Acknowledged means written: every 202 is in the store file already.
    const onDisk = JSON.parse(await readFile(path.join(t.dataDir, 'store.json'), 'utf8'));
    const ids = new Set(onDisk.reviews.map((r: { review_id: string }) => r.review_id));
    for (const job of jobs) expect(ids.has(job.review_id)).toBe(true);
    const done = await Promise.all(jobs.map((j) => wait(t, j.review_id)));
    expect(done.every((j) => j.status === 'completed' && j.comments?.length === 1)).toBe(true);
  });
});
