// Waiting, by polling, until reviews are finished (completed or failed): the one loop for tests
// that need a finished review, whatever they read it through (raw HTTP, a client, a list).
import { setTimeout as sleep } from 'node:timers/promises';
import { isTerminalStatus } from '../../service/api/review-status.ts';
import type { ReviewStatus } from '../../service/api/schemas.ts';

export interface SettleOptions {
  /** Give up after this long. Default 20 s. */
  timeoutMs?: number;
  /** Between reads. Default 25 ms. */
  intervalMs?: number;
}

interface HasStatus {
  status: ReviewStatus | string;
}

const isSettled = (job: HasStatus) => isTerminalStatus(job.status as ReviewStatus);

/** Reads the reviews until every one is finished; returns the last read. */
export async function settledReviews<T extends HasStatus>(
  read: () => Promise<T[]>,
  options: SettleOptions = {},
): Promise<T[]> {
  const { timeoutMs = 20_000, intervalMs = 25 } = options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const jobs = await read();
    const unfinished = jobs.filter((job) => !isSettled(job));
    if (unfinished.length === 0) return jobs;
    if (Date.now() > deadline) {
      const which = unfinished.map(
        (job) => `${'review_id' in job ? String(job.review_id) : 'a review'} (${job.status})`,
      );
      throw new Error(`${unfinished.length} review(s) still unfinished after ${timeoutMs} ms: ${which.join(', ')}`);
    }
    await sleep(intervalMs);
  }
}

/** Reads one review until it is finished; returns it. */
export async function settledReview<T extends HasStatus>(
  read: () => Promise<T>,
  options: SettleOptions = {},
): Promise<T> {
  const [job] = await settledReviews(async () => [await read()], options);
  return job!;
}
