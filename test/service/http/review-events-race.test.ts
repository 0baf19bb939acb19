// A job that finishes while its event stream is being opened is still told. The stream used to
// read the job, then follow it: a change made between the two was heard by nobody, the stream
// told the stale state and then nothing for its whole lifetime (10 minutes), and a client waiting
// on it hung (a CI run on PostgreSQL timed out this way). Real service, real worker; the one seam
// is when the route's read of the job returns: only after the job has finished.
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { isTerminal } from '../../../service/api/review-status.ts';
import { ReviewService } from '../../../service/reviews/review-service.ts';
import { closeHealthy, sleep, startTestService, type TestService } from '../../support/test-service.ts';

const workerFile = new URL('../../fixtures/workers/controlled-worker.ts', import.meta.url);

let t: TestService;
beforeAll(async () => {
  t = await startTestService({ workerFile, rateLimits: { create: 0, read: 0, tokens: 0 } });
});
afterAll(() => closeHealthy(t));

it('a job that finishes while its stream opens ends the stream with the finished job', async () => {
  const client = t.client();
  const { review_id } = await client.createReview({ diff: 'SLEEP 300\n', repository: 'r' });
  const find = ReviewService.prototype.find;
  let slowed = 0;
  const spy = vi.spyOn(ReviewService.prototype, 'find').mockImplementation(async function (
    this: ReviewService,
    owner,
    id,
  ) {
    const read = { ...(await find.call(this, owner, id)) }; // as read then (lowdb's record changes in place)
    if (id !== review_id || slowed++ > 0 || isTerminal(read)) return read;
    // The first read of the job sees it unfinished, and returns only once the job has finished.
    for (let now = read; !isTerminal(now); now = await find.call(this, owner, id)) await sleep(20);
    return read;
  });
  try {
    const events: string[] = [];
    const job = await client.waitForReview(review_id, {
      timeoutMs: 15_000,
      onUpdate: (update) => events.push(update.status),
    });
    expect(slowed).toBeGreaterThan(0); // the seam was in the way
    expect(job.status).toBe('completed');
    expect(events.at(-1)).toBe('completed');
  } finally {
    spy.mockRestore();
  }
});
