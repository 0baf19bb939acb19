// Retention: finished reviews are deleted after the retention period, with their files;
// unfinished ones never are. Time moves through the injectable clock.
import { afterAll, describe, expect, it } from 'vitest';
import { TestClock } from '../support/test-clock.ts';
import { DEBUGGER_DIFF, startTestService, storedReviewParts, type TestService } from '../support/test-service.ts';

const DAY = 24 * 60 * 60 * 1000;
const clock = new TestClock(Date.parse('2026-11-01T12:00:00.000Z'));
const opened: TestService[] = [];
afterAll(async () => {
  for (const t of opened.reverse()) await t.close();
});

describe('retention', () => {
  it('a finished review is kept for the retention period, then deleted with its files on the next sweep', async () => {
    const t = await startTestService({ clock, retentionDays: 30 });
    opened.push(t);
    const client = t.client();
    const job = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
    expect((await client.waitForReview(job.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 })).status).toBe(
      'completed',
    );
    expect(await storedReviewParts(t)).toContain(job.review_id); // files, or rows in PostgreSQL mode

    clock.advance(29 * DAY); // tokens last 90 days by default, so the same token still works
    const kept = await t.restart({ clock, retentionDays: 30 }); // a sweep runs on start
    opened.push(kept);
    expect((await kept.client(t.reviewToken).getReview(job.review_id)).status).toBe('completed');

    clock.advance(2 * DAY);
    const swept = await kept.restart({ clock, retentionDays: 30 });
    opened.push(swept);
    await expect(swept.client(t.reviewToken).getReview(job.review_id)).rejects.toMatchObject({
      status: 404,
      error: 'not_found',
    });
    expect(await storedReviewParts(t)).toEqual([]);
  });
});
