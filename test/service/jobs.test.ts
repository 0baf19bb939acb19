// The job runner under faults: time limits, unexpected errors, cancellation, restarts, bursts. Run
// on both runners: p-queue over lowdb, and pg-boss in PostgreSQL mode (the api-on-postgres project).
import { afterEach, describe, expect, it } from 'vitest';
import { DEBUGGER_DIFF, startTestService, storedReviews, type TestService } from '../support/test-service.ts';

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
    // (a limit the next review meets even on a busy machine, with a fresh worker thread to start)
    const t = await start({ jobTimeoutMs: 2000, concurrency: 1 });
    const client = t.client();
    const spinning = await client.createReview({ diff: 'SPIN\n', repository: 'r' });
    const after = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
    const failed = await wait(t, spinning.review_id);
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: 'timeout', message: expect.stringContaining('2 s') });
    expect((await wait(t, after.review_id)).status).toBe('completed');
    // the last resort, and only for a worker that never looks at the stop flag
    expect(t.logs.join('')).toContain('did not stop when asked; terminating it');
  });

  it('a job whose worker throws fails with internal_error; the error is logged, the diff is not', async () => {
    const t = await start({ concurrency: 1 });
    const client = t.client();
    const secretDiff = `THROW\n${'x'.repeat(20)}SECRET-DIFF-CONTENT-7f3a`;
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

  it('a worker that cannot start fails its job at once with internal_error, and the next job tries a new one', async () => {
    // Before: the task waited in the pool for a thread that never came, until the time limit.
    const brokenWorker = new URL('../fixtures/workers/broken-worker.ts', import.meta.url);
    const t = await start({ workerFile: brokenWorker, jobTimeoutMs: 120_000, concurrency: 1 });
    const client = t.client();
    for (const attempt of [1, 2]) {
      const job = await client.createReview({ diff: DEBUGGER_DIFF, repository: `r${attempt}` });
      const failed = await wait(t, job.review_id);
      expect(failed.error?.code).toBe('internal_error');
    }
    expect(t.logs.join('')).toContain('the review worker could not start');
  });

  it('cancel stops a running job at once and a queued one before it starts', async () => {
    const t = await start({ concurrency: 1 });
    const client = t.client();
    const slow = await client.createReview({ diff: 'SLEEP 10000\n', repository: 'r' });
    const queued = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
    await expect
      .poll(async () => (await client.getReview(slow.review_id)).status, {
        timeout: 30_000,
        message: 'the slow review running',
      })
      .toBe('running');
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
    // the worker stopped on its own: terminating threads can crash the process (in-process-runner.ts)
    expect(t.logs.join('')).not.toContain('terminating it');
  });

  it('jobs queued or running when the service stops are run again on the next start', async () => {
    const first = await start({ concurrency: 1, shutdownGraceMs: 200 });
    const client = first.client();
    const slow = await client.createReview({ diff: 'SLEEP 3000\n', repository: 'r' });
    const waiting = await Promise.all(
      [1, 2, 3].map(() => client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' })),
    );
    await expect
      .poll(async () => (await client.getReview(slow.review_id)).status, {
        timeout: 30_000,
        message: 'the slow review running',
      })
      .toBe('running');
    await first.stop();

    const statuses = (await storedReviews(first)).map((r) => r.status);
    expect(statuses).toEqual(['queued', 'queued', 'queued', 'queued']); // the running one was put back
    expect(first.logs.join('')).not.toContain('terminating it'); // it stopped when asked

    // The same data dir (or database): every job completes, none is lost or duplicated.
    const sameDatabase = first.databaseUrl && { databaseUrl: first.databaseUrl, dashboardToken: first.dashboardToken };
    const second = await start({ ...sameDatabase }, first.dataDir);
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
    // Acknowledged means written: every 202 is in the store already.
    const ids = new Set((await storedReviews(t)).map((r) => r.review_id));
    for (const job of jobs) expect(ids.has(job.review_id)).toBe(true);
    const done = await Promise.all(jobs.map((j) => wait(t, j.review_id)));
    expect(done.every((j) => j.status === 'completed' && j.comments?.length === 1)).toBe(true);
  });
});
