// A ReviewService for tests that only read reviews (find): nothing runs jobs or sends
// events behind it, so a test that reaches for either fails loudly.
import { ReviewService, type ReviewServiceOptions } from '../../service/reviews/review-service.ts';

export function readingReviewService(parts: Pick<ReviewServiceOptions, 'store' | 'clock'>): ReviewService {
  return new ReviewService({
    ...parts,
    runner: {} as never,
    events: {} as never,
    maxQueuedJobs: 1,
    retentionDays: 30,
    version: 'test',
  });
}
