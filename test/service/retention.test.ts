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

/** The review's status, or the error code once it is gone. */
const statusOf = (t: TestService, token: string, id: string) =>
  t
    .client(token)
    .getReview(id)
    .then(
      (job) => job.status as string,
      (error: { error?: string }) => error.error,
    );

describe('retention', () => {
  it('a finished review is kept for the retention period, then deleted with its files on the next sweep', async () => {
    const t = await startTestService({ clock, retentionDays: 30 });
    opened.push(t);
    const client = t.client();
    const finished = async () => {
      const job = await client.createReview({ diff: DEBUGGER_DIFF, repository: 'r' });
      expect((await client.waitForReview(job.review_id, { timeoutMs: 20_000, pollIntervalMs: 25 })).status).toBe(
        'completed',
      );
      return job.review_id;
    };
    const older = await finished();
    clock.advance(2 * DAY);
    const newer = await finished();
    expect(await storedReviewParts(t)).toEqual(expect.arrayContaining([older, newer])); // files, or rows in PostgreSQL mode

    // A sweep runs on start, in the background: the older review's end shows it has run.
    clock.advance(29 * DAY); // tokens last 90 days by default, so the same token still works
    const kept = await t.restart({ clock, retentionDays: 30 });
    opened.push(kept);
    await expect.poll(() => statusOf(kept, t.reviewToken, older), { timeout: 15_000 }).toBe('not_found');
    expect(await statusOf(kept, t.reviewToken, newer)).toBe('completed'); // 29 days old: kept

    clock.advance(2 * DAY);
    const swept = await kept.restart({ clock, retentionDays: 30 });
    opened.push(swept);
    await expect.poll(() => statusOf(swept, t.reviewToken, newer), { timeout: 15_000 }).toBe('not_found');
    expect(await storedReviewParts(t)).toEqual([]);
  });
});
